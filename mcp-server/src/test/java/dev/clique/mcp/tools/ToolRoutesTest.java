package dev.clique.mcp.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.mcp.protocol.Json;
import dev.clique.mcp.protocol.JsonRpc;
import dev.clique.mcp.protocol.ProtocolError;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ListToolsResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class ToolRoutesTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** A tool answering what the test gives it, and keeping the arguments it was called with. */
  private static final class Scripted implements CliqueTool {
    final List<Map<String, Object>> calls = new ArrayList<>();
    private final String name;
    private final Map<String, Object> outputSchema;
    private final CompletableFuture<CallToolResult> answer;

    Scripted(
        String name, Map<String, Object> outputSchema, CompletableFuture<CallToolResult> answer) {
      this.name = name;
      this.outputSchema = outputSchema;
      this.answer = answer;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Tool definition() {
      return Tool.builder(name, Schemas.input(Map.of(), List.of()))
          .outputSchema(outputSchema)
          .build();
    }

    @Override
    public CompletableFuture<CallToolResult> call(Map<String, Object> arguments) {
      calls.add(arguments);
      return answer;
    }
  }

  private static final Map<String, Object> COUNT_SCHEMA =
      Schemas.output(Map.of("count", Map.of("type", "integer")), List.of("count"));

  @Test
  void theListShowsEveryToolInTheOrderGiven() {
    ToolRoutes routes =
        new ToolRoutes(
            List.of(
                new Scripted("b", null, CompletableFuture.completedFuture(null)),
                new Scripted("a", null, CompletableFuture.completedFuture(null))));
    Object list = routes.routes().get("tools/list").answer(NODES.numberNode(1), null, false).join();
    assertThat(((ListToolsResult) list).tools()).extracting(Tool::name).containsExactly("b", "a");
  }

  @Test
  void aCallReachesItsToolWithItsArguments() {
    CallToolResult ok = text("fine", false);
    Scripted tool = new Scripted("t", null, CompletableFuture.completedFuture(ok));
    assertThat(call(new ToolRoutes(List.of(tool)), params("t", "{\"id\":\"x\",\"n\":2}")))
        .isSameAs(ok);
    assertThat(tool.calls).containsExactly(Map.of("id", "x", "n", 2));
  }

  @Test
  void aCallThatCannotBeServedIsRefusedAsInvalidParams() {
    ToolRoutes routes =
        new ToolRoutes(List.of(new Scripted("t", null, CompletableFuture.completedFuture(null))));
    assertRefused(routes, null, "tools/call needs params.name, the name of a tool");
    assertRefused(routes, params("nope", "{}"), "Unknown tool: nope");
    assertRefused(routes, params("t", "[1]"), "tools/call: arguments must be an object");
    ObjectNode badMeta = params("t", "{}");
    badMeta.put("_meta", 3);
    assertRefused(routes, badMeta, "tools/call: _meta must be an object");
  }

  @Test
  void aResultIsCheckedAgainstItsToolsOutputSchema() {
    CallToolResult counted =
        CallToolResult.builder()
            .content(List.of(TextContent.builder("{\"count\":1}").build()))
            .structuredContent(Map.of("count", 1))
            .isError(false)
            .build();
    CallToolResult miscounted =
        CallToolResult.builder()
            .content(List.of(TextContent.builder("{\"count\":\"one\"}").build()))
            .structuredContent(Map.of("count", "one"))
            .isError(false)
            .build();
    assertThat(call(routes("c", COUNT_SCHEMA, counted), params("c", "{}"))).isSameAs(counted);

    CallToolResult refused = call(routes("c", COUNT_SCHEMA, miscounted), params("c", "{}"));
    assertThat(refused.isError()).isTrue();
    assertThat(((TextContent) refused.content().get(0)).text())
        .isEqualTo(
            "Tool (c) output validation failed: JSON schema validation errors:"
                + " [$.count: expected integer but found string]");

    CallToolResult bare =
        call(routes("c", COUNT_SCHEMA, text("no structure", false)), params("c", "{}"));
    assertThat(bare.isError()).isTrue();
    assertThat(((TextContent) bare.content().get(0)).text())
        .startsWith("Response missing structured content");

    // A tool error, and a tool without an output schema, are passed on as they are.
    CallToolResult failed = text("the engine is not running", true);
    assertThat(call(routes("c", COUNT_SCHEMA, failed), params("c", "{}"))).isSameAs(failed);
    CallToolResult free = text("anything", false);
    assertThat(call(routes("f", null, free), params("f", "{}"))).isSameAs(free);
  }

  @Test
  void aToolThatAnswersNothingIsAToolErrorSayingSo() {
    CallToolResult result = call(routes("t", null, null), params("t", "{}"));
    assertThat(result.isError()).isTrue();
    assertThat(((TextContent) result.content().get(0)).text())
        .isEqualTo("clique API returned an unexpected response: no answer");
  }

  private static ToolRoutes routes(String name, Map<String, Object> schema, CallToolResult answer) {
    return new ToolRoutes(
        List.of(
            new Scripted(
                name,
                schema,
                answer == null
                    ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.completedFuture(answer))));
  }

  private static CallToolResult text(String text, boolean error) {
    return CallToolResult.builder()
        .content(List.of(TextContent.builder(text).build()))
        .isError(error)
        .build();
  }

  private static ObjectNode params(String name, String arguments) {
    ObjectNode params = NODES.objectNode();
    params.put("name", name);
    try {
      params.set("arguments", Json.read(arguments));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
    return params;
  }

  private static CallToolResult call(ToolRoutes routes, JsonNode params) {
    return (CallToolResult)
        routes.routes().get("tools/call").answer(NODES.numberNode(1), params, false).join();
  }

  private static void assertRefused(ToolRoutes routes, JsonNode params, String message) {
    assertThatThrownBy(() -> call(routes, params))
        .isInstanceOf(ProtocolError.class)
        .hasMessage(message)
        .satisfies(e -> assertThat(((ProtocolError) e).code()).isEqualTo(JsonRpc.INVALID_PARAMS));
  }
}
