package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.client.CliqueClient;
import dev.clique.fake.FakeEngine;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The argument rules of MCP.md, seen where they matter: in the request the engine receives, or in a
 * tool error before any request is made.
 */
class ArgumentRulesTest {
  private static final String PEEK = "/api/sessions/" + Fixtures.CLAUDE_ID + "/peek";
  private static final String WAIT = "/api/sessions/" + Fixtures.CLAUDE_ID + "/wait";

  private FakeEngine engine;
  private McpHarness mcp;

  @BeforeEach
  void start() throws Exception {
    engine = Fixtures.contractEngine();
    mcp =
        McpHarness.start(
            new CliqueMcpServer(
                CliqueClient.builder().baseUrl(engine.url()).token(Fixtures.TOKEN).build(),
                Fixtures.VERSION));
  }

  @AfterEach
  void end() {
    mcp.close();
    engine.close();
  }

  private String peekQuery(Object lines) throws Exception {
    Map<String, Object> arguments = new HashMap<>();
    arguments.put("id", Fixtures.CLAUDE_ID);
    if (lines != null) {
      arguments.put("lines", lines);
    }
    JsonNode answer = mcp.callTool("preview_pane", arguments);
    assertThat(answer.at("/result/isError").asBoolean(true)).as(answer.toString()).isFalse();
    List<FakeEngine.Request> asked = engine.requestsTo(PEEK);
    return asked.get(asked.size() - 1).rawQuery();
  }

  /** What an omitted {@code until} asks the engine for: anything but working. */
  private static final String NOT_WORKING = "for=idle,waiting,error,stopped";

  private String waitQuery(Object timeout) throws Exception {
    Map<String, Object> arguments = new HashMap<>();
    arguments.put("id", Fixtures.CLAUDE_ID);
    if (timeout != null) {
      arguments.put("timeout", timeout);
    }
    return waitQuery(arguments);
  }

  private String waitQuery(Map<String, Object> arguments) throws Exception {
    JsonNode answer = mcp.callTool("wait", arguments);
    assertThat(answer.at("/result/isError").asBoolean(true)).as(answer.toString()).isFalse();
    List<FakeEngine.Request> asked = engine.requestsTo(WAIT);
    return asked.get(asked.size() - 1).rawQuery();
  }

  private String refusal(String tool, Map<String, Object> arguments) throws Exception {
    int before = engine.requests.size();
    JsonNode answer = mcp.callTool(tool, arguments);
    assertThat(answer.at("/result/isError").asBoolean()).as(answer.toString()).isTrue();
    assertThat(answer.at("/result/content").size()).isEqualTo(1);
    assertThat(engine.requests).as("no request is made").hasSize(before);
    return McpHarness.text(answer);
  }

  @Test
  void linesDefaultToEight() throws Exception {
    assertThat(peekQuery(null)).isEqualTo("lines=8");
  }

  @Test
  void linesAbove200AreCappedNotRefused() throws Exception {
    assertThat(peekQuery(10000)).isEqualTo("lines=200");
    assertThat(peekQuery(201)).isEqualTo("lines=200");
    assertThat(peekQuery(200)).isEqualTo("lines=200");
  }

  @Test
  void aFractionOfALineIsTruncated() throws Exception {
    assertThat(peekQuery(12.9)).isEqualTo("lines=12");
    assertThat(peekQuery(1)).isEqualTo("lines=1");
  }

  @Test
  void linesBelowOneAreAToolError() throws Exception {
    assertThat(refusal("preview_pane", Map.of("id", "s", "lines", 0)))
        .isEqualTo("lines must be at least 1");
    assertThat(refusal("preview_pane", Map.of("id", "s", "lines", -5)))
        .isEqualTo("lines must be at least 1");
    assertThat(refusal("preview_pane", Map.of("id", "s", "lines", 0.5)))
        .isEqualTo("lines must be at least 1");
  }

  @Test
  void linesThatAreNotANumberAreAToolError() throws Exception {
    assertThat(refusal("preview_pane", Map.of("id", "s", "lines", "40")))
        .startsWith("lines must be");
    assertThat(refusal("preview_pane", Map.of("id", "s", "lines", true)))
        .startsWith("lines must be");
  }

  @Test
  void anOmittedTimeoutSendsNoTimeoutParameter() throws Exception {
    assertThat(waitQuery((Object) null)).isEqualTo(NOT_WORKING).doesNotContain("timeout");
  }

  @Test
  void aTimeoutAbove300IsCappedTo300() throws Exception {
    assertThat(waitQuery(9000)).isEqualTo(NOT_WORKING + "&timeout=300");
    assertThat(waitQuery(2.5)).isEqualTo(NOT_WORKING + "&timeout=2.5");
    assertThat(waitQuery(0)).isEqualTo(NOT_WORKING + "&timeout=0");
  }

  @Test
  void anOmittedUntilWaitsUntilTheSessionIsNoLongerWorking() throws Exception {
    assertThat(waitQuery(Map.of("id", Fixtures.CLAUDE_ID))).isEqualTo(NOT_WORKING);
  }

