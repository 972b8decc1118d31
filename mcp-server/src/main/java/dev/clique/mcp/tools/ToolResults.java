package dev.clique.mcp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.mcp.protocol.Tokens;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.List;

/** Builds tool results: a JSON object as structured content and the same JSON as text. */
final class ToolResults {
  private ToolResults() {}

  /**
   * A result of a JSON object. Anything else is not what the engine answers on that route, and
   * 2025-11-25 allows only an object as structured content.
   */
  static CallToolResult ok(JsonNode object) {
    if (object == null || !object.isObject()) {
      return error("clique API returned an unexpected response: expected a JSON object");
    }
    return CallToolResult.builder()
        .content(List.of(TextContent.builder(object.toString()).build()))
        .structuredContent(object)
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
