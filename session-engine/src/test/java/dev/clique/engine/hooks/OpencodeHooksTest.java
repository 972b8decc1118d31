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
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * opencode 1.18.33's events as its plugin API handed them to clique's plugin ({@code
 * hooks/opencode/*.json}), and the environment that installs the plugin for one run.
 */
class OpencodeHooksTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HookDialect opencode = HookDialect.named("opencode").orElseThrow();

  private Optional<Report> read(String fixture) throws IOException {
    try (InputStream in = getClass().getResourceAsStream("/hooks/opencode/" + fixture)) {
      return opencode.read(JSON.readTree(in), 1_000);
    }
  }

  @Test
  void aTurnIsWorkingWhileBusyAndIdleWhenItEnds() throws Exception {
    Report busy = read("session-status-busy.json").orElseThrow();
    assertThat(busy.state()).isEqualTo(SessionState.WORKING);
    assertThat(busy.evidence()).isEqualTo("session.status busy");
    assertThat(read("session-status-idle.json").orElseThrow().state()).isEqualTo(SessionState.IDLE);
    assertThat(read("session-idle.json").orElseThrow().state()).isEqualTo(SessionState.IDLE);
  }

  @Test
  void aPermissionAskedIsWaitingForItsCommandUntilItIsAnswered() throws Exception {
    Report asked = read("permission-asked.json").orElseThrow();
    assertThat(asked.state()).isEqualTo(SessionState.WAITING);
    assertThat(asked.attention())
        .isEqualTo(new Attention("permission", "bash: echo clique-approved > approved.txt", 1_000));
    assertThat(asked.evidence()).isEqualTo("permission.asked bash");
    assertThat(read("permission-replied.json").orElseThrow().state())
        .isEqualTo(SessionState.WORKING);
  }

  @Test
  void aFailedTurnIsAnErrorWithTheApisMessage() throws Exception {
    Report failed = read("session-error-400.json").orElseThrow();
    assertThat(failed.state()).isEqualTo(SessionState.ERROR);
    assertThat(failed.attention())
        .isEqualTo(new Attention("error", "APIError 400: scripted failure", 1_000));
    assertThat(failed.evidence()).isEqualTo("session.error APIError");
  }

  @Test
  void aRetryAfterAFailedRequestIsAnErrorThatSaysItTriesAgain() throws Exception {
    Report retry = read("session-status-retry.json").orElseThrow();
    assertThat(retry.state()).isEqualTo(SessionState.ERROR);
    assertThat(retry.attention().detail()).isEqualTo("scripted failure (retrying, attempt 2)");
  }

  @Test
  void aRetryAfterAProvidersRateLimitIsAUsageLimitThatSaysWhenItTriesAgain() throws Exception {
    Report retry = read("session-status-retry-429.json").orElseThrow();
    assertThat(retry.state()).isEqualTo(SessionState.WAITING);
    assertThat(retry.attention().kind()).isEqualTo("usage_limit");
    assertThat(retry.attention().detail()).startsWith("Rate limit reached: this organization's");
    assertThat(retry.attention().resetsAt()).isEqualTo(Instant.ofEpochMilli(1796300000000L));
  }

  @Test
  void aUsageLimitOfOpencodesOwnGatewayIsNamedByItsReasonAndAPastTimeIsNoResetTime()
      throws Exception {
    JsonNode gateway =
        JSON.readTree(
            "{\"type\":\"session.status\",\"properties\":{\"status\":{\"type\":\"retry\","
                + "\"attempt\":1,\"message\":\"Free limit reached\",\"next\":500,"
                + "\"action\":{\"reason\":\"free_tier_limit\"}}}}");
    Report retry = opencode.read(gateway, 1_000).orElseThrow();
    assertThat(retry.state()).isEqualTo(SessionState.WAITING);
    assertThat(retry.attention().kind()).isEqualTo("usage_limit");
    assertThat(retry.attention().resetsAt()).isNull();
  }

  @Test
  void thePersonsOwnEscIsNoError() throws Exception {
    JsonNode aborted =
        JSON.readTree(
            "{\"type\":\"session.error\",\"properties\":{\"error\":"
                + "{\"name\":\"MessageAbortedError\",\"data\":{\"message\":\"Aborted\"}}}}");
    assertThat(opencode.read(aborted, 1_000).orElseThrow().state()).isEqualTo(SessionState.IDLE);
  }

  @Test
  void eventsOfNoStateSayNothingAndAnEventWithoutATypeIsRefused() throws Exception {
    assertThat(read("session-diff.json")).isEmpty();
    for (String bad : List.of("{}", "{\"type\": 7}", "{\"type\": \"\"}", "[1, 2]")) {
      assertThatThrownBy(() -> opencode.read(JSON.readTree(bad), 1_000))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void thePluginIsNamedInTheEnvironmentAndWrittenIntoTheEnginesOwnFolder(@TempDir Path home)
      throws Exception {
    String url = "http://127.0.0.1:4000/api/sessions/abc/hook";
    HookDialect.Install install = opencode.install(url, home.resolve("hooks"));
    Map<String, String> env = install.environment();

    Path plugin = home.resolve("hooks/opencode/clique-state.js");
    assertThat(env)
        .containsEntry("CLIQUE_HOOK_URL", url)
        .containsEntry("OPENCODE_CONFIG_CONTENT", "{\"plugin\":[\"" + plugin.toUri() + "\"]}")
        .doesNotContainKey("CLIQUE_ATTENTION_TOKEN");
    assertThat(Files.readString(plugin))
        .contains("process.env.CLIQUE_ATTENTION_TOKEN", "session.error", "permission.asked");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(plugin)))
        .isEqualTo("rw-------");
    assertThat(install.argument()).as("nothing as an argument").isEmpty();
    assertThat(install.file()).as("no file of the run's own").isNull();

    Files.writeString(plugin, "tampered");
    opencode.install(url, home.resolve("hooks"));
    assertThat(Files.readString(plugin)).as("written again when it differs").contains("fetch(");
  }

  @Test
  void thePersonsOwnConfigContentKeepsAllItSaysAndGainsThePlugin(@TempDir Path home)
      throws Exception {
    String url = "http://127.0.0.1:4000/api/sessions/abc/hook";
    String plugin = home.resolve("hooks/opencode/clique-state.js").toUri().toString();
    String own = "{\"model\":\"anthropic/x\",\"plugin\":[\"their-plugin\"],\"share\":\"disabled\"}";
    Map<String, String> env =
        ((OpencodeHooks) opencode).environment(url, home.resolve("hooks"), own);
    assertThat(JSON.readTree(env.get("OPENCODE_CONFIG_CONTENT")))
        .isEqualTo(
            JSON.readTree(
                "{\"model\":\"anthropic/x\",\"plugin\":[\"their-plugin\",\""
                    + plugin
                    + "\"],\"share\":\"disabled\"}"));
    assertThat(OpencodeHooks.withPlugin("{\"share\":\"disabled\"}", plugin))
        .contains("{\"share\":\"disabled\",\"plugin\":[\"" + plugin + "\"]}");

    // What opencode itself would refuse is left for it to say: the person's value stays.
    for (String refused : List.of("{ not json", "[1, 2]", "{\"plugin\": \"one\"}")) {
      assertThat(OpencodeHooks.withPlugin(refused, plugin)).as(refused).isEmpty();
      assertThat(((OpencodeHooks) opencode).environment(url, home.resolve("hooks"), refused))
          .as(refused)
          .containsKey("CLIQUE_HOOK_URL")
          .doesNotContainKey("OPENCODE_CONFIG_CONTENT");
    }
  }

  @Test
  void theCliSessionIdIsOpencodesOwnAndNothingElse() throws Exception {
    assertThat(
            opencode.cliSessionId(
                JSON.readTree(
                    "{\"type\":\"session.status\",\"properties\":{\"sessionID\":\"ses_1a2B3c\"}}")))
        .contains("ses_1a2B3c");
    for (String bad :
        List.of(
            "{\"type\":\"session.idle\",\"properties\":{}}",
            "{\"type\":\"session.idle\",\"properties\":{\"sessionID\":42}}",
            "{\"type\":\"session.idle\",\"properties\":{\"sessionID\":\"ses_../../x\"}}",
            "{\"type\":\"session.idle\",\"properties\":{\"sessionID\":\"other_1\"}}")) {
      assertThat(opencode.cliSessionId(JSON.readTree(bad))).as(bad).isEmpty();
    }
    assertThat(
            HookDialect.named("claude")
                .orElseThrow()
                .cliSessionId(JSON.readTree("{\"session_id\":\"abc\"}")))
        .as("a CLI that takes clique's id")
        .isEmpty();
  }
}
