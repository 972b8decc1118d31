package dev.clique.mcp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.client.Tokens;
import dev.clique.mcp.protocol.Futures;
import dev.clique.mcp.protocol.Json;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/** Builds tool results: a JSON object as structured content and the same JSON as text. */
final class ToolResults {
  private ToolResults() {}

  /**
   * One read through the client: its answer becomes the result, a failure the tool error of its own
   * cause. Cancelling the result cancels the HTTP call.
   */
  static <T> CompletableFuture<CallToolResult> read(
      Supplier<CompletableFuture<T>> call, Function<T, CallToolResult> answer) {
    return Futures.recover(Futures.map(Futures.start(call), answer), ToolErrors::from);
  }

  /**
   * The engine's answer passed through as it came: its JSON text (what the client keeps of it) read
   * once, into the tree the output schema check and the writer take.
   */
  static CallToolResult passThrough(String engineJson) {
    return ok(Json.readAnswer(engineJson));
  }

  /**
   * A result of a JSON object. Anything else is not what the engine answers on that route, and
   * 2025-11-25 allows only an object as structured content.
   */
  static CallToolResult ok(JsonNode object) {
    if (object == null || !object.isObject()) {
      return error("clique API returned an unexpected response: expected a JSON object");
    }
    Json.Rendered structured = Json.Rendered.of(object);
    return ok(structured, structured.text());
  }

  /**
   * A result of the object {@code {name: shown}} whose text block is {@code shown} alone: {@code
   * list_sessions} shows the bare array (what seed 000 parses) around which its structure is an
   * object. {@code shown}, written once, serves both.
   */
  static CallToolResult ok(ObjectNode object, String name, Json.Rendered shown) {
    return ok(Json.Rendered.around(object, name, shown), shown.text());
  }

  /**
   * A result of the JSON object {@code object}, its text block followed by {@code note}, a sentence
   * for whoever reads the text (which session a name resolved to).
   */
  static CallToolResult ok(ObjectNode object, String note) {
    Json.Rendered structured = Json.Rendered.of(object);
    return ok(structured, structured.text(), Tokens.scrub(note));
  }

  private static CallToolResult ok(Json.Rendered structured, String text, String... notes) {
    List<Content> content = new ArrayList<>();
    content.add(TextContent.builder(text).build());
    for (String note : notes) {
      content.add(TextContent.builder(note).build());
    }
    return CallToolResult.builder()
        .content(content)
        .structuredContent(structured)
        .isError(false)
        .build();
  }

  /** A tool error: one text block, never a token. */
  static CallToolResult error(String message) {
    return CallToolResult.builder()
        .content(List.of(TextContent.builder(Tokens.scrub(message)).build()))
        .isError(true)
        .build();
  }
}
