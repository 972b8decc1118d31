package dev.clique.engine.hooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.clique.engine.state.Attention;
import dev.clique.engine.state.Report;
import dev.clique.engine.state.SessionState;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * GitHub Copilot CLI 1.0.102's hook inputs as the real program gave them to its hooks, wrapped with
 * their event's name as the relay sends them ({@code hooks/copilot/*.json}), and the plugin that
 * installs the relays.
 */
class CopilotHooksTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String URL = "http://127.0.0.1:7777/api/sessions/abc/hook";
  private final HookDialect copilot = HookDialect.named("copilot").orElseThrow();

  private JsonNode fixture(String name) throws IOException {
    try (InputStream in = getClass().getResourceAsStream("/hooks/copilot/" + name)) {
      return JSON.readTree(in);
    }
  }

  private Optional<Report> read(String name) throws IOException {
    return copilot.read(fixture(name), 1_000);
  }

  @Test
  void aTurnIsWorkingUntilTheAgentStops() throws Exception {
    for (String working :
        List.of("user-prompt-submitted.json", "pre-tool-use.json", "post-tool-use.json")) {
      assertThat(read(working).orElseThrow().state()).as(working).isEqualTo(SessionState.WORKING);
    }
    assertThat(read("pre-tool-use.json").orElseThrow().evidence()).isEqualTo("preToolUse bash");
    assertThat(read("agent-stop.json").orElseThrow().state()).isEqualTo(SessionState.IDLE);
  }

  @Test
  void aPermissionRequestIsWaitingForItsCommand() throws Exception {
    Report report = read("permission-request.json").orElseThrow();
    assertThat(report.state()).isEqualTo(SessionState.WAITING);
    assertThat(report.attention())
        .isEqualTo(new Attention("permission", "bash: echo approved > approved.txt", 1_000));
    Report notified = read("notification.json").orElseThrow();
    assertThat(notified.state()).isEqualTo(SessionState.WAITING);
    assertThat(notified.attention().detail())
        .isEqualTo("Run command: echo approved > approved.txt");
  }

  @Test
  void aRetriedModelErrorSaysNothingAndOneItCannotRecoverFromIsAnError() throws Exception {
    JsonNode retried = fixture("error-occurred.json");
    assertThat(copilot.read(retried, 1_000)).as("recoverable: true, as all six were").isEmpty();
    ObjectNode fatal = retried.deepCopy();
    ((ObjectNode) fatal.get("input")).put("recoverable", false);
    Report report = copilot.read(fatal, 1_000).orElseThrow();
    assertThat(report.state()).isEqualTo(SessionState.ERROR);
    assertThat(report.attention().detail()).contains("scripted failure");
  }

  @Test
  void theSessionStartSaysNothingOfTheState() throws Exception {
    assertThat(read("session-start.json")).isEmpty();
  }

  @Test
  void anEventOfNoCopilotHookOrWithoutItsInputIsRefused() throws Exception {
    for (String bad :
        List.of(
            "{}",
            "{\"hook_event_name\": \"Stop\", \"input\": {}}",
            "{\"hook_event_name\": \"agentStop\"}",
            "{\"hook_event_name\": \"agentStop\", \"input\": \"text\"}",
            "[1, 2]")) {
      assertThatThrownBy(() -> copilot.read(JSON.readTree(bad), 1_000))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void thePluginRelaysEveryEventWithItsNameAndNoToken(@TempDir Path home) throws Exception {
    Path plugin = Path.of(copilot.install(URL, home.resolve("hooks")).argument());
    assertThat(copilot.install(URL, home.resolve("hooks")).argument())
        .as("written once")
        .isEqualTo(plugin.toString());
    assertThat(plugin.resolve(".plugin/plugin.json")).isRegularFile();
    JsonNode hooks = JSON.readTree(Files.readString(plugin.resolve("hooks/hooks.json")));
    assertThat(hooks.path("version").asInt()).isEqualTo(1);
    for (String event : CopilotHooks.EVENTS) {
      JsonNode hook = hooks.path("hooks").path(event).path(0);
      assertThat(hook.path("type").asText()).isEqualTo("command");
      assertThat(hook.path("bash").asText())
          .as(event)
          .contains("\"hook_event_name\":\"" + event + "\"")
          .contains("'" + URL + "'")
          .contains("\"$CLIQUE_ATTENTION_TOKEN\"");
    }
    assertThat(copilot.install(URL.replace("abc", "def"), home.resolve("hooks")).argument())
        .as("another session's relay is another plugin")
        .isNotEqualTo(plugin.toString());
    for (Path each :
        List.of(
            home.resolve("hooks"), plugin, plugin.resolve(".plugin"), plugin.resolve("hooks"))) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(each)))
          .as("%s", each)
          .isEqualTo("rwx------");
    }
    for (Path each :
        List.of(plugin.resolve(".plugin/plugin.json"), plugin.resolve("hooks/hooks.json"))) {
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(each)))
          .as("%s", each)
          .isEqualTo("rw-------");
    }
  }

  @Test
  void theRelayPostsTheWrappedInputWithTheTokenFromThePanesEnvironment() throws Exception {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    CompletableFuture<List<String>> got = new CompletableFuture<>();
    server.createContext(
        "/api/sessions/s/hook",
        exchange -> {
          String body =
              new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          got.complete(
              List.of(
                  String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")), body));
          exchange.sendResponseHeaders(200, 2);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write("{}".getBytes(StandardCharsets.US_ASCII));
          }
        });
    server.start();
    try {
      String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/api/sessions/s/hook";
      ProcessBuilder bash = new ProcessBuilder("bash", "-c", CopilotHooks.relay("agentStop", url));
      bash.environment().put("CLIQUE_ATTENTION_TOKEN", "mxp_relay-test-token");
      bash.redirectErrorStream(true);
      Process relay = bash.start();
      String input = "{\"sessionId\":\"x\",\"stopReason\":\"end_turn\"}";
      try (OutputStream in = relay.getOutputStream()) {
        in.write(input.getBytes(StandardCharsets.UTF_8));
      }
      String output = new String(relay.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(relay.waitFor(10, TimeUnit.SECONDS)).isTrue();
      assertThat(relay.exitValue()).as("a hook that lets Copilot carry on").isZero();
      assertThat(output).as("nothing for Copilot to read as a decision").isEmpty();
      List<String> request = got.get(10, TimeUnit.SECONDS);
      assertThat(request.get(0)).isEqualTo("Bearer mxp_relay-test-token");
      JsonNode sent = JSON.readTree(request.get(1));
      assertThat(sent.path("hook_event_name").asText()).isEqualTo("agentStop");
      assertThat(sent.path("input")).isEqualTo(JSON.readTree(input));
      assertThat(copilot.read(sent, 1_000).orElseThrow().state()).isEqualTo(SessionState.IDLE);
    } finally {
      server.stop(0);
    }
  }

  @Test
  void aRelayThatCannotReachTheEngineLetsCopilotCarryOn() throws Exception {
    Process relay =
        new ProcessBuilder(
                "bash",
                "-c",
                CopilotHooks.relay("agentStop", "http://127.0.0.1:9/api/sessions/s/hook"))
            .redirectErrorStream(true)
            .start();
    relay.getOutputStream().close();
    String output = new String(relay.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(relay.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(relay.exitValue()).isZero();
    assertThat(output).isEmpty();
  }
}
