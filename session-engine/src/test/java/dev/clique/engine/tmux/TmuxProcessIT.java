package dev.clique.engine.tmux;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real tmux, on a socket of this test's own; the bugs of this layer only exist for real. */
class TmuxProcessIT {
  @TempDir Path dir;
  private TmuxProcess tmux;

  @BeforeEach
  void ownSocket() {
    tmux = new TmuxProcess("tmux", "clique-test-" + UUID.randomUUID(), Duration.ofSeconds(5));
    assertThat(tmux.installed()).as("tmux must be installed to run this suite").isTrue();
  }

  @AfterEach
  void killOwnServer() {
    tmux.killServer();
  }

  @Test
  void theDefaultSocketIsCliqueAndTheEnvironmentOverridesIt() {
    assertThat(TmuxProcess.socketFrom(Map.of())).isEqualTo("clique");
    assertThat(TmuxProcess.socketFrom(Map.of("CLIQUE_TMUX_SOCKET", "clique-env-check")))
        .isEqualTo("clique-env-check");
  }

  @Test
  void textIsTypedLiterallyNeverAsKeyNamesOrCommandSeparators() throws Exception {
    tmux.newSession("s1", dir, List.of("cat"), Map.of());
    String hostile = "Enter C-c -x ; ls; echo $HOME \\; end;";
    tmux.sendText("s1", hostile);
    tmux.sendKey("s1", "Enter");
    assertThat(waitForPane("s1", hostile)).contains(hostile);
  }

  @Test
  void aTargetNamesExactlyOneSessionNeverAPrefix() throws Exception {
    tmux.newSession("abcd", dir, List.of("cat"), Map.of());
    tmux.newSession("abc", dir, List.of("cat"), Map.of());
    tmux.killSession("abc");
    assertThat(tmux.listPanes()).extracting(PaneInfo::session).containsExactly("abcd");
  }

  @Test
  void aSessionGetsItsEnvironmentAndSizeAndTheLargeHistory() throws Exception {
    Path out = dir.resolve("env.txt");
    tmux.newSession(
        "env",
        dir,
        List.of("sh", "-c", "echo \"$CLIQUE_SESSION\" > " + out + "; exec cat"),
        Map.of("CLIQUE_SESSION", "abc-123"));
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (!Files.exists(out) || Files.readString(out).isBlank()) {
      assertThat(System.nanoTime()).isLessThan(deadline);
      Thread.sleep(50);
    }
    assertThat(Files.readString(out).strip()).isEqualTo("abc-123");
    PaneInfo pane = tmux.listPanes().get(0);
    assertThat(pane.cols()).isEqualTo(TmuxProcess.COLS);
    assertThat(pane.rows()).isEqualTo(TmuxProcess.ROWS);
  }

  @Test
  void noServerMeansNoPanesNotAnError() throws Exception {
    assertThat(tmux.listPanes()).isEmpty();
  }

  private String waitForPane(String name, String expected) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    String captured = "";
    while (System.nanoTime() < deadline) {
      captured = tmux.capturePane(name, 50);
      if (captured.contains(expected)) {
        return captured;
      }
      Thread.sleep(50);
    }
    return captured;
  }
}
