package dev.clique.engine.hooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.state.Attention;
import dev.clique.engine.state.Report;
import dev.clique.engine.state.SessionState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pi 1.6.0's events as clique's extension posted them from the real program ({@code
 * hooks/pi/*.json}), and the extension file the engine writes into its own folder for {@code pi
 * -e}.
 */
class PiHooksTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HookDialect pi = HookDialect.named("pi").orElseThrow();

  @TempDir Path dir;

  private Optional<Report> read(String fixture) throws IOException {
    try (InputStream in = getClass().getResourceAsStream("/hooks/pi/" + fixture)) {
      return pi.read(JSON.readTree(in), 1_000);
    }
  }

  @Test
  void aRunIsWorkingUntilItSettles() throws Exception {
    assertThat(read("agent-start.json").orElseThrow().state()).isEqualTo(SessionState.WORKING);
    Report tool = read("tool-call.json").orElseThrow();
    assertThat(tool.state()).isEqualTo(SessionState.WORKING);
    assertThat(tool.evidence()).isEqualTo("pi tool_call bash");
    assertThat(read("agent-settled.json").orElseThrow().state()).isEqualTo(SessionState.IDLE);
    assertThat(read("agent-settled-aborted.json").orElseThrow().state())
        .as("Esc during a run")
        .isEqualTo(SessionState.IDLE);
  }

  @Test
  void aRunThatSettlesOnAnErrorIsAnErrorSayingIt() throws Exception {
    Report report = read("agent-settled-error.json").orElseThrow();
    assertThat(report.state()).isEqualTo(SessionState.ERROR);
    assertThat(report.attention())
        .isEqualTo(
            new Attention(
                "error",
                "429 {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"scripted"
                    + " failure\"}}",
                1_000));
  }

  @Test
  void aRunThatSettlesOnItsVendorsRateLimitIsAUsageLimitInTheVendorsWords() throws Exception {
    Report report = read("agent-settled-rate-limit.json").orElseThrow();
    assertThat(report.state()).isEqualTo(SessionState.WAITING);
    assertThat(report.attention().kind()).isEqualTo("usage_limit");
    assertThat(report.attention().detail()).contains("Rate limit reached");
    assertThat(report.evidence()).isEqualTo("pi agent_settled on a usage limit");
  }

  @Test
  void anExtensionsDialogIsWaitingForAPersonUntilItCloses() throws Exception {
    Report asked = read("ui-prompt-start.json").orElseThrow();
    assertThat(asked.state()).isEqualTo(SessionState.WAITING);
    assertThat(asked.attention())
        .isEqualTo(
            new Attention("question", "⚠️ Dangerous command: rm -rf ./nothing-here Allow?", 1_000));
    assertThat(read("ui-prompt-end.json").orElseThrow().state()).isEqualTo(SessionState.WORKING);
  }

  @Test
  void anEventOfAnotherShapeIsRefusedAndAnUnknownOneSaysNothing() throws Exception {
    assertThatThrownBy(() -> pi.read(JSON.readTree("{\"hook_event_name\":\"Stop\"}"), 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> pi.read(JSON.readTree("{\"pi_event\":42}"), 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> pi.read(JSON.readTree("{\"pi_event\":\"agent_settled\",\"error\":[1]}"), 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(pi.read(JSON.readTree("{\"pi_event\":\"session_shutdown\"}"), 1)).isEmpty();
  }

  @Test
  void aLongOrManyLinedDetailIsCutToOneShortLine() throws Exception {
    String error = "x".repeat(5_000) + "\nsecond line";
    Report report =
        pi.read(JSON.createObjectNode().put("pi_event", "agent_settled").put("error", error), 1)
            .orElseThrow();
    assertThat(report.attention().detail()).hasSizeLessThanOrEqualTo(300).doesNotContain("second");
  }

  @Test
  void theExtensionIsWrittenPrivatelyIntoTheEnginesFolderAndNamed() throws Exception {
    Path folder = dir.resolve("hooks");
    String path = pi.install("http://127.0.0.1:1/api/sessions/x/hook", folder).argument();

    Path file = Path.of(path);
    assertThat(file).isEqualTo(folder.resolve("pi-extension.mjs"));
    assertThat(Files.readString(file))
        .contains("CLIQUE_ATTENTION_TOKEN", "agent_settled", "ui_prompt_start")
        .doesNotContain("127.0.0.1:1");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)))
        .isEqualTo("rwx------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    Files.writeString(file, "tampered");
    assertThat(pi.install("http://127.0.0.1:1/api/sessions/y/hook", folder).argument())
        .isEqualTo(path);
    assertThat(Files.readString(file)).as("put back whole").contains("agent_settled");
  }
}
