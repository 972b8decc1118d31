package dev.clique.client.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Reads the engine's answers into trees with Jackson's streaming parser alone. The data-binding
 * {@code ObjectMapper} would load some six hundred classes more, and a JVM tool embedding this
 * client (a {@code clique mcp} process above all) pays for each in memory and start-up.
 *
 * <p>Decimals are kept exactly as written ({@code 1767171234.80} stays that), integers as the
 * smallest of int, long and big integer that holds them; of repeated keys the last wins.
 */
public final class JsonTree {
  private static final JsonFactory FACTORY = new JsonFactory();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * Spans are noted only as deep as an answer's values go: the answer, its objects and the objects
   * of its arrays (a session row), two levels down; not the objects inside those, whose text nobody
   * asks for, read in every row of a list.
   */
  private static final int SPAN_DEPTH = 2;

  private JsonTree() {}

  /**
   * The one JSON value of {@code json}; {@link MissingNode} when there is none.
   *
   * @throws JsonProcessingException when it is not JSON, or something follows the value
   */
  public static JsonNode read(byte[] json) throws JsonProcessingException {
    try (JsonParser parser = FACTORY.createParser(json)) {
      return whole(parser);
    } catch (JsonProcessingException e) {
      throw e;
    } catch (IOException e) {
      throw new IllegalStateException("reading bytes in memory failed", e);
    }
  }

  /** {@link #read(byte[])} of a text. */
  public static JsonNode read(String json) throws JsonProcessingException {
    return read(json.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * {@link #read(String)}, noting where in {@code json} each object of the tree stands.
   *
   * @param spans where each object's first and last-plus-one character go, by node identity
   */
  static JsonNode read(String json, Map<JsonNode, int[]> spans) throws JsonProcessingException {
    try (JsonParser parser = FACTORY.createParser(json)) {
      return whole(parser, spans);
    } catch (JsonProcessingException e) {
      throw e;
    } catch (IOException e) {
      throw new IllegalStateException("reading a text in memory failed", e);
    }
  }

  private static JsonNode whole(JsonParser parser) throws IOException {
    return whole(parser, null);
  }

  private static JsonNode whole(JsonParser parser, Map<JsonNode, int[]> spans) throws IOException {
    if (parser.nextToken() == null) {
      return MissingNode.getInstance();
    }
    JsonNode value = value(parser, spans, 0);
    if (parser.nextToken() != null) {
      throw new JsonParseException(parser, "more than one JSON value");
    }
    return value;
  }

  private static JsonNode value(JsonParser parser, Map<JsonNode, int[]> spans, int depth)
      throws IOException {
    switch (parser.currentToken()) {
      case START_OBJECT:
        boolean noted = spans != null && depth <= SPAN_DEPTH;
        long start = noted ? parser.currentTokenLocation().getCharOffset() : 0;
        ObjectNode object = NODES.objectNode();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String name = parser.currentName();
          parser.nextToken();
          object.replace(name, value(parser, spans, depth + 1));
        }
        if (noted) {
          long end = parser.currentTokenLocation().getCharOffset() + 1;
          spans.merge(
              object,
              new int[] {Math.toIntExact(start), Math.toIntExact(end)},
              (earlier, later) -> later);
        }
        return object;
      case START_ARRAY:
        ArrayNode array = NODES.arrayNode();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          array.add(value(parser, spans, depth + 1));
        }
        return array;
      case VALUE_STRING:
        return NODES.textNode(parser.getText());
      case VALUE_NUMBER_INT:
        return switch (parser.getNumberType()) {
          case INT -> NODES.numberNode(parser.getIntValue());
          case LONG -> NODES.numberNode(parser.getLongValue());
          default -> NODES.numberNode(parser.getBigIntegerValue());
        };
      case VALUE_NUMBER_FLOAT:
        return DecimalNode.valueOf(parser.getDecimalValue());
      case VALUE_TRUE:
        return NODES.booleanNode(true);
      case VALUE_FALSE:
        return NODES.booleanNode(false);
      case VALUE_NULL:
        return NODES.nullNode();
      default:
        throw new JsonParseException(parser, "unexpected " + parser.currentToken());
    }
  }

  /**
   * The compact text of {@code tree}, decimals plain ({@code 1767171234.80} stays that, never
   * {@code 1.76717123480E9}), noting where each object of the tree stands in it as {@link
   * #read(String, Map)} notes them: a tree made here need not be written and then read back.
   *
   * @param spans where each object's first and last-plus-one character go, by node identity
   */
  static String write(JsonNode tree, Map<JsonNode, int[]> spans) {
    StringWriter text = new StringWriter();
    try (JsonGenerator out = FACTORY.createGenerator(text)) {
      out.enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
      // What the generator has written so far: what reached the writer, and what it still holds.
      write(tree, out, () -> text.getBuffer().length() + out.getOutputBuffered(), spans, 0);
    } catch (IOException e) {
      throw new UncheckedIOException("writing to a string failed", e);
    }
    return text.toString();
  }

  /**
   * Writes a tree this class read (or one of the same node kinds) to {@code out}.
   *
   * @param node objects, arrays, strings, numbers, booleans and nulls
   * @param out where it goes
   * @throws IOException as the generator throws it
   */
  public static void write(JsonNode node, JsonGenerator out) throws IOException {
    write(node, out, null, null, 0);
  }

  /** How many characters have been written. */
  private interface Position {
    int now();
  }

  private static void write(
      JsonNode node, JsonGenerator out, Position position, Map<JsonNode, int[]> spans, int depth)
      throws IOException {
    switch (node.getNodeType()) {
      case OBJECT -> {
        out.writeStartObject();
        boolean noted = spans != null && depth <= SPAN_DEPTH;
        int start = noted ? position.now() - 1 : 0; // the brace just written
        for (Map.Entry<String, JsonNode> field : node.properties()) {
          out.writeFieldName(field.getKey());
          write(field.getValue(), out, position, spans, depth + 1);
        }
        out.writeEndObject();
        if (noted) {
          spans.merge(node, new int[] {start, position.now()}, (earlier, later) -> later);
        }
      }
      case ARRAY -> {
        out.writeStartArray();
        for (JsonNode element : node) {
          write(element, out, position, spans, depth + 1);
        }
        out.writeEndArray();
      }
      case STRING -> out.writeString(node.textValue());
      case NUMBER -> {
        if (node.isBigDecimal()) {
          out.writeNumber(node.decimalValue());
        } else if (node.isBigInteger()) {
          out.writeNumber(node.bigIntegerValue());
        } else if (node.isIntegralNumber()) {
          out.writeNumber(node.longValue());
        } else {
          out.writeNumber(node.decimalValue());
        }
      }
      case BOOLEAN -> out.writeBoolean(node.booleanValue());
      case NULL -> out.writeNull();
      default -> throw new IllegalArgumentException("not a JSON value: " + node.getNodeType());
    }
  }
}
