package dev.clique.mcp.protocol;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The one {@link ObjectMapper} of the server, shared with the SDK. It writes the text of a text
 * block from its UTF-8 bytes (or an array of its characters) instead of one character at a time:
 * the text of a list of sessions is tens of kilobytes of JSON, and per-character access is slow in
 * the quickly compiled code a short-lived process runs.
 */
public final class ServerJson {
  private ServerJson() {}

  public static ObjectMapper mapper() {
    return new ObjectMapper().addMixIn(TextContent.class, TextContentMixIn.class);
  }

  /** Applies {@link TextSerializer} to {@code TextContent.text}. */
  private abstract static class TextContentMixIn {
    @JsonSerialize(using = TextSerializer.class)
    abstract String text();
  }

  /** A string written from its characters in bulk; the JSON is the same. */
  static final class TextSerializer extends StdSerializer<String> {
    private static final long serialVersionUID = 1L;

    TextSerializer() {
      super(String.class);
    }

    @Override
    public void serialize(String text, JsonGenerator generator, SerializerProvider provider)
        throws IOException {
      if (generator instanceof UTF8JsonGenerator) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        generator.writeUTF8String(utf8, 0, utf8.length);
      } else {
        char[] chars = text.toCharArray();
        generator.writeString(chars, 0, chars.length);
      }
    }
  }
}
