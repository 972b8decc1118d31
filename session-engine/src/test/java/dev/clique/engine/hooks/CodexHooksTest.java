package dev.clique.engine.hooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import dev.clique.engine.state.Attention;
import dev.clique.engine.state.Report;
import dev.clique.engine.state.SessionState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Codex 0.169.0's hook events as the real program sent them ({@code hooks/codex/*.json}), and the
 * {@code -c} value that installs its hooks already trusted.
 */
class CodexHooksTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HookDialect codex = HookDialect.named("codex").orElseThrow();

  private Optional<Report> read(String fixture) throws IOException {
    try (InputStream in = getClass().getResourceAsStream("/hooks/codex/" + fixture)) {
      return codex.read(JSON.readTree(in), 1_000);
    }
  }

  @Test
  void aTurnIsWorkingUntilItStopsOrIsInterrupted() throws Exception {
    for (String working : List.of("user-prompt-submit", "pre-tool-use", "post-tool-use")) {
      assertThat(read(working + ".json").orElseThrow().state())
          .as(working)
          .isEqualTo(SessionState.WORKING);
    }
    assertThat(read("stop.json").orElseThrow().state()).isEqualTo(SessionState.IDLE);
    Report interrupted = read("interrupt.json").orElseThrow();
    assertThat(interrupted.state()).as("Esc during a turn").isEqualTo(SessionState.IDLE);
    assertThat(interrupted.evidence()).isEqualTo("Interrupt");
  }

  @Test
  void aPermissionRequestIsWaitingForItsCommand() throws Exception {
    Report report = read("permission-request.json").orElseThrow();
    assertThat(report.state()).isEqualTo(SessionState.WAITING);
    assertThat(report.attention())
        .isEqualTo(
            new Attention("permission", "Bash: echo approved > /home/dev/marker.txt", 1_000));
    assertThat(report.evidence()).isEqualTo("PermissionRequest Bash");
  }

  @Test
  void theSessionsStartAndEndSayNothingOfTheState() throws Exception {
    assertThat(read("session-start.json")).isEmpty();
    assertThat(read("session-end.json")).isEmpty();
  }

  @Test
  void aBodyWithoutAnEventNameIsRefused() {
    assertThatThrownBy(() -> codex.read(JSON.createObjectNode().put("prompt", "hi"), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hook_event_name");
  }

  @Test
  void theTrustedHashIsTheOneCodexRecordsItself() {
    // What the real Codex 0.169.0 wrote to hooks.state after "Trust all" for a -c hook
    // Interrupt=[{hooks=[{type="command",command="true"}]}] (its default timeout there: 1 s).
    assertThat(CodexHooks.trustedHash("interrupt", "true", 1))
        .isEqualTo("fb1ffe26e8dbd2e7fb8855d602d1545f7e1b53854ebfb71aead8f18db9e7607a");
  }

  @Test
  void theOverrideIsOneTomlTableOfHooksWithTheirTrust() throws Exception {
    String url = "http://127.0.0.1:3200/api/sessions/s/hook";
    String value = codex.install(url, Path.of("/nonexistent/clique-hooks")).argument();
    assertThat(value).startsWith("hooks={").doesNotContain("mxp_");
    JsonNode hooks = new TomlMapper().readTree(value).path("hooks");
    String command = HookRelay.command(url);
    for (String event :
        List.of("UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "Stop")) {
      JsonNode hook = hooks.at("/" + event + "/0/hooks/0");
      assertThat(hook.path("type").asText()).as(event).isEqualTo("command");
      assertThat(hook.path("command").asText()).as(event).isEqualTo(command);
      assertThat(hook.path("timeout").asInt()).as(event).isEqualTo(CodexHooks.TIMEOUT_SECONDS);
    }
    JsonNode trust = hooks.path("state").path(CodexHooks.SOURCE + ":permission_request:0:0");
    assertThat(trust.path("trusted_hash").asText())
        .isEqualTo(
            "sha256:"
                + CodexHooks.trustedHash(
                    "permission_request", command, CodexHooks.TIMEOUT_SECONDS));
    assertThat(hooks.path("state").path(CodexHooks.SOURCE + ":interrupt:0:0").isObject()).isTrue();
  }
}