  @Test
  void untilGoesToTheEngineAsTheForList() throws Exception {
    assertThat(waitQuery(Map.of("id", Fixtures.CLAUDE_ID, "until", List.of("waiting"))))
        .isEqualTo("for=waiting");
    assertThat(
            waitQuery(
                Map.of(
                    "id",
                    Fixtures.CLAUDE_ID,
                    "until",
                    List.of("stopped", "idle", "stopped"),
                    "timeout",
                    3)))
        .isEqualTo("for=stopped,idle&timeout=3");
  }

  @Test
  void untilThatIsNotANonEmptyArrayOfWaitableStatesIsAToolErrorNamingThem() throws Exception {
    String rule =
        "until must be a non-empty array of states, each one of idle, waiting, error," + " stopped";
    assertThat(refusal("wait", Map.of("id", "s", "until", List.of()))).isEqualTo(rule);
    assertThat(refusal("wait", Map.of("id", "s", "until", "idle"))).isEqualTo(rule);
    assertThat(refusal("wait", Map.of("id", "s", "until", Map.of("state", "idle"))))
        .isEqualTo(rule);
    assertThat(refusal("wait", Map.of("id", "s", "until", List.of("idle", "working"))))
        .isEqualTo(rule + ", not \"working\"");
    assertThat(refusal("wait", Map.of("id", "s", "until", List.of("gone"))))
        .isEqualTo(rule + ", not \"gone\"");
    assertThat(refusal("wait", Map.of("id", "s", "until", List.of("IDLE")))).startsWith(rule);
    assertThat(refusal("wait", Map.of("id", "s", "until", List.of(1)))).isEqualTo(rule + ", not 1");
  }

  @Test
  void aNegativeOrNonNumericTimeoutIsAToolError() throws Exception {
    assertThat(refusal("wait", Map.of("id", "s", "timeout", -1))).startsWith("timeout must be");
    assertThat(refusal("wait", Map.of("id", "s", "timeout", "soon"))).startsWith("timeout must be");
    assertThat(refusal("wait", Map.of("id", "s", "timeout", true))).startsWith("timeout must be");
  }

  @Test
  void theIdIsRequiredAndANonBlankString() throws Exception {
    for (String tool : List.of("get_session", "wait", "preview_pane", "conversation")) {
      assertThat(refusal(tool, Map.of())).startsWith("id must be");
      assertThat(refusal(tool, Map.of("id", "   "))).startsWith("id must be");
      assertThat(refusal(tool, Map.of("id", 42))).startsWith("id must be");
      assertThat(refusal(tool, Map.of("id", ".."))).startsWith("id must be");
    }
  }

  @Test
  void theIdIsSentPercentEncodedInThePath() throws Exception {
    mcp.callTool("preview_pane", Map.of("id", "a b/c?d#e%f"));
    // The first request: a word no session has as its id is then looked for among the names.
    assertThat(engine.requests.get(0).rawPath())
        .isEqualTo("/api/sessions/a%20b%2Fc%3Fd%23e%25f/peek");
  }

  @Test
  void anUndeclaredArgumentIsAToolErrorNamingIt() throws Exception {
    assertThat(refusal("preview_pane", Map.of("id", "s", "colour", "red"))).contains("colour");
    assertThat(refusal("list_sessions", Map.of("verbose", true))).contains("verbose");
    assertThat(refusal("wait", Map.of("id", "s", "for", "idle"))).contains("for");
  }

  @Test
  void anUnknownToolIsAProtocolError() throws Exception {
    JsonNode answer = mcp.callTool("type_into_session", Map.of());
    assertThat(answer.at("/error/code").asInt()).isEqualTo(-32602);
    assertThat(answer.at("/error/message").asText()).isEqualTo("Unknown tool: type_into_session");
  }

  @Test
  void argumentsOrMetaThatAreNotObjectsAreProtocolErrorsNamingThem() throws Exception {
    JsonNode arguments =
        mcp.request("tools/call", Map.of("name", "list_sessions", "arguments", List.of(1)));
    assertThat(arguments.at("/error/code").asInt()).isEqualTo(-32602);
    assertThat(arguments.at("/error/message").asText()).contains("arguments must be an object");
    JsonNode meta =
        mcp.request(
            "tools/call", Map.of("name", "list_sessions", "arguments", Map.of(), "_meta", 5));
    assertThat(meta.at("/error/code").asInt()).isEqualTo(-32602);
    assertThat(meta.at("/error/message").asText()).contains("_meta must be an object");
    assertThat(mcp.callTool("list_sessions", Map.of()).at("/result/isError").asBoolean()).isFalse();
  }

  @Test
  void everyRequestIsAGetWithTheTokenAndAcceptJson() throws Exception {
    mcp.callTool("list_sessions", Map.of());
    mcp.callTool("preview_pane", Map.of("id", Fixtures.CLAUDE_ID));
    mcp.callTool("wait", Map.of("id", Fixtures.CLAUDE_ID, "timeout", 1));
    mcp.callTool("conversation", Map.of("id", Fixtures.CLAUDE_ID));
    // The wait ended waiting, so it also read the session's row for its attention.
    assertThat(engine.requests).hasSize(5);
    for (FakeEngine.Request request : engine.requests) {
      assertThat(request.method()).isEqualTo("GET");
      assertThat(request.header("Authorization")).isEqualTo("Bearer " + Fixtures.TOKEN);
      assertThat(request.header("Accept")).isEqualTo("application/json");
    }
  }
}
