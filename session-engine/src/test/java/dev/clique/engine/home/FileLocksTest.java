package dev.clique.engine.home;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clique.engine.testing.LockHolder;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileLocksTest {
  @TempDir Path dir;

  /**
   * Two engines on one home, as the kernel sees them: this process holds the attach lock (one
   * thread) and wants the tokens file (another thread) while the other process holds the tokens
   * file and waits for the attach lock. No thread waits on itself, yet a blocking request here is
   * refused with EDEADLK; the lock must simply be had once the other lets go.
   */
  @Test
  void aLockWantedWhileAnotherProcessWaitsForOneThisProcessHoldsIsHadWhenItLetsGo()
      throws Exception {
    Path tokens = Files.createFile(dir.resolve("tokens.lock"));
    Path attach = Files.createFile(dir.resolve("attach.lock"));
    try (FileChannel attachChannel = open(attach);
        FileChannel tokensChannel = open(tokens)) {
      FileLock attachHeld = FileLocks.take(attachChannel, false, attach, Duration.ofSeconds(5));
      Process other =
          new ProcessBuilder(
                  "python3",
                  "-c",
                  "import fcntl, sys\n"
                      + "tokens = open(sys.argv[1], 'r+')\n"
                      + "fcntl.lockf(tokens, fcntl.LOCK_EX)\n"
                      + "print('tokens', flush=True)\n"
                      + "attach = open(sys.argv[2], 'r+')\n"
                      + "fcntl.lockf(attach, fcntl.LOCK_EX)\n",
                  tokens.toString(),
                  attach.toString())
              .redirectErrorStream(true)
              .start();
      try {
        assertThat(new String(other.getInputStream().readNBytes(7))).isEqualTo("tokens\n");
        awaitBlockedIn(other.pid());

        CompletableFuture<FileLock> wanted =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return FileLocks.take(tokensChannel, false, tokens, Duration.ofSeconds(10));
                  } catch (IOException e) {
                    throw new IllegalStateException(e);
                  }
                });
        Thread.sleep(200);
        assertThat(wanted).as("the tokens file while the other process holds it").isNotDone();
        attachHeld.release();

        assertThat(other.waitFor(5, TimeUnit.SECONDS))
            .as("the other process got its lock")
            .isTrue();
        FileLock had = wanted.get(5, TimeUnit.SECONDS);
        assertThat(had.isValid()).isTrue();
        had.release();
      } finally {
        other.destroyForcibly();
      }
    }
  }

  @Test
  void aLockHeldTooLongIsAnErrorThatNamesTheFile() throws Exception {
    Path file = Files.createFile(dir.resolve("held.lock"));
    Process other = LockHolder.hold(file, true, 30);
    try {
      try (FileChannel channel = open(file)) {
        assertThat(FileLocks.take(channel, true, file, Duration.ofSeconds(1)).isShared())
            .as("a shared lock beside another shared one")
            .isTrue();
      }
      try (FileChannel again = open(file)) {
        assertThatThrownBy(() -> FileLocks.take(again, false, file, Duration.ofMillis(300)))
            .isInstanceOf(IOException.class)
            .hasMessageContaining(file.toString())
            .hasMessageContaining("another process");
      }
    } finally {
      other.destroyForcibly();
    }
  }

  private static FileChannel open(Path file) throws IOException {
    return FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
  }

  /**
   * Until the kernel lists the process among those waiting for a lock ({@code ->} in /proc/locks).
   */
  private static void awaitBlockedIn(long pid) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (System.nanoTime() < deadline) {
      for (String line : Files.readAllLines(Path.of("/proc/locks"))) {
        if (line.contains("->") && line.contains(" " + pid + " ")) {
          return;
        }
      }
      Thread.sleep(10);
    }
    throw new AssertionError("process " + pid + " never waited for the attach lock");
  }
}
