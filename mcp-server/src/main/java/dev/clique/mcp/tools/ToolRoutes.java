package dev.clique.mcp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.mcp.protocol.Futures;
import dev.clique.mcp.protocol.Json;
import dev.clique.mcp.protocol.JsonRpc;
import dev.clique.mcp.protocol.ProtocolError;
import dev.clique.mcp.protocol.Route;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator.ValidationResponse;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ListToolsResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * {@code tools/list} and {@code tools/call}, served by clique itself: the SDK's {@code McpSchema}
 * is the vocabulary (a tool's definition, a call's result), the dispatch is this class.
 *
 * <p>A call that names no tool, an unknown one, or arguments that are not an object is refused as
 * invalid params. A successful result is checked against its tool's output schema, as the MCP
 * specification asks of a server: one that does not match becomes a tool error saying why.
 */
public final class ToolRoutes {
  private final List<CliqueTool> tools;
  private final OutputSchemaValidator validator = new OutputSchemaValidator();
  private volatile Served served;

  /**
   * The tools' definitions, made once on first use (the handshake needs none of them), and their
   * output schemas, read once for the checks of every call.
   */
  private record Served(
      Map<String, CliqueTool> byName,
      Map<String, Tool> definitions,
      Map<String, OutputSchemaValidator.Schema> outputSchemas) {}

  /**
   * @param tools in the order {@code tools/list} shows them
   */
  public ToolRoutes(List<CliqueTool> tools) {
    this.tools = List.copyOf(tools);
  }

  /** The routes, by method name. */
  public Map<String, Route> routes() {
    return Map.of(
        "tools/list",
        (id, params, modern) ->
            CompletableFuture.completedFuture(
                new ListToolsResult(List.copyOf(served().definitions().values()), null, null)),
        "tools/call",
        (id, params, modern) -> call(params));
  }

  private CompletableFuture<CallToolResult> call(JsonNode params) {
    JsonNode name = params == null ? null : params.get("name");
    if (name == null || !name.isTextual()) {
      throw invalid("tools/call needs params.name, the name of a tool");
    }
    Served known = served();
    CliqueTool tool = known.byName().get(name.textValue());
    if (tool == null) {
      throw invalid("Unknown tool: " + name.textValue());
    }
    JsonNode arguments = params.get("arguments");
    if (arguments != null && !arguments.isObject() && !arguments.isNull()) {
      throw invalid("tools/call: arguments must be an object");
    }
    JsonNode meta = params.get("_meta");
    if (meta != null && !meta.isObject() && !meta.isNull()) {
      throw invalid("tools/call: _meta must be an object");
    }
    @SuppressWarnings("unchecked") // an object, checked above, is a map of its fields
    Map<String, Object> given = (Map<String, Object>) Json.toJava(arguments);
    Tool definition = known.definitions().get(tool.name());
    OutputSchemaValidator.Schema outputSchema = known.outputSchemas().get(tool.name());
    return Futures.map(
        tool.call(given),
        result ->
            result == null
                ? ToolResults.error("clique API returned an unexpected response: no answer")
                : checked(definition, outputSchema, result));
  }

  /** {@code result}, or the tool error of its not matching the tool's output schema. */
  private CallToolResult checked(
      Tool definition, OutputSchemaValidator.Schema outputSchema, CallToolResult result) {
    if (Boolean.TRUE.equals(result.isError()) || outputSchema == null) {
      return result;
    }
    if (result.structuredContent() == null) {
      return ToolResults.error(
          "Response missing structured content which is expected when calling tool with"
              + " non-empty outputSchema");
    }
    ValidationResponse check = validator.validate(outputSchema, result.structuredContent());
    return check.valid()
        ? result
        : ToolResults.error(
            "Tool (" + definition.name() + ") output validation failed: " + check.errorMessage());
  }

  private Served served() {
    Served current = served;
    if (current == null) {
      Map<String, CliqueTool> byName = new LinkedHashMap<>();
      Map<String, Tool> definitions = new LinkedHashMap<>();
      Map<String, OutputSchemaValidator.Schema> outputSchemas = new HashMap<>();
      for (CliqueTool tool : tools) {
        Tool definition = tool.definition();
        validator.assertConforms("the output schema of " + tool.name(), definition.outputSchema());
        byName.put(tool.name(), tool);
        definitions.put(tool.name(), definition);
        if (definition.outputSchema() != null) {
          outputSchemas.put(tool.name(), validator.compile(definition.outputSchema()));
        }
      }
      current =
          new Served(
              Map.copyOf(byName),
              Collections.unmodifiableMap(definitions),
              Map.copyOf(outputSchemas));
      served = current;
    }
    return current;
  }

  private static ProtocolError invalid(String message) {
    return new ProtocolError(JsonRpc.INVALID_PARAMS, message);
  }
}
