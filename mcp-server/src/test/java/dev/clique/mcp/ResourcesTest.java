package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.client.CliqueClient;
import dev.clique.fake.FakeEngine;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sessions as resources (MCP.md, Resources): listed, templated and read as JSON, through a real
 * client against a scriptable engine; a URI that is none of clique's, or a session the engine does
 * not have, is the protocol's "resource not found" of the request's era.
 */
class ResourcesTest {
  private static final String MODERN = "2026-07-28";
  private static final String SESSION = "clique://sessions/" + Fixtures.CLAUDE_ID;

  private FakeEngine engine;
  private McpHarness mcp;

  @BeforeEach
  void start() throws Exception {
    engine = Fixtures.contractEngine();
    mcp = McpHarness.start(new CliqueMcpServer(clientOf(engine.url()), Fixtures.VERSION));
  }

  @AfterEach
  void end() {
    mcp.close();
    engine.close();
  }

  private static CliqueClient clientOf(String url) {
    return CliqueClient.builder().baseUrl(url).token(Fixtures.TOKEN).build();
  }

  static Map<String, Object> modern(Map<String, Object> params) {
    Map<String, Object> withMeta = new HashMap<>(params);
    withMeta.put(
        "_meta",
        Map.of(
            "io.modelcontextprotocol/protocolVersion",
            MODERN,
            "io.modelcontextprotocol/clientCapabilities",
            Map.of()));
    return withMeta;
  }

  /** The one content of a read, checked to be JSON of its URI, parsed. */
  private JsonNode read(String uri) throws InterruptedException {
    JsonNode answer = mcp.request("resources/read", Map.of("uri", uri));
    JsonNode contents = answer.at("/result/contents");
    assertThat(contents.size()).as(answer.toString()).isEqualTo(1);
    assertThat(contents.get(0).path("uri").asText()).isEqualTo(uri);
    assertThat(contents.get(0).path("mimeType").asText()).isEqualTo("application/json");
    return Fixtures.json(contents.get(0).path("text").asText());
  }

  @Test
  void theListIsTheSessionsListThenOneResourcePerSession() throws Exception {
    JsonNode result = mcp.request("resources/list", null).get("result");
    List<String> uris = new ArrayList<>();
    result.get("resources").forEach(resource -> uris.add(resource.path("uri").asText()));
    assertThat(uris)
        .containsExactly(
            "clique://sessions",
            "clique://sessions/" + Fixtures.CLAUDE_ID,
            "clique://sessions/" + Fixtures.SHELL_ID);
    for (JsonNode resource : result.get("resources")) {
      assertThat(resource.path("name").asText()).isNotBlank();
      assertThat(resource.path("title").asText()).isNotBlank();
      assertThat(resource.path("description").asText()).isNotBlank();
      assertThat(resource.path("mimeType").asText()).isEqualTo("application/json");
    }
    assertThat(result.at("/resources/1/name").asText()).isEqualTo("api refactor");
    assertThat(result.at("/resources/1/title").asText()).contains("Claude Code", "shop-api");
  }

  @Test
  void theTemplatesAreASessionItsPaneAndItsConversation() throws Exception {
    JsonNode result = mcp.request("resources/templates/list", null).get("result");
    List<String> templates = new ArrayList<>();
    result
        .get("resourceTemplates")
        .forEach(template -> templates.add(template.path("uriTemplate").asText()));
    assertThat(templates)
        .containsExactly(
            "clique://sessions/{id}",
            "clique://sessions/{id}/pane",
            "clique://sessions/{id}/conversation");
    result
        .get("resourceTemplates")
        .forEach(
            template ->
                assertThat(template.path("mimeType").asText()).isEqualTo("application/json"));
  }

  @Test
  void eachResourceReadsAsTheEnginesOwnJson() throws Exception {
    JsonNode state = Fixtures.contractJson("state.json");
    assertThat(read("clique://sessions").get("sessions")).isEqualTo(state.get("sessions"));
    assertThat(read(SESSION)).isEqualTo(state.at("/sessions/0"));
    assertThat(read(SESSION + "/pane")).isEqualTo(Fixtures.contractJson("peek.json"));
    assertThat(read(SESSION + "/conversation")).isEqualTo(Fixtures.contractJson("transcript.json"));
  }

  @Test
  void anIdMayBePercentEncodedInTheUri() throws Exception {
    String encoded = "clique://sessions/" + Fixtures.CLAUDE_ID.replace("-", "%2D");
    JsonNode answer = mcp.request("resources/read", Map.of("uri", encoded));
    assertThat(answer.at("/result/contents/0/uri").asText()).isEqualTo(encoded);
    assertThat(Fixtures.json(answer.at("/result/contents/0/text").asText()).path("id").asText())
        .isEqualTo(Fixtures.CLAUDE_ID);
  }

