package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator.ValidationResponse;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The five tools as {@code tools/list} shows them (MCP.md, The five tools). */
class ToolsListTest {
  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};
  private static McpHarness mcp;
  private static JsonNode tools;

  @BeforeAll
  static void listTheTools() throws Exception {
    mcp = McpHarness.start(new CliqueMcpServer(new FakeClient(), Fixtures.VERSION));
    tools = mcp.request("tools/list", null).at("/result/tools");
  }

  @AfterAll
  static void end() {
    mcp.close();
  }

  @Test
  void exactlyTheFiveToolsInOrder() {
    List<String> names = new ArrayList<>();
    tools.forEach(tool -> names.add(tool.get("name").asText()));
    assertThat(names)
        .containsExactly("list_sessions", "get_session", "wait", "preview_pane", "conversation");
  }

  @Test
  void eachHasATitleAndAOneSentenceDescription() {
    for (JsonNode tool : tools) {
      assertThat(tool.path("title").asText()).as(tool.toString()).isNotBlank();
      String description = tool.path("description").asText();
      assertThat(description).as(tool.get("name").asText()).endsWith(".");
      assertThat(description.substring(0, description.length() - 1))
          .as("one sentence: " + description)
          .doesNotContain(". ", "? ", "! ");
    }
  }

  @Test
  void eachInputSchemaIsAClosedObject() {
    for (JsonNode tool : tools) {
      JsonNode input = tool.get("inputSchema");
      assertThat(input.get("type").asText()).isEqualTo("object");
      assertThat(input.get("additionalProperties").isBoolean()).isTrue();
      assertThat(input.get("additionalProperties").asBoolean(true)).isFalse();
    }
  }

  @Test
  void theArgumentsAreThoseOfTheTable() {
    assertThat(properties("list_sessions")).isEmpty();
    assertThat(properties("get_session")).containsExactly("id");
    assertThat(properties("wait")).containsExactly("id", "timeout", "until");
    assertThat(tool("wait").at("/inputSchema/properties/until/type").asText()).isEqualTo("array");
    assertThat(tool("wait").at("/inputSchema/properties/until/items/enum").toString())
        .isEqualTo("[\"idle\",\"waiting\",\"error\",\"stopped\"]");
    assertThat(properties("preview_pane")).containsExactly("id", "lines");
    assertThat(properties("conversation")).containsExactly("id");
    assertThat(tool("wait").at("/inputSchema/properties/timeout/type").asText())
        .isEqualTo("number");
    assertThat(tool("preview_pane").at("/inputSchema/properties/lines/type").asText())
        .isEqualTo("integer");
    for (String name : List.of("get_session", "wait", "preview_pane", "conversation")) {
      assertThat(tool(name).at("/inputSchema/required").toString()).isEqualTo("[\"id\"]");
    }
  }

  @Test
  void eachDeclaresAnObjectOutputSchema() {
    for (JsonNode tool : tools) {
      assertThat(tool.at("/outputSchema/type").asText()).isEqualTo("object");
    }
    assertThat(tool("list_sessions").at("/outputSchema/required").toString())
        .isEqualTo("[\"sessions\"]");
    for (JsonNode session :
        List.of(
            tool("get_session").get("outputSchema"),
            tool("list_sessions").at("/outputSchema/properties/sessions/items"))) {
      assertThat(session.get("properties").has("attention")).isTrue();
      assertThat(session.get("properties").has("state_source")).isTrue();
      assertThat(session.get("properties").has("exit_status")).isTrue();
      // Optional: a CLIque panel has none of them.
      assertThat(session.get("required").toString()).isEqualTo("[\"id\",\"state\"]");
    }
    assertThat(tool("wait").at("/outputSchema/properties").has("attention")).isTrue();
    assertThat(tool("wait").at("/outputSchema/required").toString()).doesNotContain("attention");
  }

  @Test
  void eachIsAnnotatedReadOnlyNotDestructiveIdempotentAndClosedWorld() {
    for (JsonNode tool : tools) {
      assertThat(tool.get("annotations"))
          .isEqualTo(
              Fixtures.json(
                  "{\"readOnlyHint\":true,\"destructiveHint\":false,"
                      + "\"idempotentHint\":true,\"openWorldHint\":false}"));
    }
  }

  @Test
  void everySchemaIsValidJsonSchema202012() {
    // The server skips this check at start-up (it costs time); this test is the check.
    DefaultJsonSchemaValidator validator = new DefaultJsonSchemaValidator();
    for (JsonNode tool : tools) {
      for (String which : List.of("inputSchema", "outputSchema")) {
        Map<String, Object> schema = Fixtures.JSON.convertValue(tool.get(which), OBJECT);
        ValidationResponse checked = validator.validateSchema(schema);
        assertThat(checked.valid()).as(tool.get("name") + " " + which + ": " + checked).isTrue();
      }
    }
  }

  private static JsonNode tool(String name) {
    for (JsonNode tool : tools) {
      if (tool.get("name").asText().equals(name)) {
        return tool;
      }
    }
    throw new AssertionError("no tool " + name);
  }

  private static List<String> properties(String name) {
    List<String> names = new ArrayList<>();
    tool(name).at("/inputSchema/properties").fieldNames().forEachRemaining(names::add);
    return names;
  }
}
