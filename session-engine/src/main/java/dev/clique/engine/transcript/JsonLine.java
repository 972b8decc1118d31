package dev.clique.engine.transcript;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;

/**
 * Parses one line of a transcript into a JSON object tree, with jackson-core's streaming parser (no
 * object mapper to build or warm up). Bytes that are not valid UTF-8 are decoded with replacement
 * first, so a bad byte costs a character, not the line.
 */
final class JsonLine {

  static final JsonFactory JSON = new JsonFactory();

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private JsonLine() {}

  /** The JSON object on {@code bytes[start, end)}, or {@code null} when it is not one. */
  static ObjectNode parse(byte[] bytes, int start, int end) {
    return parse(bytes, start, end, Fields.ALL);
  }

  /**
   * The JSON object on {@code bytes[start, end)} with only the given fields built, or {@code null}
   * when it is not one. Skipped values are still checked to be well-formed JSON.
   */
  static ObjectNode parse(byte[] bytes, int start, int end, Fields fields) {
    int first = start;
    while (first < end && isBlank(bytes[first])) {
      first++;
    }
    if (first == end || bytes[first] != '{') {
      return null;
    }
    try (JsonParser parser =
        isUtf8(bytes, first, end)
            ? JSON.createParser(bytes, first, end - first)
            : JSON.createParser(new String(bytes, first, end - first, StandardCharsets.UTF_8))) {
      JsonNode root = read(parser, parser.nextToken(), fields);
      if (parser.nextToken() != null) {
        return null; // something after the object: not a line we understand
      }
      return (ObjectNode) root;
    } catch (IOException | RuntimeException e) {
      // Cut, malformed, or past the parser's limits (nesting, string length).
      return null;
    }
  }

  /**
   * The JSON object that {@code text} holds (a line too long to be held as bytes, read as it
   * streams in), with only the given fields built, or {@code null} when it is not one.
   */
  static ObjectNode parse(Reader text, Fields fields) {
    try (JsonParser parser = JSON.createParser(text)) {
      JsonToken first = parser.nextToken();
      if (first != JsonToken.START_OBJECT) {
        return null;
      }
      JsonNode root = read(parser, first, fields);
      if (parser.nextToken() != null) {
        return null;
      }
      return (ObjectNode) root;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static JsonNode read(JsonParser parser, JsonToken token, Fields fields)
      throws IOException {
    if (token == null) {
      throw new IOException("unexpected end of input");
    }
    switch (token) {
      case START_OBJECT:
        ObjectNode object = NODES.objectNode();
        for (JsonToken field = parser.nextToken();
            field == JsonToken.FIELD_NAME;
            field = parser.nextToken()) {
          String name = parser.currentName();
          Fields kept = fields.field(name);
          JsonToken value = parser.nextToken();
          if (kept != null) {
            object.set(name, read(parser, value, kept));
          } else {
            skip(parser, value);
          }
        }
        return object;
      case START_ARRAY:
        ArrayNode array = NODES.arrayNode();
        for (JsonToken item = parser.nextToken();
            item != JsonToken.END_ARRAY;
            item = parser.nextToken()) {
          array.add(read(parser, item, fields));
        }
        return array;
      case VALUE_STRING:
        return NODES.textNode(parser.getText());
      case VALUE_NUMBER_INT:
        return NODES.numberNode(parser.getBigIntegerValue());
      case VALUE_NUMBER_FLOAT:
        return NODES.numberNode(parser.getDecimalValue());
      case VALUE_TRUE:
        return NODES.booleanNode(true);
      case VALUE_FALSE:
        return NODES.booleanNode(false);
      case VALUE_NULL:
        return NODES.nullNode();
      default:
        throw new IOException("unexpected " + token);
    }
  }

  private static void skip(JsonParser parser, JsonToken value) throws IOException {
    if (value == null) {
      throw new IOException("unexpected end of input");
    }
    parser.skipChildren(); // a no-op for scalars, whose text is then never decoded
  }

  private static boolean isBlank(byte b) {
    return b == ' ' || b == '\t' || b == '\r';
  }

  /**
   * Whether {@code bytes[start, end)} is well-formed UTF-8 as Java's decoder sees it (no overlong
   * forms, no surrogates, nothing past U+10FFFF), so parsing the bytes directly gives the same text
   * as decoding them.
   */
  static boolean isUtf8(byte[] bytes, int start, int end) {
    int i = start;
    while (i < end) {
      int b = bytes[i];
      if (b >= 0) {
        i++;
        continue;
      }
      b &= 0xFF;
      int length;
      int min;
      if (b >= 0xC2 && b <= 0xDF) {
        length = 2;
        min = 0x80;
      } else if (b >= 0xE0 && b <= 0xEF) {
        length = 3;
        min = 0x800;
      } else if (b >= 0xF0 && b <= 0xF4) {
        length = 4;
        min = 0x10000;
      } else {
        return false;
      }
      if (i + length > end) {
        return false;
      }
      int code = b & (0xFF >> (length + 1));
      for (int k = 1; k < length; k++) {
        int c = bytes[i + k] & 0xFF;
        if ((c & 0xC0) != 0x80) {
          return false;
        }
        code = (code << 6) | (c & 0x3F);
      }
      if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
        return false;
      }
      i += length;
    }
    return true;
  }
}
