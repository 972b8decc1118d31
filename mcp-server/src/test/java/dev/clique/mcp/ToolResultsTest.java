package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.client.CliqueClient;
import dev.clique.fake.FakeEngine;
import dev.clique.mcp.protocol.Json;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator.ValidationResponse;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each tool answers a JSON object that matches its output schema, with the same JSON as text,
 * through a real client against the contract's answers (a CLIque panel's shape: nulls in {@code
 * folder}, {@code mode}, {@code command}, keys the schemas do not name).
 */
class ToolResultsTest {
  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};
  private final DefaultJsonSchemaValidator validator = new DefaultJsonSchemaValidator();
  private FakeEngine engine;
  private McpHarness mcp;
  private JsonNode tools;

  @BeforeEach
  void start() throws Exception {
    engine = Fixtures.contractEngine();
    CliqueClient client =
        CliqueClient.builder().baseUrl(engine.url()).token(Fixtures.TOKEN).build();
    mcp = McpHarness.start(new CliqueMcpServer(client, Fixtures.VERSION));
    tools = mcp.request("tools/list", null).at("/result/tools");
  }

  @AfterEach
  void end() {
    mcp.close();
    engine.close();
  }

  /** Calls a tool and checks what every successful result must be; returns the structure. */
  private JsonNode call(String tool, Map<String, Object> arguments) throws Exception {
    JsonNode result = mcp.callTool(tool, arguments).get("result");
    assertThat(result.get("isError").asBoolean(true)).as(result.toString()).isFalse();
    JsonNode structured = result.get("structuredContent");
    assertThat(structured.isObject()).isTrue();
    assertThat(result.at("/content/0/type").asText()).isEqualTo("text");
    JsonNode text = Fixtures.json(result.at("/content/0/text").asText());
    // list_sessions shows the bare array (seed 000 parses a list); the others the structure.
    assertThat(text)
        .isEqualTo(tool.equals("list_sessions") ? structured.get("sessions") : structured);
    ValidationResponse valid =
        validator.validate(outputSchema(tool), Fixtures.JSON.convertValue(structured, OBJECT));
    assertThat(valid.valid()).as(valid.errorMessage()).isTrue();
    return structured;
  }

  private Map<String, Object> outputSchema(String tool) {
    for (JsonNode each : tools) {
      if (each.get("name").asText().equals(tool)) {
        return Fixtures.JSON.convertValue(each.get("outputSchema"), OBJECT);
      }
    }
    throw new AssertionError("no tool " + tool);
  }

  @Test
  void listSessionsIsAnObjectWithTheSessionsAsTheEngineSentThem() throws Exception {
    JsonNode structured = call("list_sessions", Map.of());
    JsonNode sent = Fixtures.contractJson("state.json").get("sessions").deepCopy();
    // The fake engine sends the usage whole: the listing has it in brief all the same.
    ((ObjectNode) sent.get(0))
        .set("usage", Fixtures.json("{\"tokens\": 111580, \"context_tokens\": 61877}"));
    assertThat(structured.get("sessions")).isEqualTo(sent);
    assertThat(structured.at("/sessions/1/folder").asText()).isEqualTo("frontend");
    assertThat(structured.at("/sessions/1/mode").isNull()).isTrue();
    assertThat(structured.at("/sessions/1/command").isNull()).isTrue();
    assertThat(structured.at("/sessions/0/folder").isNull()).isTrue();
    assertThat(structured.at("/sessions/1/mode_seq").asInt()).isEqualTo(2);
  }

  @Test
  void aListingShowsEachRowAsItIsNowThoughUnchangedRowsAreNotReadAgain() throws Exception {
    // Rows as a listing shows them, which go out as the engine sent them.
    ObjectNode state = (ObjectNode) Fixtures.contractJson("state.json");
    for (JsonNode row : state.get("sessions")) {
      ((ObjectNode) row).remove("limits");
      ((ObjectNode) row).set("usage", Fixtures.json("{\"tokens\": 5}"));
    }
    JsonNode first = state.get("sessions").deepCopy();
    engine.on("/api/state", FakeEngine.json(200, state.toString()));
    assertThat(call("list_sessions", Map.of()).get("sessions")).isEqualTo(first);

    ((ObjectNode) state.at("/sessions/0")).put("name", "renamed \"quoted\"");
    ((ObjectNode) state.at("/sessions/0")).set("usage", Fixtures.json("{\"tokens\": 6}"));
    engine.on("/api/state", FakeEngine.json(200, state.toString()));
    JsonNode second = call("list_sessions", Map.of()).get("sessions");
    assertThat(second.at("/0/name").asText()).isEqualTo("renamed \"quoted\"");
    assertThat(second.at("/0/usage/tokens").asInt()).isEqualTo(6);
    assertThat(second.get(1)).isEqualTo(first.get(1));

    // Back as it was: the first rows again, whole.
    engine.on("/api/state", FakeEngine.json(200, Json.write(Map.of("sessions", first))));
    assertThat(call("list_sessions", Map.of()).get("sessions")).isEqualTo(first);
  }

  @Test
  void sessionsCarryTheEnginesAttentionStateSourceAndExitStatus() throws Exception {
    JsonNode waiting = call("get_session", Map.of("id", Fixtures.CLAUDE_ID));
    assertThat(waiting.at("/attention/kind").asText()).isEqualTo("permission");
    assertThat(waiting.at("/attention/detail").asText()).startsWith("Edit: ");
    assertThat(waiting.at("/state_source/authority").asText()).isEqualTo("hook");
    JsonNode stopped = call("list_sessions", Map.of()).at("/sessions/1");
    assertThat(stopped.get("exit_status").asInt(-1)).isZero();
    assertThat(stopped.get("attention").isNull()).isTrue();
    assertThat(stopped.at("/state_source/authority").asText()).isEqualTo("process");
  }

  @Test
  void aPanelsRowsWithoutTheEnginesOwnFieldsAreValidToo() throws Exception {
    ObjectNode state = (ObjectNode) Fixtures.contractJson("state.json");
    state
        .get("sessions")
        .forEach(
            row ->
                ((ObjectNode) row)
                    .remove(
                        List.of("attention", "state_source", "exit_status", "adopted", "source")));
    engine.on("/api/state", FakeEngine.json(200, state.toString()));
    assertThat(call("list_sessions", Map.of()).at("/sessions/0").has("attention")).isFalse();
    assertThat(call("get_session", Map.of("id", Fixtures.CLAUDE_ID)).has("state_source")).isFalse();
  }

  @Test
  void getSessionCarriesTheCostEstimateAndTheListingLeavesItToIt() throws Exception {
    JsonNode whole = call("get_session", Map.of("id", Fixtures.CLAUDE_ID));
    assertThat(whole.at("/usage/cost_usd_estimate").decimalValue())
        .as("exactly the engine's decimal")
        .isEqualByComparingTo("0.882458");
    assertThat(call("list_sessions", Map.of()).at("/sessions/0/usage").has("cost_usd_estimate"))
        .isFalse();
  }

  @Test
  void listSessionsAsksTheEngineForTheUsageInBriefAndShowsItAsSent() throws Exception {
    ObjectNode state = (ObjectNode) Fixtures.contractJson("state.json");
    ObjectNode row = (ObjectNode) state.at("/sessions/0");
    row.set("usage", Fixtures.json("{\"tokens\": 5, \"context_percent\": 7}"));
    engine.on("/api/state", FakeEngine.json(200, state.toString()));

    assertThat(call("list_sessions", Map.of()).at("/sessions/0")).isEqualTo(row);
    assertThat(engine.requestsTo("/api/state"))
        .last()
        .satisfies(asked -> assertThat(asked.rawQuery()).isEqualTo("usage=brief"));
  }

  @Test
  void listSessionsSendsARowOnOneLineAsTheEngineWroteItAndOneOverLinesCompactly() throws Exception {
    ObjectNode state = (ObjectNode) Fixtures.contractJson("state.json");
    ArrayNode sessions = (ArrayNode) state.remove("sessions");
    ObjectNode claude = (ObjectNode) sessions.get(0);
    claude.remove("limits");
    claude.set("usage", Fixtures.json("{\"tokens\": 5, \"context_percent\": 7}"));
    String oneLine =
        Fixtures.JSON
            .writeValueAsString(claude)
            .replaceFirst("\"created\":[^,]*,", "\"created\": 1767168912.440,");
    assertThat(oneLine).contains("1767168912.440");
    String overLines =
        Fixtures.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(sessions.get(1));
    assertThat(overLines).contains("\n");
    String rest = Fixtures.JSON.writeValueAsString(state).substring(1);
    engine.on(
        "/api/state",
        FakeEngine.json(200, "{\"sessions\":[" + oneLine + ",\r\n" + overLines + "]," + rest));

    JsonNode result = mcp.callTool("list_sessions", Map.of()).get("result");

    String text = result.at("/content/0/text").textValue();
    assertThat(text).startsWith("[" + oneLine + ",").doesNotContain("\n").doesNotContain("\r");
    assertThat(Fixtures.json(text)).isEqualTo(result.at("/structuredContent/sessions"));
    assertThat(result.at("/structuredContent/sessions/1")).isEqualTo(sessions.get(1));
    assertThat(result.at("/structuredContent/sessions/0/created").decimalValue())
        .isEqualByComparingTo("1767168912.44");
  }

  @Test
  void listSessionsShowsTheUsageInBriefAndGetSessionShowsItWholeWithTheLimits() throws Exception {
    ObjectNode state = (ObjectNode) Fixtures.contractJson("state.json");
    JsonNode codex = Fixtures.contractJson("session-codex.json");
    ((ArrayNode) state.get("sessions")).add(codex);
    engine.on("/api/state", FakeEngine.json(200, state.toString()));

    JsonNode listed = call("list_sessions", Map.of()).at("/sessions/2");
    assertThat(listed.get("usage"))
        .isEqualTo(Fixtures.json("{\"tokens\": 8100, \"context_percent\": 6}"));
    assertThat(listed.has("limits")).as("limits are get_session's").isFalse();
    assertThat(call("list_sessions", Map.of()).at("/sessions/1").has("usage")).isFalse();

    JsonNode whole = call("get_session", Map.of("id", codex.get("id").asText()));
    assertThat(whole).isEqualTo(codex);
    assertThat(whole.at("/limits/windows/0/used_percent").decimalValue())
        .isEqualByComparingTo("15.5");
  }

  @Test
  void getSessionIsThatOneRow() throws Exception {
    JsonNode structured = call("get_session", Map.of("id", Fixtures.SHELL_ID));
    assertThat(structured).isEqualTo(Fixtures.contractJson("state.json").at("/sessions/1"));
  }

  @Test
  void waitIsTheEnginesAnswerWithWhyAPersonIsNeeded() throws Exception {
    ObjectNode expected = (ObjectNode) Fixtures.contractJson("wait-matched.json");
    expected.set("attention", Fixtures.contractJson("state.json").at("/sessions/0/attention"));
    assertThat(expected.at("/attention/kind").asText()).isEqualTo("permission");
    assertThat(call("wait", Map.of("id", Fixtures.CLAUDE_ID, "timeout", 5))).isEqualTo(expected);
  }

  @Test
  void aWaitThatEndsWithoutAPersonNeededIsTheEnginesAnswerAlone() throws Exception {
    engine.on(
        "/api/sessions/" + Fixtures.CLAUDE_ID + "/wait",
        FakeEngine.json(200, Fixtures.contract("wait-timeout.json")));
    int before = engine.requests.size();
    assertThat(call("wait", Map.of("id", Fixtures.CLAUDE_ID)))
        .isEqualTo(Fixtures.contractJson("wait-timeout.json"));
    assertThat(engine.requests).hasSize(before + 1);
  }

  @Test
  void aWaitingRowNoLongerInThatStateAddsNoAttention() throws Exception {
    ObjectNode row = (ObjectNode) Fixtures.contractJson("state.json");
    ((ObjectNode) row.at("/sessions/0")).put("state", "working");
    engine.on("/api/state", FakeEngine.json(200, row.toString()));
    assertThat(call("wait", Map.of("id", Fixtures.CLAUDE_ID)))
        .isEqualTo(Fixtures.contractJson("wait-matched.json"));
  }

  @Test
  void previewPaneIsTheLinesAliveAndActivity() throws Exception {
    assertThat(call("preview_pane", Map.of("id", Fixtures.CLAUDE_ID, "lines", 40)))
        .isEqualTo(Fixtures.contractJson("peek.json"));
    engine.on(
        "/api/sessions/" + Fixtures.SHELL_ID + "/peek",
        FakeEngine.json(200, Fixtures.contract("peek-stopped.json")));
    assertThat(call("preview_pane", Map.of("id", Fixtures.SHELL_ID)))
        .isEqualTo(Fixtures.contractJson("peek-stopped.json"));
  }

  @Test
  void conversationIsTheCliNameAndTurns() throws Exception {
    assertThat(call("conversation", Map.of("id", Fixtures.CLAUDE_ID)))
        .isEqualTo(Fixtures.contractJson("transcript.json"));
    engine.on(
        "/api/sessions/" + Fixtures.SHELL_ID + "/transcript",
        FakeEngine.json(200, Fixtures.contract("transcript-empty.json")));
    assertThat(call("conversation", Map.of("id", Fixtures.SHELL_ID)))
        .isEqualTo(Fixtures.contractJson("transcript-empty.json"));
  }

  @Test
  void waitGoneAndTimedOutAnswersMatchTheSchemaToo() throws Exception {
    for (String answer : new String[] {"wait-gone.json", "wait-timeout.json"}) {
      engine.on(
          "/api/sessions/" + Fixtures.SHELL_ID + "/wait",
          FakeEngine.json(200, Fixtures.contract(answer)));
      assertThat(call("wait", Map.of("id", Fixtures.SHELL_ID)))
          .isEqualTo(Fixtures.contractJson(answer));
    }
  }

  @Test
  void theServerValidatesStructuredOutputAgainstTheToolsSchema() throws Exception {
    // The client's parse accepts this answer (it reads no "attention"); the output schema does
    // not ("attention" is an object or null). The server turns it into a tool error instead of
    // passing it on.
    ObjectNode wrong = (ObjectNode) Fixtures.contractJson("wait-matched.json").deepCopy();
    wrong.put("attention", "soon");
    FakeClient fake = new FakeClient().answering(call -> FakeClient.waitResult(wrong));
    try (McpHarness other = McpHarness.start(new CliqueMcpServer(fake, Fixtures.VERSION))) {
      JsonNode result = other.callTool("wait", Map.of("id", "x")).get("result");
      assertThat(result.get("isError").asBoolean()).isTrue();
      assertThat(result.at("/content/0/text").asText())
          .isEqualTo(
              "Tool (wait) output validation failed: JSON schema validation errors:"
                  + " [$.attention: expected [object, null] but found string]");
    }
  }
}
