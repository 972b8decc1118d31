package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.mcp.tools.CliqueTool;
import dev.clique.mcp.tools.OutputSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The server's output validator judges every answer as the SDK's default validator does. */
class OutputSchemaValidatorTest {
  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};
  private final OutputSchemaValidator ours = new OutputSchemaValidator();
  private final DefaultJsonSchemaValidator sdks = new DefaultJsonSchemaValidator();
  private final List<CliqueTool> tools =
      new CliqueMcpServer(new FakeClient(), Fixtures.VERSION).tools();

  private Map<String, Object> schemaOf(String name) {
    return tools.stream()
        .filter(tool -> tool.name().equals(name))
        .findFirst()
        .orElseThrow()
        .definition()
        .outputSchema();
  }

  private void bothSay(boolean valid, String tool, JsonNode content) {
    Map<String, Object> schema = schemaOf(tool);
    assertThat(ours.validate(schema, content).valid()).as(tool + " " + content).isEqualTo(valid);
    assertThat(ours.validate(schema, Fixtures.JSON.convertValue(content, OBJECT)).valid())
        .isEqualTo(valid);
    assertThat(sdks.validate(schema, Fixtures.JSON.convertValue(content, OBJECT)).valid())
        .isEqualTo(valid);
  }

  @Test
  void theContractsAnswersAreValid() {
    ObjectNode sessions = Fixtures.JSON.createObjectNode();
    sessions.set("sessions", Fixtures.contractJson("state.json").get("sessions"));
    bothSay(true, "list_sessions", sessions);
    bothSay(true, "get_session", Fixtures.contractJson("state.json").at("/sessions/1"));
    bothSay(true, "get_session", Fixtures.contractJson("state.json").at("/sessions/0"));
    bothSay(true, "get_session", Fixtures.contractJson("session-codex.json"));
    bothSay(true, "get_session", Fixtures.contractJson("session-usage-limit.json"));
    bothSay(true, "get_session", Fixtures.contractJson("session-outside.json"));
    bothSay(true, "preview_pane", Fixtures.contractJson("peek-conversation.json"));
    bothSay(true, "wait", Fixtures.contractJson("wait-gone.json"));
    bothSay(true, "preview_pane", Fixtures.contractJson("peek-stopped.json"));
    bothSay(true, "conversation", Fixtures.contractJson("transcript.json"));
  }

  @Test
  void brokenAnswersAreInvalidWithAReason() {
    ObjectNode wait = Fixtures.contractJson("wait-matched.json").deepCopy();
    wait.put("matched", "yes");
    bothSay(false, "wait", wait);
    ObjectNode row = Fixtures.contractJson("state.json").at("/sessions/0").deepCopy();
    row.put("folder", 3);
    bothSay(false, "get_session", row);
    ObjectNode outside = Fixtures.contractJson("session-outside.json").deepCopy();
    outside.put("source", "pts/3");
    bothSay(false, "get_session", outside);
    ObjectNode notScreen = Fixtures.contractJson("peek-conversation.json").deepCopy();
    notScreen.put("screen", "no");
    bothSay(false, "preview_pane", notScreen);
    bothSay(false, "list_sessions", Fixtures.json("{\"sessions\": {}}"));
    ObjectNode used = Fixtures.contractJson("session-codex.json").deepCopy();
    ((ObjectNode) used.get("usage")).put("input_tokens", "7k");
    bothSay(false, "get_session", used);
    ObjectNode priced = Fixtures.contractJson("state.json").at("/sessions/0").deepCopy();
    ((ObjectNode) priced.get("usage")).put("cost_usd_estimate", "$0.88");
    bothSay(false, "get_session", priced);
    ObjectNode limited = Fixtures.contractJson("session-codex.json").deepCopy();
    ((ObjectNode) limited.at("/limits/windows/0")).remove("used_percent");
    bothSay(false, "get_session", limited);
    ObjectNode lifting = Fixtures.contractJson("session-usage-limit.json").deepCopy();
    ((ObjectNode) lifting.get("attention")).put("resets_at", 1767185520);
    bothSay(false, "get_session", lifting);
    ObjectNode listed = Fixtures.JSON.createObjectNode();
    ObjectNode brief = Fixtures.contractJson("session-codex.json").deepCopy();
    brief.set("usage", Fixtures.json("{\"tokens\": \"8k\", \"context_percent\": 6}"));
    listed.putArray("sessions").add(brief);
    bothSay(false, "list_sessions", listed);
    bothSay(false, "preview_pane", Fixtures.json("{\"alive\": true}"));
    assertThat(ours.validate(schemaOf("wait"), wait).errorMessage()).contains("matched");
  }

  private Map<String, Object> inputSchemaOf(String name) {
    return Fixtures.JSON.convertValue(
        tools.stream()
            .filter(tool -> tool.name().equals(name))
            .findFirst()
            .orElseThrow()
            .definition()
            .inputSchema(),
        OBJECT);
  }

  private void bothSayOfInput(boolean valid, String tool, JsonNode arguments) {
    Map<String, Object> schema = inputSchemaOf(tool);
    assertThat(ours.validate(schema, arguments).valid())
        .as(tool + " " + arguments)
        .isEqualTo(valid);
    assertThat(sdks.validate(schema, Fixtures.JSON.convertValue(arguments, OBJECT)).valid())
        .as(tool + " " + arguments)
        .isEqualTo(valid);
  }

  @Test
  void theEnumAndMinItemsOfWaitsUntilAreJudgedAsTheSdkJudgesThem() {
    ours.assertConforms("wait's input", inputSchemaOf("wait"));
    bothSayOfInput(true, "wait", Fixtures.json("{\"id\": \"s\", \"until\": [\"waiting\"]}"));
    bothSayOfInput(
        true, "wait", Fixtures.json("{\"id\": \"s\", \"until\": [\"idle\", \"stopped\"]}"));
    bothSayOfInput(false, "wait", Fixtures.json("{\"id\": \"s\", \"until\": []}"));
    bothSayOfInput(false, "wait", Fixtures.json("{\"id\": \"s\", \"until\": [\"working\"]}"));
    bothSayOfInput(false, "wait", Fixtures.json("{\"id\": \"s\", \"until\": [1]}"));
    bothSayOfInput(false, "wait", Fixtures.json("{\"id\": \"s\", \"until\": \"idle\"}"));
  }
}
