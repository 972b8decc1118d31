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
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Qwen Code 0.24.4's hook events as the real program sent them ({@code hooks/qwen/*.json}, paths
 * made neutral), and the system defaults file that installs its hooks.
 */
class QwenHooksTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String URL = "http://127.0.0.1:3200/api/sessions/s/hook";
  private final HookDialect qwen = HookDialect.named("qwen").orElseThrow();

  private Optional<Report> read(String fixture) throws IOException {
    try (InputStream in = getClass().getResourceAsStream("/hooks/qwen/" + fixture)) {
      return qwen.read(JSON.readTree(in), 1_000);
    }
  }

  @Test
  void aTurnIsWorkingUntilItStops() throws Exception {
    for (String working : List.of("user-prompt-submit", "pre-tool-use", "post-tool-use")) {
      assertThat(read(working + ".json").orElseThrow().state())
          .as(working)
          .isEqualTo(SessionState.WORKING);
    }
    Report stop = read("stop.json").orElseThrow();
    assertThat(stop.state()).isEqualTo(SessionState.IDLE);
    assertThat(stop.evidence()).isEqualTo("Stop");
  }

  @Test
  void aPermissionRequestIsWaitingForItsCommand() throws Exception {
    Attention expected =
        new Attention(
            "permission",
            "run_shell_command: perl -e 'select(undef,undef,undef,6)' && echo built > build.log",
            1_000);
    Report request = read("permission-request.json").orElseThrow();
    assertThat(request.state()).isEqualTo(SessionState.WAITING);
    assertThat(request.attention()).isEqualTo(expected);
    assertThat(request.evidence()).isEqualTo("PermissionRequest run_shell_command");
    Report notification = read("notification-permission-prompt.json").orElseThrow();
    assertThat(notification.state()).isEqualTo(SessionState.WAITING);
    assertThat(notification.attention().kind()).isEqualTo("permission");
  }

  @Test
  void aFailedTurnIsAnErrorThatTheIdleNotificationAfterItLeaves() throws Exception {
    Report failed = read("stop-failure.json").orElseThrow();
    assertThat(failed.state()).isEqualTo(SessionState.ERROR);
    assertThat(failed.attention()).isEqualTo(new Attention("error", "invalid_request", 1_000));
    assertThat(read("notification-idle-prompt.json"))
        .as("the idle prompt Qwen Code announces right after StopFailure")
        .isEmpty();
  }

  @Test
  void itsQuestionToolAsksAQuestion() {
    JsonNode event =
        JSON.createObjectNode()
            .put("hook_event_name", "PermissionRequest")
            .put("tool_name", "ask_user_question")
            .set(
                "tool_input",
                JSON.createObjectNode()
                    .set(
                        "questions",
                        JSON.createArrayNode()
                            .add(JSON.createObjectNode().put("question", "Which branch?"))));
    Report report = qwen.read(event, 5).orElseThrow();
    assertThat(report.attention()).isEqualTo(new Attention("question", "Which branch?", 5));
  }

  @Test
  void theSessionsStartAndEndSayNothingOfTheState() throws Exception {
    assertThat(read("session-start.json")).isEmpty();
    assertThat(read("session-end.json")).isEmpty();
  }

  @Test
  void aBodyWithoutAnEventNameIsRefused() {
    assertThatThrownBy(() -> qwen.read(JSON.createObjectNode().put("prompt", "hi"), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hook_event_name");
  }

  @Test
  void itsHooksGoInAFileNamedInThePanesEnvironmentNotInItsArguments() throws Exception {
    HookDialect.Install install = qwen.install(URL, Path.of("/nonexistent/clique-hooks"));
    assertThat(install.argument()).isEmpty();
    assertThat(install.environment()).isEmpty();
    assertThat(install.file().variable()).isEqualTo("QWEN_CODE_SYSTEM_DEFAULTS_PATH");
    JsonNode hooks = JSON.readTree(install.file().content()).path("hooks");
    assertThat(hooks.fieldNames())
        .toIterable()
        .containsExactlyInAnyOrder(
            "UserPromptSubmit",
            "PreToolUse",
            "PermissionRequest",
            "PostToolUse",
            "PostToolUseFailure",
            "Notification",
            "Stop",
            "StopFailure");
    JsonNode hook = hooks.path("PermissionRequest").path(0).path("hooks").path(0);
    assertThat(hooks.path("PermissionRequest").path(0).path("matcher").asText()).isEqualTo("*");
    assertThat(hook.path("type").asText()).isEqualTo("http");
    assertThat(hook.path("url").asText()).isEqualTo(URL);
    assertThat(hook.path("headers").path("Authorization").asText())
        .as("the token by name, from the pane's environment")
        .isEqualTo("Bearer $CLIQUE_ATTENTION_TOKEN");
    assertThat(hook.path("allowedEnvVars").toString()).isEqualTo("[\"CLIQUE_ATTENTION_TOKEN\"]");
  }

  @Test
  void anAdministratorsOwnDefaultsAreKeptBesideTheHooks() throws Exception {
    String own =
        "{\"general\":{\"enableAutoUpdate\":false},"
            + "\"hooks\":{\"Stop\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"audit\"}]}]}}";
    JsonNode merged = JSON.readTree(QwenHooks.settingsOver(URL, own));
    assertThat(merged.path("general").path("enableAutoUpdate").asBoolean(true)).isFalse();
    JsonNode stop = merged.path("hooks").path("Stop");
    assertThat(stop).hasSize(2);
    assertThat(stop.path(0).path("hooks").path(0).path("command").asText()).isEqualTo("audit");
    assertThat(stop.path(1).path("hooks").path(0).path("url").asText()).isEqualTo(URL);
    assertThat(merged.path("hooks").has("PermissionRequest")).isTrue();
  }

  @Test
  void defaultsThatAreNoObjectGiveTheHooksAlone() throws Exception {
    for (String own : new String[] {null, "", "not json", "[1,2]", "\"text\""}) {
      assertThat(JSON.readTree(QwenHooks.settingsOver(URL, own)))
          .as("own defaults %s", own)
          .isEqualTo(JSON.readTree(((QwenHooks) qwen).settings(URL)));
    }
  }
}
