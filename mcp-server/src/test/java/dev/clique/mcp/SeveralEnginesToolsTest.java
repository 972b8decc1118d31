package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.client.CliqueClient;
import dev.clique.fake.FakeEngine;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The five tools over several engines: one list of them all, every other call routed by id. */
class SeveralEnginesToolsTest {
  private static final String BOX_TOKEN = "mxp_BBBBpQ9rT7vW2xY5aB8cD1eF4gH6iJ0kL3mN5oP7qR9s";

  private FakeEngine laptop;
  private FakeEngine box;
  private FakeEngine desk;
  private McpHarness mcp;

  @BeforeEach
  void start() throws Exception {
    laptop = Fixtures.contractEngine();
    box = Fixtures.contractEngine();
    desk = Fixtures.contractEngine().failEveryRequest(FakeEngine.Fault.UNAUTHORIZED);
    Map<String, CliqueClient> engines = new LinkedHashMap<>();
    engines.put("laptop", client(laptop, Fixtures.TOKEN));
    engines.put("box", client(box, BOX_TOKEN));
    engines.put("desk", client(desk, Fixtures.TOKEN));
    mcp =
        McpHarness.start(new CliqueMcpServer(CliqueClient.overEngines(engines), Fixtures.VERSION));
  }

  private static CliqueClient client(FakeEngine engine, String token) {
    return CliqueClient.builder().baseUrl(engine.url()).token(token).build();
  }

  @AfterEach
  void end() {
    mcp.close();
    laptop.close();
    box.close();
    desk.close();
  }

  @Test
  void listSessionsShowsEveryEnginesSessionsAndNamesTheOneThatDidNotAnswer() throws Exception {
    JsonNode answer = mcp.callTool("list_sessions", Map.of());

    JsonNode result = answer.get("result");
    assertThat(result.path("isError").asBoolean(true)).as(answer.toString()).isFalse();
    JsonNode structured = result.get("structuredContent");
    assertThat(structured.get("sessions")).hasSize(4);
    assertThat(structured.at("/sessions/2/id").asText()).isEqualTo("box:" + Fixtures.CLAUDE_ID);
    assertThat(structured.at("/sessions/2/engine").asText()).isEqualTo("box");
    assertThat(structured.at("/engines/2/name").asText()).isEqualTo("desk");
    assertThat(structured.at("/engines/2/ok").asBoolean(true)).isFalse();
    assertThat(structured.at("/engines/2/error").asText()).contains("401");
    assertThat(structured.at("/engines/0/error").isNull()).isTrue();
    // The text shows the whole structure, so an engine that did not answer is seen there too.
    assertThat(Fixtures.json(McpHarness.text(answer))).isEqualTo(structured);
  }

  @Test
  void theOtherToolsGoToTheEngineTheIdNamesWithThatEnginesTokenOnly() throws Exception {
    String id = "box:" + Fixtures.CLAUDE_ID;

    JsonNode session = mcp.callTool("get_session", Map.of("id", id));
    assertThat(session.at("/result/structuredContent/id").asText()).isEqualTo(id);
    assertThat(mcp.callTool("preview_pane", Map.of("id", id)).at("/result/isError").asBoolean(true))
        .isFalse();
    assertThat(mcp.callTool("conversation", Map.of("id", id)).at("/result/isError").asBoolean(true))
        .isFalse();
    JsonNode waited = mcp.callTool("wait", Map.of("id", id, "timeout", 1));
    assertThat(waited.at("/result/structuredContent/id").asText())
        .as(waited.toString())
        .isEqualTo(id);

    String session1 = "/api/sessions/" + Fixtures.CLAUDE_ID;
    assertThat(box.requestsTo(session1 + "/peek")).hasSize(1);
    assertThat(box.requestsTo(session1 + "/transcript")).hasSize(1);
    assertThat(box.requestsTo(session1 + "/wait")).hasSize(1);
    assertThat(laptop.requests).noneMatch(r -> r.rawPath().startsWith(session1));
    assertThat(box.requests)
        .allSatisfy(r -> assertThat(r.header("authorization")).isEqualTo("Bearer " + BOX_TOKEN));
  }

  @Test
  void anIdThatNamesNoEngineIsAToolErrorSayingWhatAnIdIs() throws Exception {
    JsonNode answer = mcp.callTool("preview_pane", Map.of("id", Fixtures.CLAUDE_ID));

    assertThat(answer.at("/result/isError").asBoolean(false)).isTrue();
    assertThat(McpHarness.text(answer)).contains("`<engine>:<id>`").contains("laptop, box, desk");
  }
}
