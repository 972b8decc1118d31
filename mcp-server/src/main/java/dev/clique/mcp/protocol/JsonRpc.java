package dev.clique.mcp.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.client.Tokens;

/** JSON-RPC 2.0 error codes and the frames clique writes itself. */
public final class JsonRpc {
  public static final int PARSE_ERROR = -32700;
  public static final int INVALID_REQUEST = -32600;
  public static final int METHOD_NOT_FOUND = -32601;
  public static final int INVALID_PARAMS = -32602;
  public static final int INTERNAL_ERROR = -32603;

  /**
   * A resource that does not exist, up to 2025-11-25; the 2026-07-28 revision answers {@link
   * #INVALID_PARAMS} instead.
   */
  public static final int RESOURCE_NOT_FOUND = -32002;

  /** The modern era's answer to a request naming a revision this server does not speak. */
  public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private JsonRpc() {}

  /**
   * An error answer; {@code id} may be null (a line whose id could not be read). The message is
   * scrubbed of tokens.
   */
  public static String error(JsonNode id, int code, String message) {
    return error(id, code, message, null);
  }

  public static String error(JsonNode id, int code, String message, JsonNode data) {
    ObjectNode frame = JSON.objectNode();
    frame.put("jsonrpc", "2.0");
    frame.set("id", id == null ? JSON.nullNode() : id);
    ObjectNode error = frame.putObject("error");
    error.put("code", code);
    error.put("message", Tokens.scrub(message));
    if (data != null) {
      error.set("data", data);
    }
    return Json.write(frame);
  }

  public static String result(JsonNode id, JsonNode result) {
    ObjectNode frame = JSON.objectNode();
    frame.put("jsonrpc", "2.0");
    frame.set("id", id);
    frame.set("result", result);
    return Json.write(frame);
  }

  public static String notification(String method, JsonNode params) {
    ObjectNode frame = JSON.objectNode();
    frame.put("jsonrpc", "2.0");
    frame.put("method", method);
    frame.set("params", params);
    return Json.write(frame);
  }
}
