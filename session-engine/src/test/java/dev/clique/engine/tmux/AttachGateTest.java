package dev.clique.engine.tmux;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.testing.LockHolder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AttachGateTest {
  @TempDir Path dir;

  @Test
  void anAttachWaitsForTheNotifyingCommandsAndTheyRunTogether() throws Exception {
    AttachGate gate = AttachGate.of(dir.resolve("socket"));
    CountDownLatch bothIn = new CountDownLatch(2);
    CountDownLatch release = new CountDownLatch(1);
    Runnable command =
        () -> {
          try {
            gate.notifying(
                () -> {
                  bothIn.countDown();
                  try {
                    return release.await(10, TimeUnit.SECONDS);
                  } catch (InterruptedException e) {
                    throw new TmuxException("interrupted", e);
                  }
                });
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        };
    CompletableFuture<Void> first = CompletableFuture.runAsync(command);
    CompletableFuture<Void> second = CompletableFuture.runAsync(command);
    assertThat(bothIn.await(5, TimeUnit.SECONDS)).as("two commands run at once").isTrue();

    CompletableFuture<Long> attached =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return gate.attaching(System::nanoTime);
              } catch (TmuxException e) {
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(200);
    assertThat(attached).as("an attach while commands run").isNotDone();
    long released = System.nanoTime();
    release.countDown();
    first.get(5, TimeUnit.SECONDS);
    second.get(5, TimeUnit.SECONDS);
    assertThat(attached.get(5, TimeUnit.SECONDS)).isGreaterThan(released);
  }

  @Test
  void anotherProcesssLockOnTheFileHoldsAnAttachBack() throws Exception {
    AttachGate gate = AttachGate.of(dir.resolve("other"));
    Path file = dir.resolve("other.clique-attach");
    gate.attaching(() -> null); // makes the file
    // Another engine's command, as the file shows it: a POSIX lock (what Java takes), shared.
    Process holder = LockHolder.hold(file, true, 1);
    long start = System.nanoTime();
    gate.attaching(() -> null);
    long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertThat(holder.waitFor(5, TimeUnit.SECONDS)).isTrue();
    assertThat(waitedMillis).as("ms the attach waited for the other process").isGreaterThan(300);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    try (FileChannel channel =
            FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        FileLock free = channel.tryLock()) {
      assertThat(free).as("the gate let go of the file").isNotNull();
    }
  }
}
