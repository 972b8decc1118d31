package dev.clique.mcp.protocol;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import java.io.IOException;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The SDK's JSON for clique's server, on {@link Json}. The server hands the SDK requests it has
 * read already and writes the SDK's answers itself, so the one conversion the SDK makes is the
 * parameters of {@code tools/call} into a {@link CallToolRequest}; any other target type is refused
 * with an {@link IllegalArgumentException} naming it, which the SDK answers as an error.
 */
public final class SdkJsonMapper implements McpJsonMapper {
  @Override
  public <T> T convertValue(Object from, Class<T> type) {
    return type.cast(convert(from, type));
  }

  @Override
  public <T> T convertValue(Object from, TypeRef<T> type) {
    @SuppressWarnings("unchecked") // convert makes exactly the type asked for, or throws
    T converted = (T) convert(from, type.getType());
    return converted;
  }

  @Override
  public <T> T readValue(String content, Class<T> type) throws IOException {
    return convertValue(Json.toJava(Json.read(content)), type);
  }

  @Override
  public <T> T readValue(byte[] content, Class<T> type) throws IOException {
    return readValue(new String(content, StandardCharsets.UTF_8), type);
  }

  @Override
  public <T> T readValue(String content, TypeRef<T> type) throws IOException {
    return convertValue(Json.toJava(Json.read(content)), type);
  }

  @Override
  public <T> T readValue(byte[] content, TypeRef<T> type) throws IOException {
    return readValue(new String(content, StandardCharsets.UTF_8), type);
  }

  @Override
  public String writeValueAsString(Object value) {
    return Json.write(value);
  }

  @Override
  public byte[] writeValueAsBytes(Object value) {
    return Json.writeBytes(value);
  }

  private static Object convert(Object from, Type type) {
    if (type == Object.class) {
      return from;
    }
    if (type == CallToolRequest.class) {
      return callToolRequest(from);
    }
    throw new IllegalArgumentException("clique's server makes no " + type.getTypeName());
  }

  private static CallToolRequest callToolRequest(Object from) {
    if (!(from instanceof Map<?, ?> params)) {
      throw new IllegalArgumentException("tools/call needs params, an object");
    }
    if (!(params.get("name") instanceof String name)) {
      throw new IllegalArgumentException("tools/call needs params.name, the name of a tool");
    }
    return new CallToolRequest(
        name, object(params.get("arguments"), "arguments"), object(params.get("_meta"), "_meta"));
  }

  @SuppressWarnings("unchecked") // read from JSON: an object's keys are strings
  private static Map<String, Object> object(Object value, String name) {
    if (value == null || value instanceof Map<?, ?>) {
      return (Map<String, Object>) value;
    }
    throw new IllegalArgumentException("tools/call: " + name + " must be an object");
  }
}
