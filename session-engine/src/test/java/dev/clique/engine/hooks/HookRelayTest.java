package dev.clique.engine.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The command of Codex's hooks, run by a real shell against a loopback server. */
class HookRelayTest {
  @Test
  void theRelayPostsTheEventWithTheTokenFromThePanesEnvironment() throws Exception {
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
                  exchange.getRequestMethod(),
                  String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")),
                  body));
          exchange.sendResponseHeaders(200, 2);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write("{}".getBytes(StandardCharsets.US_ASCII));
          }
        });
    server.start();
    try {
      String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/api/sessions/s/hook";
      ProcessBuilder shell = new ProcessBuilder("sh", "-c", HookRelay.command(url));
      shell.environment().put("CLIQUE_ATTENTION_TOKEN", "mxp_relay-test-token");
      shell.redirectErrorStream(true);
      Process relay = shell.start();
      String event = "{\"hook_event_name\":\"Stop\",\"last_assistant_message\":\"done\"}";
      try (OutputStream in = relay.getOutputStream()) {
        in.write(event.getBytes(StandardCharsets.UTF_8));
      }
      String output = new String(relay.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(relay.waitFor(10, TimeUnit.SECONDS)).isTrue();
      assertThat(relay.exitValue()).as("a hook that lets Codex carry on").isZero();
      assertThat(output).as("nothing for Codex to read as a decision").isEmpty();
      assertThat(got.get(10, TimeUnit.SECONDS))
          .containsExactly("POST", "Bearer mxp_relay-test-token", event);
    } finally {
      server.stop(0);
    }
  }

  @Test
  void aRelayThatCannotReachTheEngineLetsCodexCarryOn() throws Exception {
    Process relay =
        new ProcessBuilder("sh", "-c", HookRelay.command("http://127.0.0.1:9/api/sessions/s/hook"))
            .redirectErrorStream(true)
            .start();
    relay.getOutputStream().close();
    String output = new String(relay.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(relay.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(relay.exitValue()).isZero();
    assertThat(output).isEmpty();
  }
}
