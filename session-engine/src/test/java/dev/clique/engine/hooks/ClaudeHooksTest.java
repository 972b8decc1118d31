package dev.clique.engine.hooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.state.Attention;
import dev.clique.engine.state.Report;
import dev.clique.engine.state.SessionState;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Claude Code's hook events, as the real 2.1.328 sent them ({@code hooks/claude/*.json}), and what
 * each says of the state; Codex 0.169.0 sends the same shape ({@code hooks/codex/*.json}).
 */
class ClaudeHooksTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HookDialect claude = HookDialect.named("claude").orElseThrow();

  /** Claude Code takes its hooks as an argument: nothing is written. */
  private static final Path NO_FOLDER = Path.of("/nonexistent/clique-hooks");

  private Optional<Report> read(String fixture) throws IOException {
    try (InputStream in = getClass().getResourceAsStream("/hooks/" + fixture)) {
      return claude.read(JSON.readTree(in), 1_000);
    }
  }

  @Test
  void aPermissionRequestIsWaitingForThatToolAndCommand() throws Exception {
    Report report = read("claude/PermissionRequest.json").orElseThrow();
    assertThat(report.state()).isEqualTo(SessionState.WAITING);
    assertThat(report.attention())
        .isEqualTo(new Attention("permission", "Bash: echo clique-marker-42 > marker.txt", 1_000));
    assertThat(report.evidence()).isEqualTo("PermissionRequest Bash");
  }

  @Test
  void askUserQuestionIsAQuestionNotAPermission() throws Exception {
    Report report = read("claude/PermissionRequest.AskUserQuestion.json").orElseThrow();
    assertThat(report.attention().kind()).isEqualTo("question");
    assertThat(report.attention().detail()).isEqualTo("Which colour should the button be?");
  }

  @Test
  void theTurnsEventsAreWorkingThenIdle() throws Exception {
    assertThat(read("claude/UserPromptSubmit.json").orElseThrow().state())
        .isEqualTo(SessionState.WORKING);
    assertThat(read("claude/PreToolUse.json").orElseThrow().state())
        .isEqualTo(SessionState.WORKING);
    assertThat(read("claude/PostToolUse.json").orElseThrow().state())
        .isEqualTo(SessionState.WORKING);
    assertThat(read("claude/Stop.json").orElseThrow().state()).isEqualTo(SessionState.IDLE);
    assertThat(read("claude/Notification.idle_prompt.json").orElseThrow().state())
        .as("waiting for the next prompt is idle, not a question")
        .isEqualTo(SessionState.IDLE);
  }

  @Test
  void aStopFailureIsAnErrorOfItsType() throws Exception {
    Report overloaded = read("claude/StopFailure.json").orElseThrow();
    assertThat(overloaded.state()).isEqualTo(SessionState.ERROR);
    assertThat(overloaded.attention().detail()).isEqualTo("server_error");
    assertThat(read("claude/StopFailure.authentication_failed.json").orElseThrow().attention())
        .extracting(Attention::detail)
        .isEqualTo("authentication_failed");
  }

  @Test
  void aStopOnItsVendorsRateLimitIsAUsageLimitAPersonWaitsForNotAnError() throws Exception {
    Report limited = read("claude/StopFailure.rate_limit.json").orElseThrow();
    assertThat(limited.state()).isEqualTo(SessionState.WAITING);
    assertThat(limited.attention().kind()).isEqualTo("usage_limit");
    assertThat(limited.attention().detail())
        .isEqualTo(
            "API Error: Request rejected (429) · This request would exceed the rate limit for your"
                + " organization of 50 requests per minute.");
    assertThat(limited.attention().resetsAt()).as("Claude says no time with an API key").isNull();
  }

  @Test
  void eventsThatSayNothingOfTheStateChangeNothing() throws Exception {
    assertThat(read("claude/SessionStart.json")).isEmpty();
    assertThat(read("claude/SessionEnd.json")).isEmpty();
  }

  @Test
  void codexSendsTheSameShape() throws Exception {
    assertThat(read("codex/permission-request.json").orElseThrow().attention().detail())
        .isEqualTo("Bash: echo approved > /home/dev/marker.txt");
    assertThat(read("codex/stop.json").orElseThrow().state()).isEqualTo(SessionState.IDLE);
  }

  @Test
  void aBodyWithoutAnEventNameIsRefused() {
    JsonNode body = JSON.createObjectNode().put("tool_name", "Bash");
    assertThatThrownBy(() -> claude.read(body, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hook_event_name");
  }

  @Test
  void theSettingsSendEveryEventToTheEngineWithTheTokenNamedNotWritten() throws Exception {
    JsonNode settings =
        JSON.readTree(
            claude.install("http://127.0.0.1:3200/api/sessions/s/hook", NO_FOLDER).argument());
    JsonNode hook = settings.at("/hooks/PermissionRequest/0/hooks/0");
    assertThat(hook.path("type").asText()).isEqualTo("http");
    assertThat(hook.path("url").asText()).isEqualTo("http://127.0.0.1:3200/api/sessions/s/hook");
    assertThat(hook.at("/headers/Authorization").asText())
        .isEqualTo("Bearer $CLIQUE_ATTENTION_TOKEN");
    assertThat(settings.path("hooks").fieldNames())
        .toIterable()
        .contains("UserPromptSubmit", "PermissionRequest", "Stop", "StopFailure");
    assertThat(settings.toString()).doesNotContain("mxp_");
  }
}