  @Test
  void aUriThatIsNoneOfCliquesIsResourceNotFoundWithTheUri() throws Exception {
    for (String uri :
        List.of(
            "file:///home/dev/project/README.md",
            "clique://session",
            "clique://sessions/",
            "clique://sessions/" + Fixtures.CLAUDE_ID + "/keys",
            "clique://sessions/" + Fixtures.CLAUDE_ID + "?lines=5",
            "clique://sessions/%zz",
            "clique://sessions/..")) {
      int before = engine.requests.size();
      JsonNode answer = mcp.request("resources/read", Map.of("uri", uri));
      assertThat(answer.at("/error/code").asInt()).as(uri + ": " + answer).isEqualTo(-32002);
      assertThat(answer.at("/error/data/uri").asText()).isEqualTo(uri);
      assertThat(answer.at("/error/message").asText()).startsWith("Resource not found: " + uri);
      assertThat(engine.requests.size()).as("nothing was asked of the engine").isEqualTo(before);
    }
  }

  @Test
  void aSessionTheEngineDoesNotHaveIsResourceNotFound() throws Exception {
    for (String uri :
        List.of(
            "clique://sessions/no-such-session",
            "clique://sessions/no-such-session/pane",
            "clique://sessions/no-such-session/conversation")) {
      JsonNode answer = mcp.request("resources/read", Map.of("uri", uri));
      assertThat(answer.at("/error/code").asInt()).as(uri + ": " + answer).isEqualTo(-32002);
      assertThat(answer.at("/error/data/uri").asText()).isEqualTo(uri);
      assertThat(answer.at("/error/message").asText())
          .contains("no session with id no-such-session");
    }
  }

  @Test
  void inTheModernEraResourceNotFoundIsInvalidParams() throws Exception {
    JsonNode answer =
        mcp.request(
            "resources/read", modern(Map.of("uri", "clique://sessions/no-such-session/pane")));
    assertThat(answer.at("/error/code").asInt()).as(answer.toString()).isEqualTo(-32602);
    assertThat(answer.at("/error/data/uri").asText())
        .isEqualTo("clique://sessions/no-such-session/pane");
  }

  @Test
  void modernResultsAreCompleteAndStaleAtOnce() throws Exception {
    for (String method : List.of("resources/list", "resources/read")) {
      JsonNode result =
          mcp.request(method, modern(Map.of("uri", "clique://sessions"))).get("result");
      assertThat(result.path("resultType").asText()).as(method).isEqualTo("complete");
      assertThat(result.path("ttlMs").isIntegralNumber()).as(method).isTrue();
      assertThat(result.path("ttlMs").asLong()).as(method).isZero();
      assertThat(result.path("cacheScope").asText()).as(method).isEqualTo("private");
    }
    JsonNode templates = mcp.request("resources/templates/list", modern(Map.of())).get("result");
    assertThat(templates.path("resultType").asText()).isEqualTo("complete");
    assertThat(templates.path("ttlMs").asLong()).isPositive();
    assertThat(templates.path("cacheScope").asText()).isEqualTo("public");
  }

  @Test
  void aReadWithoutAUriIsInvalidParams() throws Exception {
    for (Object params : new Object[] {null, Map.of(), Map.of("uri", 7)}) {
      JsonNode answer = mcp.request("resources/read", params);
      assertThat(answer.at("/error/code").asInt()).as(answer.toString()).isEqualTo(-32602);
      assertThat(answer.at("/error/message").asText()).contains("params.uri");
    }
  }

  @Test
  void anEngineThatCannotAnswerIsAnInternalErrorThatSaysWhy() throws Exception {
    int closed;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = probe.getLocalPort();
    }
    String url = "http://127.0.0.1:" + closed;
    try (McpHarness down = McpHarness.start(new CliqueMcpServer(clientOf(url), Fixtures.VERSION))) {
      JsonNode answer = down.request("resources/read", Map.of("uri", "clique://sessions"));
      assertThat(answer.at("/error/code").asInt()).isEqualTo(-32603);
      assertThat(answer.at("/error/message").asText())
          .startsWith("could not reach clique at " + url);
      JsonNode listed = down.request("resources/list", null);
      assertThat(listed.at("/error/code").asInt()).isEqualTo(-32603);
      assertThat(down.request("ping", null).has("result")).isTrue();
    }
    engine.on("/api/state", FakeEngine.json(401, Fixtures.contract("error-unauthorized.json")));
    JsonNode unauthorized = mcp.request("resources/read", Map.of("uri", SESSION));
    assertThat(unauthorized.at("/error/message").asText())
        .startsWith("clique API returned 401: unauthorized");
    assertThat(unauthorized.toString()).doesNotContain(Fixtures.TOKEN);
  }
}
