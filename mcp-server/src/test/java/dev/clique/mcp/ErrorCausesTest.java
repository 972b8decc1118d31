package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.client.CliqueClient;
import dev.clique.fake.FakeEngine;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every cause of a failed tool call names itself (MCP.md, Errors): a tool error with one text
 * block, the server going on, and never the token.
 */
class ErrorCausesTest {
  private static final String PEEK = "/api/sessions/s1/peek";

  private FakeEngine engine;
  private McpHarness mcp;

  @BeforeEach
  void start() throws Exception {
    engine = FakeEngine.start();
    mcp =
        McpHarness.start(
            new CliqueMcpServer(clientOf(engine.url(), Duration.ofSeconds(30)), Fixtures.VERSION));
  }

  @AfterEach
  void end() {
    mcp.close();
    engine.close();
  }

  private static CliqueClient clientOf(String url, Duration timeout) {
    return CliqueClient.builder().baseUrl(url).token(Fixtures.TOKEN).timeout(timeout).build();
  }

  private static String toolError(McpHarness server, String tool, Map<String, Object> arguments)
      throws InterruptedException {
    JsonNode answer = server.callTool(tool, arguments);
    assertThat(answer.at("/result/isError").asBoolean()).as(answer.toString()).isTrue();
    assertThat(answer.at("/result/content").size()).isEqualTo(1);
    assertThat(answer.toString()).doesNotContain(Fixtures.TOKEN);
    return McpHarness.text(answer);
  }

  private String peekError() throws InterruptedException {
    return toolError(mcp, "preview_pane", Map.of("id", "s1"));
  }

