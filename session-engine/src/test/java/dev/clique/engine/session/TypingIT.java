package dev.clique.engine.session;

import static dev.clique.engine.testing.EngineSandbox.pane;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.testing.EngineSandbox;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A send's text and Enter on real tmux, to a CLI that guards against pastes and reads its input
 * only every 600 ms (the fixture {@code guarded.py}): the Enter submits, as a person's would.
 */
class TypingIT {
  @TempDir Path dir;
  private EngineSandbox sandbox;
  private SessionService service;

  @BeforeEach
  void sandbox() throws Exception {
    sandbox = new EngineSandbox(dir);
    service = sandbox.service();
  }

  @AfterEach
  void cleanUp() {
    sandbox.close();
  }

  @Test
  void textAndEnterSubmitToASlowCliThatGuardsAgainstPastes() throws Exception {
    String id = sandbox.create(service, "guarded").id();
    awaitLine(id, "guarded> ");

    service.send(id, "Summarise the README", true, null);

    awaitLine(id, "submitted: Summarise the README");
  }

  @Test
  void theSameTextTwiceIsSubmittedTwice() throws Exception {
    String id = sandbox.create(service, "guarded").id();
    awaitLine(id, "guarded> ");

    service.send(id, "ls", true, null);
    service.send(id, "ls", true, null);

    awaitLines(id, "submitted: ls", 2);
  }

  private void awaitLine(String id, String line) throws Exception {
    awaitLines(id, line, 1);
  }

  private void awaitLines(String id, String line, int times) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    long seen = 0;
    while (System.nanoTime() < deadline) {
      List<String> lines = service.peek(id, 40).lines();
      seen = lines.stream().filter(l -> l.strip().equals(line.strip())).count();
      if (seen >= times) {
        return;
      }
      Thread.sleep(50);
    }
    assertThat(seen)
        .as("lines %s on the pane, which shows:%n%s", line, pane(service, id))
        .isGreaterThanOrEqualTo(times);
  }
}
