package dev.clique.mcp.protocol;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A refusal the protocol defines: answered as a JSON-RPC error with this code, message and data.
 */
public final class ProtocolError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int code;
  private final transient JsonNode data;

  public ProtocolError(int code, String message, JsonNode data) {
    super(message, null, false, false);
    this.code = code;
    this.data = data;
  }

  public ProtocolError(int code, String message) {
    this(code, message, null);
  }

  public int code() {
    return code;
  }

  /** The error's {@code data}, or {@code null}. */
  public JsonNode data() {
    return data;
  }
}
