package dev.clique.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.testing.TestEngine;
import dev.clique.engine.token.Scope;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /api/sessions/{id}/hook}: a CLI's own hook event, sent with the token bound to its
 * session, decides the state; another session's token, or a body that is no event, changes nothing.
 * The CLI here is a shell the catalogue says speaks Claude Code's hooks.
 */
class HookRouteIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path home;
  private static TestEngine engine;
  private static String operator;
  private static String hooked;
  private static String piSession;
  private static String other;
  private static String boundToHooked;
  private static String boundToOther;
  private static String qwen;
  private static String boundToQwen;

  @BeforeAll
  static void start() throws Exception {
    engine =
        TestEngine.startWithClis(
            home,
            "[cli.hooked]\ncommand = \"bash\"\nargs = [\"--norc\", \"--noprofile\"]\n"
                + "hooks = \"claude\"\n"
                + "[cli.qwenhooked]\ncommand = \"bash\"\nargs = [\"--norc\", \"--noprofile\"]\n"
                + "hooks = \"qwen\"\n"
                + "[cli.pi-hooked]\ncommand = \"bash\"\nargs = [\"--norc\", \"--noprofile\"]\n"
                + "hooks = \"pi\"\n");
    operator = engine.mint(EnumSet.of(Scope.READ, Scope.WRITE), "");
    hooked = create("hooked");
    piSession = create("pi-hooked");
    other = create("shell");
    boundToHooked = engine.mint(Set.of(Scope.ATTENTION), hooked);
    boundToOther = engine.mint(Set.of(Scope.ATTENTION), other);
    qwen = create("qwenhooked");
    boundToQwen = engine.mint(Set.of(Scope.ATTENTION), qwen);
  }

  @AfterAll
  static void stop() {
    engine.close();
  }

  private static String create(String cli) throws Exception {
    return engine.create(operator, cli, home, cli);
  }

  private static HttpResponse<String> hook(String id, String token, String body) throws Exception {
    return engine.send("POST", "/api/sessions/" + id + "/hook", token, body);
  }

  private static JsonNode session(String id) throws Exception {
    for (JsonNode s :
        JSON.readTree(engine.send("GET", "/api/state", operator, null).body()).path("sessions")) {
      if (s.path("id").asText().equals(id)) {
        return s;
      }
    }
    throw new AssertionError("no session " + id);
  }

  @Test
  void aPermissionRequestMakesItWaitingWithWhyAndWhoSaidSo() throws Exception {
    HttpResponse<String> answer =
        hook(
            hooked,
            boundToHooked,
            "{\"hook_event_name\":\"PermissionRequest\",\"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":\"python3 -c 'print(1)'\"}}");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    assertThat(JSON.readTree(answer.body())).as("decides nothing for the CLI").isEmpty();
    JsonNode session = session(hooked);
    assertThat(session.path("state").asText()).isEqualTo("waiting");
    assertThat(session.path("signal").asText()).isEqualTo("waiting");
    assertThat(session.at("/attention/kind").asText()).isEqualTo("permission");
    assertThat(session.at("/attention/detail").asText()).isEqualTo("Bash: python3 -c 'print(1)'");
    assertThat(session.at("/state_source/authority").asText()).isEqualTo("hook");
    assertThat(session.at("/state_source/evidence").asText()).isEqualTo("PermissionRequest Bash");

    hook(hooked, boundToHooked, "{\"hook_event_name\":\"Stop\"}");
    assertThat(session(hooked).path("state").asText()).isEqualTo("idle");
    assertThat(session(hooked).path("attention").isNull()).isTrue();
  }

  @Test
  void anotherSessionsTokenIs403AndChangesNothing() throws Exception {
    hook(hooked, boundToHooked, "{\"hook_event_name\":\"Stop\"}");
    HttpResponse<String> foreign =
        hook(
            hooked,
            boundToOther,
            "{\"hook_event_name\":\"StopFailure\",\"error_type\":\"rate_limit\"}");
    assertThat(foreign.statusCode()).isEqualTo(403);
    assertThat(session(hooked).path("state").asText()).isEqualTo("idle");
  }

  @Test
  void aBodyThatIsNoEventIs400AndTheStateStays() throws Exception {
    hook(hooked, boundToHooked, "{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"hi\"}");
    for (String bad : new String[] {"{\"tool_name\":\"Bash\"}", "[1,2]", "{not json"}) {
      HttpResponse<String> answer = hook(hooked, boundToHooked, bad);
      assertThat(answer.statusCode()).as(bad + " -> " + answer.body()).isEqualTo(400);
      assertThat(session(hooked).path("state").asText()).as(bad).isEqualTo("working");
    }
    hook(hooked, boundToHooked, "{\"hook_event_name\":\"Stop\"}");
  }

  /**
   * A CLI that reads its hooks from a file its environment names (Qwen Code): the engine writes one
   * of its own for the session, its owner's only, with the session's hook URL and no token, and
   * names it in the pane's environment.
   */
  @Test
  void aCliThatReadsHooksFromAFileGetsAFileOfTheSessionsOwn() throws Exception {
    Path file = engine.home.resolve("hooks").resolve(qwen + ".json");
    assertThat(file).exists();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    String settings = Files.readString(file);
    assertThat(settings)
        .contains(engine.url() + "/api/sessions/" + qwen + "/hook")
        .contains("$CLIQUE_ATTENTION_TOKEN")
        .doesNotContain(boundToQwen);
    String panePid =
        new ProcessBuilder(
                "tmux",
                "-L",
                engine.socket,
                "display-message",
                "-p",
                "-t",
                "=" + qwen + ":",
                "#{pane_pid}")
            .start()
            .inputReader()
            .readLine()
            .strip();
    String environ = Files.readString(Path.of("/proc", panePid, "environ")).replace('\0', '\n');
    assertThat(environ).contains("QWEN_CODE_SYSTEM_DEFAULTS_PATH=" + file + "\n");
  }

  /** Qwen Code announces its idle prompt right after a failed turn: the error stays. */
  @Test
  void qwensFailedTurnStaysAnErrorThroughTheIdleNotificationAfterIt() throws Exception {
    hook(qwen, boundToQwen, "{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"hi\"}");
    HttpResponse<String> failed =
        hook(
            qwen,
            boundToQwen,
            "{\"hook_event_name\":\"StopFailure\",\"error\":\"invalid_request\"}");
    assertThat(failed.statusCode()).as(failed.body()).isEqualTo(200);
    hook(
        qwen,
        boundToQwen,
        "{\"hook_event_name\":\"Notification\",\"notification_type\":\"idle_prompt\"}");
    JsonNode session = session(qwen);
    assertThat(session.path("state").asText()).isEqualTo("error");
    assertThat(session.at("/attention/detail").asText()).isEqualTo("invalid_request");
    assertThat(session.at("/state_source/evidence").asText())
        .isEqualTo("StopFailure invalid_request");
    hook(qwen, boundToQwen, "{\"hook_event_name\":\"Stop\"}");
  }

  @Test
  void qwensHooksRefuseMalformedOversizedAndAnotherSessionsData() throws Exception {
    hook(qwen, boundToQwen, "{\"hook_event_name\":\"Stop\"}");
    for (String bad : new String[] {"{\"notification_type\":\"permission_prompt\"}", "{not"}) {
      assertThat(hook(qwen, boundToQwen, bad).statusCode()).as(bad).isEqualTo(400);
    }
    String oversized =
        "{\"hook_event_name\":\"PermissionRequest\",\"tool_name\":\"run_shell_command\","
            + "\"tool_input\":{\"command\":\""
            + "x".repeat(1 << 20)
            + "\"}}";
    // Sent again and again: a 413 answered before the body was read raced the client's writing.
    for (int i = 0; i < 20; i++) {
      assertThat(hook(qwen, boundToQwen, oversized).statusCode()).as("try " + i).isEqualTo(413);
    }
    String permission =
        "{\"hook_event_name\":\"PermissionRequest\",\"tool_name\":\"run_shell_command\"}";
    assertThat(hook(qwen, boundToOther, permission).statusCode()).isEqualTo(403);
    assertThat(hook(hooked, boundToQwen, permission).statusCode()).isEqualTo(403);
    assertThat(session(qwen).path("state").asText()).isEqualTo("idle");
    assertThat(session(hooked).path("state").asText()).isNotEqualTo("waiting");
  }

  @Test
  void piEventsFromItsExtensionSayItsStateAndAnythingElseIsRefusedAndChangesNothing()
      throws Exception {
    String boundToPi = engine.mint(Set.of(Scope.ATTENTION), piSession);
    assertThat(hook(piSession, boundToPi, "{\"pi_event\":\"agent_start\"}").statusCode())
        .isEqualTo(200);
    assertThat(session(piSession).path("state").asText()).isEqualTo("working");
    assertThat(session(piSession).at("/state_source/evidence").asText())
        .isEqualTo("pi agent_start");

    for (String bad :
        new String[] {
          "{\"hook_event_name\":\"Stop\"}",
          "{\"pi_event\":17}",
          "{\"pi_event\":\"agent_settled\",\"error\":{\"x\":1}}",
          "{not json"
        }) {
      HttpResponse<String> answer = hook(piSession, boundToPi, bad);
      assertThat(answer.statusCode()).as(bad + " -> " + answer.body()).isEqualTo(400);
      assertThat(session(piSession).path("state").asText()).as(bad).isEqualTo("working");
    }
    String oversized = "{\"pi_event\":\"agent_settled\",\"error\":\"" + "x".repeat(2 << 20) + "\"}";
    assertThat(hook(piSession, boundToPi, oversized).statusCode()).isEqualTo(413);
    assertThat(
            hook(piSession, boundToHooked, "{\"pi_event\":\"agent_settled\",\"error\":\"x\"}")
                .statusCode())
        .as("another session's token")
        .isEqualTo(403);
    assertThat(session(piSession).path("state").asText()).isEqualTo("working");

    hook(piSession, boundToPi, "{\"pi_event\":\"agent_settled\",\"aborted\":false}");
    assertThat(session(piSession).path("state").asText()).isEqualTo("idle");
  }

  @Test
  void aCliWithoutHooksSaysSo() throws Exception {
    HttpResponse<String> answer = hook(other, boundToOther, "{\"hook_event_name\":\"Stop\"}");
    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(answer.body()).path("error").asText())
        .isEqualTo("CLI shell sends no hook events clique reads");
  }

  @Test
  void aReportThroughAttentionHoldsLikeAHooksAndInputEndsIt() throws Exception {
    HttpResponse<String> answer =
        engine.send(
            "POST",
            "/api/sessions/" + other + "/attention",
            boundToOther,
            "{\"state\":\"waiting\",\"kind\":\"question\",\"detail\":\"Deploy now?\"}");
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    assertThat(session(other).at("/attention/detail").asText()).isEqualTo("Deploy now?");
    engine.send(
        "POST", "/api/sessions/" + other + "/send", operator, "{\"text\":\"true\",\"enter\":true}");
    assertThat(session(other).path("attention").isNull()).isTrue();
  }
}
