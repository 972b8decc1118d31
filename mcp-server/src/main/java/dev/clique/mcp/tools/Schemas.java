package dev.clique.mcp.tools;

import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The JSON Schema pieces the five tools share. */
final class Schemas {
  private Schemas() {}

  /** Every tool only reads, repeatably, inside clique. */
  static final ToolAnnotations READ_ONLY =
      new ToolAnnotations(null, true, false, true, false, null);

  static Map<String, Object> input(Map<String, Object> properties, List<String> required) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", properties);
    if (!required.isEmpty()) {
      schema.put("required", required);
    }
    schema.put("additionalProperties", false);
    return schema;
  }

  static Map<String, Object> output(Map<String, Object> properties, List<String> required) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", properties);
    schema.put("required", required);
    return schema;
  }

  static Map<String, Object> sessionId() {
    return Map.of("type", "string", "description", "The session id, as list_sessions shows it.");
  }

  static Map<String, Object> type(String type) {
    return Map.of("type", type);
  }

  static Map<String, Object> typed(String type, String description) {
    return Map.of("type", type, "description", description);
  }

  static Map<String, Object> arrayOf(Map<String, Object> items) {
    return Map.of("type", "array", "items", items);
  }

  /** A session row: the engine's keys pass through; these are the ones always there. */
  static Map<String, Object> session() {
    Map<String, Object> properties = new LinkedHashMap<>();
    properties.put("id", type("string"));
    properties.put("name", type("string"));
    properties.put("cli", type("string"));
    properties.put("state", type("string"));
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", properties);
    schema.put("required", List.of("id"));
    return schema;
  }
}