  @Test
  void anEngineThatIsNotThereIsNotReachable() throws Exception {
    int closed;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = probe.getLocalPort();
    }
    String url = "http://127.0.0.1:" + closed;
    try (McpHarness down =
        McpHarness.start(
            new CliqueMcpServer(clientOf(url, Duration.ofSeconds(5)), Fixtures.VERSION))) {
      assertThat(toolError(down, "list_sessions", Map.of()))
          .startsWith("could not reach clique at " + url + ": ");
      assertThat(down.request("ping", null).has("result")).isTrue();
    }
  }

  @Test
  void a401SaysUnauthorizedAndWhatToDo() throws Exception {
    engine.on(PEEK, FakeEngine.json(401, Fixtures.contract("error-unauthorized.json")));
    assertThat(peekError())
        .startsWith("clique API returned 401: unauthorized")
        .contains("clique token create");
  }

  @Test
  void a403A404AndA500QuoteTheEnginesError() throws Exception {
    engine.on(PEEK, FakeEngine.json(403, Fixtures.contract("error-read-only.json")));
    assertThat(peekError()).isEqualTo("clique API returned 403: this API token is read-only");
    engine.on(PEEK, FakeEngine.json(404, Fixtures.contract("error-not-found.json")));
    assertThat(peekError()).isEqualTo("clique API returned 404: no such session");
    engine.on(PEEK, FakeEngine.json(500, "{\"error\": \"tmux is not running\"}"));
    assertThat(peekError()).isEqualTo("clique API returned 500: tmux is not running");
  }

  @Test
  void anAnswerThatIsNotTheExpectedJsonIsUnexpected() throws Exception {
    engine.on(PEEK, FakeEngine.text(200, "text/html", "<html>a proxy login page</html>"));
    assertThat(peekError()).startsWith("clique API returned an unexpected response");
    engine.on(PEEK, FakeEngine.json(200, "[1, 2, 3]"));
    assertThat(peekError()).startsWith("clique API returned an unexpected response");
    engine.on("/api/state", FakeEngine.json(200, "{\"version\": \"x\"}"));
    assertThat(toolError(mcp, "list_sessions", Map.of()))
        .startsWith("clique API returned an unexpected response");
  }

  @Test
  void aCallThatTakesTooLongTimesOut() throws Exception {
    engine.on(PEEK, engine.hang("{}"));
    try (McpHarness slow =
        McpHarness.start(
            new CliqueMcpServer(
                clientOf(engine.url(), Duration.ofMillis(300)), Fixtures.VERSION))) {
      assertThat(toolError(slow, "preview_pane", Map.of("id", "s1")))
          .startsWith("clique API did not answer within 0.3 s");
    }
  }

  @Test
  void anIdNotInTheListIsNoSessionWithThatId() throws Exception {
    engine.on("/api/state", FakeEngine.json(200, Fixtures.contract("state.json")));
    assertThat(toolError(mcp, "get_session", Map.of("id", "nope")))
        .isEqualTo(
            "no session with id nope; 'nope' is neither a session's id nor a session's name:"
                + " call list_sessions to see each session's id and name");
  }

  @Test
  void badArgumentsSayWhichArgument() throws Exception {
    assertThat(toolError(mcp, "preview_pane", Map.of("id", "s1", "lines", 0)))
        .startsWith("lines must be");
  }

  @Test
  void eachCauseHasItsOwnSentence() throws Exception {
    Map<String, String> said = new LinkedHashMap<>();
    engine.on(PEEK, FakeEngine.json(401, Fixtures.contract("error-unauthorized.json")));
    said.put("401", peekError());
    engine.on(PEEK, FakeEngine.json(403, Fixtures.contract("error-read-only.json")));
    said.put("403", peekError());
    engine.on(PEEK, FakeEngine.json(404, Fixtures.contract("error-not-found.json")));
    said.put("404", peekError());
    engine.on(PEEK, FakeEngine.text(200, "text/plain", "hello"));
    said.put("unexpected", peekError());
    engine.on("/api/state", FakeEngine.json(200, Fixtures.contract("state.json")));
    said.put("no session", toolError(mcp, "get_session", Map.of("id", "nope")));
    said.put("argument", toolError(mcp, "preview_pane", Map.of("id", "s1", "lines", 0)));
    assertThat(said.values()).doesNotHaveDuplicates();
    assertThat(mcp.request("ping", null).has("result")).isTrue();
  }

  @Test
  void aTokenTheEngineEchoesNeverReachesTheClient() throws Exception {
    engine.on(
        PEEK,
        FakeEngine.json(
            403, "{\"error\": \"token " + Fixtures.TOKEN + " may not read this session\"}"));
    assertThat(peekError()).doesNotContain(Fixtures.TOKEN).contains("mxp_…");
    engine.on(PEEK, FakeEngine.text(200, "text/plain", "Authorization: Bearer " + Fixtures.TOKEN));
    assertThat(peekError()).doesNotContain(Fixtures.TOKEN);
    for (JsonNode frame : mcp.seen()) {
      assertThat(frame.toString()).doesNotContain(Fixtures.TOKEN);
    }
  }

  @Test
  void theServerScrubsTokensFromErrorsItWordsItself() throws Exception {
    FakeClient fake =
        new FakeClient()
            .answering(call -> new IllegalStateException("broke while holding " + Fixtures.TOKEN));
    try (McpHarness other = McpHarness.start(new CliqueMcpServer(fake, Fixtures.VERSION))) {
      String text = toolError(other, "preview_pane", Map.of("id", "s1"));
      assertThat(text).doesNotContain(Fixtures.TOKEN);
      JsonNode unknown = other.callTool(Fixtures.TOKEN, Map.of());
      assertThat(unknown.at("/error/message").asText())
          .startsWith("Unknown tool: ")
          .doesNotContain(Fixtures.TOKEN);
    }
  }

  @Test
  void aClientAnswerOfNothingIsStillAnsweredAsUnexpected() throws Exception {
    FakeClient fake = new FakeClient();
    try (McpHarness other = McpHarness.start(new CliqueMcpServer(fake, Fixtures.VERSION))) {
      int id =
          other.sendRequest(
              "tools/call", Map.of("name", "conversation", "arguments", Map.of("id", "s1")));
      fake.awaitCalls(1);
      fake.calls.get(0).answer(null);
      JsonNode answer = other.answerTo(id, Duration.ofSeconds(5));
      assertThat(answer.at("/result/isError").asBoolean()).isTrue();
      assertThat(McpHarness.text(answer)).startsWith("clique API returned an unexpected response");
    }
  }
}
