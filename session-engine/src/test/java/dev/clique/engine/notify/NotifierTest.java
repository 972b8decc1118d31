package dev.clique.engine.notify;

import static dev.clique.engine.notify.Views.view;
import static dev.clique.engine.notify.Views.waiting;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.session.SessionView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The notifier as the engine runs it, on a feed the test moves: the file read again, a notice sent.
 */
class NotifierTest {
  @TempDir Path dir;
  private final AtomicLong revision = new AtomicLong();
  private final AtomicReference<List<SessionView>> sessions = new AtomicReference<>(List.of());
  private final AtomicInteger looks = new AtomicInteger();
  private Notifier notifier;

  @AfterEach
  void tearDown() {
    if (notifier != null) {
      notifier.close();
    }
  }

  private void show(SessionView... views) {
    sessions.set(List.of(views));
    revision.incrementAndGet();
    notifier.moved();
  }

  private static void awaitTrue(BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 20 s: " + what);
      }
      Thread.sleep(10);
    }
  }

  @Test
  void aFileWrittenAfterTheStartIsReadAndItsCommandToldOnce() throws Exception {
    Path file = dir.resolve("notify.toml");
    Path told = dir.resolve("told");
    notifier =
        Notifier.start(
            file,
            revision::get,
            () -> {
              looks.incrementAndGet();
              return sessions.get();
            },
            id -> null,
            view -> false,
            "http://127.0.0.1:1",
            Clock.systemUTC());
    assertThat(notifier.targets()).isZero();
    show(waiting("a", "api", "question", "Continue? (y/n)"));
    Thread.sleep(200);
    assertThat(looks.get()).as("no target: the sessions are not looked at").isZero();

    Files.writeString(
        file,
        String.join(
            "\n",
            "[rules]",
            "dwell_seconds = 0.2",
            "[[command]]",
            "run = [\"sh\", \"-c\", \"cat >> \\\"$0\\\"; echo >> \\\"$0\\\"\", \"" + told + "\"]",
            "events = [\"waiting\"]",
            ""));
    awaitTrue(() -> notifier.targets() == 1, "the new file is read");
    int before = looks.get();
    show(view("a", "api", "working"));
    awaitTrue(() -> looks.get() > before, "a look at the session at work");
    show(waiting("a", "api", "question", "Continue? (y/n)"));
    awaitTrue(() -> Files.exists(told), "the command ran");
    Thread.sleep(1_000);
    List<String> lines = Files.readAllLines(told).stream().filter(l -> !l.isBlank()).toList();
    assertThat(lines)
        .singleElement()
        .asString()
        .contains("\"event\":\"waiting\"")
        .contains("Continue? (y/n)");

    Files.writeString(file, "[[command]]\nrun = [\"true\"]\n[[command]]\nrun = [\"true\"]\n");
    awaitTrue(() -> notifier.targets() == 2, "the changed file is read again");
    Files.delete(file);
    awaitTrue(() -> notifier.targets() == 0, "a file removed is no target");
  }
}
