package dev.clique.engine.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.json.EngineJson;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Fields;

/** What a request says: its path, its query parameters and its JSON body, each checked. */
final class Requests {
  private static final int MAX_BODY = 1 << 20;
  // A larger body is not worth reading only to refuse it: the connection is closed instead.
  private static final long MAX_DRAINED = 16L << 20;
  private static final ObjectMapper JSON = EngineJson.mapper();

  private Requests() {}

  /** The path's non-empty segments: {@code /api/sessions/x/peek} gives four. */
  static List<String> segments(String path) {
    List<String> parts = new ArrayList<>();
    for (String part : path.split("/")) {
      if (!part.isEmpty()) {
        parts.add(part);
      }
    }
    return parts;
  }

  /** The query parameter {@code name}, or null when the request has none. */
  static String query(Request request, String name) throws ApiError {
    Fields fields;
    try {
      fields = Request.extractQueryParameters(request);
    } catch (RuntimeException e) {
      // Jetty refuses an escape that is not UTF-8 (lines=%ff): the client's mistake, not ours.
      throw ApiError.badRequest("the query string is not valid UTF-8 percent-encoding");
    }
    Fields.Field field = fields.get(name);
    return field == null ? null : field.getValue();
  }

  /** The {@code timeout} of a held request, in milliseconds: 60 s unless given, at most 300 s. */
  static long timeoutMillis(Request request) throws ApiError {
    double timeout = 60;
    String timeoutParam = query(request, "timeout");
    if (timeoutParam != null) {
      try {
        timeout = Double.parseDouble(timeoutParam);
      } catch (NumberFormatException e) {
        throw ApiError.badRequest("timeout must be a number of seconds");
      }
      if (!(timeout >= 0)) {
        throw ApiError.badRequest("timeout must be 0 or more seconds");
      }
    }
    return (long) (Math.min(timeout, 300) * 1000);
  }

  /** How many lines a peek asks for: 6 unless given, from 1 to 200. */
  static int peekLines(String linesParam) throws ApiError {
    if (linesParam == null) {
      return 6;
    }
    try {
      return Math.max(1, Math.min(200, (int) Double.parseDouble(linesParam)));
    } catch (NumberFormatException e) {
      throw ApiError.badRequest("lines must be a number");
    }
  }

  /**
   * The body as a JSON object, at most 1 MiB; an empty body is an empty object. A larger body is
   * read to its end (up to {@link #MAX_DRAINED}) before the 413, so that a client still writing it
   * reads the answer rather than a connection closed under it.
   */
  static JsonNode body(Request request) throws ApiError {
    if (request.getLength() > MAX_DRAINED) {
      throw tooLarge();
    }
    byte[] data;
    try (InputStream in = Content.Source.asInputStream(request)) {
      data = in.readNBytes(MAX_BODY + 1);
      if (data.length > MAX_BODY) {
        drain(in, MAX_DRAINED - data.length);
        throw tooLarge();
      }
    } catch (IOException e) {
      if (request.getLength() > MAX_BODY) {
        throw tooLarge();
      }
      throw ApiError.badRequest("the request body could not be read");
    }
    if (data.length == 0) {
      return JSON.createObjectNode();
    }
    try {
      JsonNode node = JSON.readTree(data);
      if (node == null || !node.isObject()) {
        throw ApiError.badRequest("the request body must be a JSON object");
      }
      return node;
    } catch (IOException e) {
      throw ApiError.badRequest("the request body is not valid JSON");
    }
  }

  /** Reads and forgets up to {@code most} bytes, stopping at the body's end. */
  private static void drain(InputStream in, long most) throws IOException {
    byte[] sink = new byte[64 * 1024];
    for (long left = most; left > 0; ) {
      int read = in.read(sink, 0, (int) Math.min(sink.length, left));
      if (read < 0) {
        return;
      }
      left -= read;
    }
  }

  private static ApiError tooLarge() {
    return new ApiError(413, "request body is larger than 1 MiB");
  }

  /** The string at {@code key} of a JSON object, or null when it is absent or null. */
  static String text(JsonNode body, String key) throws ApiError {
    JsonNode value = body.get(key);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw ApiError.badRequest(key + " must be a string");
    }
    return value.asText();
  }
}
