package dev.clique.mcp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.mcp.protocol.Json;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Checks structured tool output against the tool's output schema: {@link ToolRoutes} calls it on
 * every successful result and turns a mismatch into a tool error, as the SDK's server does with its
 * validator (this is one, in the SDK's interface).
 *
 * <p>It understands the part of JSON Schema the five tools' schemas are written in ({@code type}, a
 * single name or a list such as {@code ["string", "null"]}; {@code properties}; {@code required};
 * {@code items}; {@code additionalProperties: false}; {@code enum} of strings; {@code minItems})
 * and refuses any schema that uses more. A general validator (the SDK's default) loads a few
 * hundred classes into a process that should stay small; a test keeps this one judging the tools'
 * answers as the SDK's default does.
 */
public final class OutputSchemaValidator implements JsonSchemaValidator {
  private static final List<String> KNOWN =
      List.of(
          "type",
          "properties",
          "required",
          "items",
          "additionalProperties",
          "description",
          "enum",
          "minItems");

  @Override
  public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
    if (schema == null || structuredContent == null) {
      throw new IllegalArgumentException("a schema and structured content are needed");
    }
    JsonNode content = Json.toTree(structuredContent);
    List<String> errors = new ArrayList<>();
    check(schema, content, At.ROOT, errors);
    return errors.isEmpty()
        ? ValidationResponse.asValid(null)
        : ValidationResponse.asInvalid("JSON schema validation errors: " + errors);
  }

  @Override
  public void assertConforms(String what, Map<String, Object> schema) {
    if (schema != null) {
      List<String> errors = new ArrayList<>();
      understood(schema, "$", errors);
      if (!errors.isEmpty()) {
        throw new IllegalArgumentException(what + " uses what this server cannot check: " + errors);
      }
    }
  }

  private static void check(Object schemaObject, JsonNode value, At at, List<String> errors) {
    if (!(schemaObject instanceof Map<?, ?> schema)) {
      errors.add(at + ": the schema is not an object");
      return;
    }
    Object type = schema.get("type");
    if (type != null && !hasType(type, value)) {
      errors.add(at + ": expected " + type + " but found " + kind(value));
      return;
    }
    if (schema.get("enum") instanceof Collection<?> allowed
        && !(value.isTextual() && allowed.contains(value.textValue()))) {
      errors.add(at + ": expected one of " + allowed + " but found " + value);
      return;
    }
    if (value.isArray()
        && schema.get("minItems") instanceof Number least
        && value.size() < least.intValue()) {
      errors.add(at + ": expected at least " + least + " items but found " + value.size());
    }
    if (value.isObject()) {
      Object required = schema.get("required");
      if (required instanceof Collection<?> names) {
        for (Object name : names) {
          if (!value.has(String.valueOf(name))) {
            errors.add(at + ": required property " + name + " is missing");
          }
        }
      }
      Map<?, ?> properties =
          schema.get("properties") instanceof Map<?, ?> declared ? declared : Map.of();
      for (Map.Entry<String, JsonNode> field : value.properties()) {
        Object property = properties.get(field.getKey());
        if (property != null) {
          check(property, field.getValue(), at.field(field.getKey()), errors);
        } else if (Boolean.FALSE.equals(schema.get("additionalProperties"))) {
          errors.add(at + ": property " + field.getKey() + " is not allowed");
        }
      }
    }
    if (value.isArray() && schema.get("items") != null) {
      for (int i = 0; i < value.size(); i++) {
        check(schema.get("items"), value.get(i), at.item(i), errors);
      }
    }
  }

  /** Where a value is: spelled out ({@code $.sessions[3].id}) only for an error. */
  private record At(At parent, String field, int index) {
    static final At ROOT = new At(null, null, -1);

    At field(String name) {
      return new At(this, name, -1);
    }

    At item(int i) {
      return new At(this, null, i);
    }

    @Override
    public String toString() {
      if (parent == null) {
        return "$";
      }
      return parent + (field != null ? "." + field : "[" + index + "]");
    }
  }

  private static boolean hasType(Object type, JsonNode value) {
    if (type instanceof Collection<?> any) {
      for (Object one : any) {
        if (hasType(one, value)) {
          return true;
        }
      }
      return false;
    }
    return switch (String.valueOf(type)) {
      case "object" -> value.isObject();
      case "array" -> value.isArray();
      case "string" -> value.isTextual();
      case "boolean" -> value.isBoolean();
      case "null" -> value.isNull();
      case "number" -> value.isNumber();
      case "integer" ->
          value.isIntegralNumber()
              || (value.isNumber() && value.asDouble() == Math.rint(value.asDouble()));
      default -> false;
    };
  }

  private static String kind(JsonNode value) {
    return value.isNumber()
        ? "number"
        : value.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
  }

  private static void understood(Object schemaObject, String at, List<String> errors) {
    if (!(schemaObject instanceof Map<?, ?> schema)) {
      errors.add(at + " is not an object");
      return;
    }
    for (Object key : schema.keySet()) {
      if (!KNOWN.contains(String.valueOf(key))) {
        errors.add(at + "." + key);
      }
    }
    if (schema.get("properties") instanceof Map<?, ?> properties) {
      properties.forEach((name, property) -> understood(property, at + "." + name, errors));
    }
    if (schema.get("items") != null) {
      understood(schema.get("items"), at + "[]", errors);
    }
  }
}
