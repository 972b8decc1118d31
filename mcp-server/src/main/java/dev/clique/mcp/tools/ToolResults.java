package dev.clique.mcp.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.util.List;
import java.util.Map;

/** Builds tool results: a JSON object as structured content and the same JSON as text. */
final class ToolResults {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};

  private ToolResults() {}

  static CallToolResult ok(JsonNode object) {
    if (object == null || !object.isObject()) {
      return error("clique API returned an unexpected response: expected a JSON object");
    }
    String text;
    try {
      text = JSON.writeValueAsString(object);
    } catch (JsonProcessingException e) {
      return error("clique API returned an unexpected response: " + e.getOriginalMessage());
    }
    return CallToolResult.builder()
        .content(List.of(TextContent.builder(text).build()))
        .structuredContent(JSON.convertValue(object, OBJECT))
        .isError(false)
        .build();
  }

  static CallToolResult error(String message) {
    return CallToolResult.builder()
        .content(List.of(TextContent.builder(message).build()))
        .isError(true)
        .build();
  }
}
