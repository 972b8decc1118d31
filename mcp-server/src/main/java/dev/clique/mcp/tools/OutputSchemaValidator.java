package dev.clique.mcp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.mcp.protocol.Json;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
    return validate(compile(schema), structuredContent);
  }

  /**
   * {@code schema} read once for the checks of many results: a tool's output schema is the same at
   * every call, and a list of fifty sessions asks the same few questions of it a thousand times. It
   * must not change afterwards.
   */
  public Schema compile(Map<String, Object> schema) {
    if (schema == null) {
      throw new IllegalArgumentException("a schema is needed");
    }
    return Schema.of(schema);
  }

  /** The result of checking {@code structuredContent} against a compiled schema. */
  public ValidationResponse validate(Schema schema, Object structuredContent) {
    if (schema == null || structuredContent == null) {
      throw new IllegalArgumentException("a schema and structured content are needed");
    }
    JsonNode content = Json.toTree(structuredContent);
    List<String> errors = new ArrayList<>();
    schema.check(content, At.ROOT, errors);
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

  /**
   * A schema read once: what each keyword says, looked up and typed when it is made rather than at
   * every value checked. Not an object: every value fails it.
   */
  public static final class Schema {
    private static final int OBJECT = 1;
    private static final int ARRAY = 2;
    private static final int STRING = 4;
    private static final int BOOLEAN = 8;
    private static final int NULL = 16;
    private static final int NUMBER = 32;
    private static final int INTEGER = 64;

    private final boolean isObject;
    private final Object type;
    private final int types;
    private final Collection<?> allowed;
    private final Set<Object> allowedSet;
    private final Number minItems;
    private final List<String> required;
    private final Map<String, Schema> properties;
    private final boolean closed;
    private final Schema items;

    private Schema(Object schemaObject) {
      isObject = schemaObject instanceof Map<?, ?>;
      Map<?, ?> schema = isObject ? (Map<?, ?>) schemaObject : Map.of();
      type = schema.get("type");
      types = type == null ? 0 : types(type);
      allowed = schema.get("enum") instanceof Collection<?> values ? values : null;
      allowedSet = allowed == null ? null : new HashSet<>(allowed);
      minItems = schema.get("minItems") instanceof Number least ? least : null;
      List<String> names = new ArrayList<>();
      if (schema.get("required") instanceof Collection<?> given) {
        for (Object name : given) {
          names.add(String.valueOf(name));
        }
      }
      required = List.copyOf(names);
      Map<String, Schema> declared = new HashMap<>();
      if (schema.get("properties") instanceof Map<?, ?> given) {
        for (Map.Entry<?, ?> entry : given.entrySet()) {
          // Looked up by a field's name: only a name can match, and an absent schema is none.
          if (entry.getKey() instanceof String name && entry.getValue() != null) {
            declared.put(name, new Schema(entry.getValue()));
          }
        }
      }
      properties = declared;
      closed = Boolean.FALSE.equals(schema.get("additionalProperties"));
      Object itemSchema = schema.get("items");
      items = itemSchema == null ? null : new Schema(itemSchema);
    }

    static Schema of(Object schema) {
      return new Schema(schema);
    }

    private static int types(Object type) {
      if (type instanceof Collection<?> any) {
        int all = 0;
        for (Object one : any) {
          all |= types(one);
        }
        return all;
      }
      return switch (String.valueOf(type)) {
        case "object" -> OBJECT;
        case "array" -> ARRAY;
        case "string" -> STRING;
        case "boolean" -> BOOLEAN;
        case "null" -> NULL;
        case "number" -> NUMBER;
        case "integer" -> INTEGER;
        default -> 0;
      };
    }

    private boolean hasType(JsonNode value) {
      return ((types & OBJECT) != 0 && value.isObject())
          || ((types & ARRAY) != 0 && value.isArray())
          || ((types & STRING) != 0 && value.isTextual())
          || ((types & BOOLEAN) != 0 && value.isBoolean())
          || ((types & NULL) != 0 && value.isNull())
          || ((types & NUMBER) != 0 && value.isNumber())
          || ((types & INTEGER) != 0
              && (value.isIntegralNumber()
                  || (value.isNumber() && value.asDouble() == Math.rint(value.asDouble()))));
    }

    void check(JsonNode value, At at, List<String> errors) {
      if (!isObject) {
        errors.add(at + ": the schema is not an object");
        return;
      }
      if (type != null && !hasType(value)) {
        errors.add(at + ": expected " + type + " but found " + kind(value));
        return;
      }
      if (allowed != null && !(value.isTextual() && allowedSet.contains(value.textValue()))) {
        errors.add(at + ": expected one of " + allowed + " but found " + value);
        return;
      }
      if (value.isArray() && minItems != null && value.size() < minItems.intValue()) {
        errors.add(at + ": expected at least " + minItems + " items but found " + value.size());
      }
      if (value.isObject()) {
        for (String name : required) {
          if (!value.has(name)) {
            errors.add(at + ": required property " + name + " is missing");
          }
        }
        for (Map.Entry<String, JsonNode> field : value.properties()) {
          Schema property = properties.get(field.getKey());
          if (property != null) {
            property.check(field.getValue(), at.field(field.getKey()), errors);
          } else if (closed) {
            errors.add(at + ": property " + field.getKey() + " is not allowed");
          }
        }
      }
      if (value.isArray() && items != null) {
        for (int i = 0; i < value.size(); i++) {
          items.check(value.get(i), at.item(i), errors);
        }
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
