package dev.clique.mcp.stdio;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.mcp.protocol.FrameWriter;
import dev.clique.mcp.protocol.Json;
import dev.clique.mcp.protocol.JsonRpc;
import dev.clique.mcp.protocol.MessageHandler;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads stdin line by line and answers every malformed line itself, so that nothing a client sends
 * can stop the server; well-formed requests and notifications go to the {@link MessageHandler}.
 */
public final class StdioFront {
  /** Lines up to this size are read; larger ones are refused and skipped. */
  public static final int MAX_LINE_BYTES = 8 * 1024 * 1024;

  private final FrameWriter out;
  private final MessageHandler handler;

  public StdioFront(FrameWriter out, MessageHandler handler) {
    this.out = out;
    this.handler = handler;
  }

  /** Where well-formed messages go. */

  /** Reads until the end of {@code in}; returns then. */
  public void run(InputStream in) throws IOException {
    LineReader lines = new LineReader(in, MAX_LINE_BYTES);
    LineReader.Line line;
    while ((line = lines.next()) != null) {
      if (line.oversize()) {
        out.write(
            JsonRpc.error(
                null,
                JsonRpc.INVALID_REQUEST,
                "message larger than " + (MAX_LINE_BYTES >> 20) + " MiB"));
        continue;
      }
      handle(line.bytes());
    }
  }

  private void handle(byte[] bytes) {
    String text = decode(bytes);
    if (text.isBlank()) {
      return;
    }
    JsonNode node;
    try {
      node = Json.read(text);
    } catch (JsonProcessingException e) {
      out.write(JsonRpc.error(null, JsonRpc.PARSE_ERROR, "parse error: not valid JSON"));
      return;
    }
    if (!node.isObject()) {
      String what = node.isArray() ? "batches are not supported" : "not an object";
      out.write(JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "invalid request: " + what));
      return;
    }
    ObjectNode message = (ObjectNode) node;
    JsonNode id = message.get("id");
    boolean validId = id == null || id.isTextual() || id.isIntegralNumber() || id.isNull();
    JsonNode method = message.get("method");
    if (method == null) {
      if (message.has("result") || message.has("error")) {
        return; // a reply to a request of ours: we send none, so nothing waits for it
      }
      out.write(
          JsonRpc.error(
              validId ? id : null, JsonRpc.INVALID_REQUEST, "invalid request: no method"));
      return;
    }
    if (!validId) {
      out.write(JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "invalid request: bad id"));
      return;
    }
    if (!method.isTextual() || !"2.0".equals(message.path("jsonrpc").asText(null))) {
      if (id != null) {
        out.write(
            JsonRpc.error(
                id, JsonRpc.INVALID_REQUEST, "invalid request: needs jsonrpc 2.0 and a method"));
      }
      return;
    }
    JsonNode params = message.get("params");
    if (params != null && !params.isObject() && !params.isNull()) {
      if (id != null) {
        out.write(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "params must be an object"));
      }
      return;
    }
    if (id == null || id.isNull() || method.textValue().startsWith("notifications/")) {
      // A notification is never answered, even one that carries an id by mistake.
      handler.notification(method.textValue(), message);
    } else {
      handler.request(id, method.textValue(), message);
    }
  }

  /** UTF-8, with every malformed byte replaced rather than failing the line. */
  private static String decode(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPLACE)
          .onUnmappableCharacter(CodingErrorAction.REPLACE)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }
}
