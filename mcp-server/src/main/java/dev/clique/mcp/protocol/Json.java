package dev.clique.mcp.protocol;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Content;
import io.modelcontextprotocol.spec.McpSchema.ListToolsResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The server's JSON: Jackson's streaming parser and generator and its tree nodes, without the
 * data-binding {@code ObjectMapper}. The mapper would load about a thousand classes more (its own,
 * the JDK's date and locale machinery, reflection over the SDK's records): a third of what a {@code
 * clique mcp} process maps, and of its start. The JSON written is the same as the mapper writes (a
 * test holds it to that).
 *
 * <p>It reads one JSON text, numbers as Jackson reads them, and writes trees, maps, lists, strings,
 * numbers and booleans, and the SDK's records that clique's server answers with. Anything else is
 * refused with an {@link IllegalArgumentException} naming its type.
 */
public final class Json {
  /** Characters beyond the BMP written as themselves (UTF-8), as the mapper writes text. */
  private static final JsonFactory FACTORY =
      JsonFactory.builder().enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8).build();

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * Strings longer than this are escaped from their UTF-8 bytes, and field names written from their
   * encoded form: quickly compiled code goes through a string's characters one call at a time.
   */
  private static final int BULK_STRING = 16;

  /** Field names written before, encoded once: a list of sessions repeats the same twenty. */
  private static final Map<String, SerializedString> NAMES = new ConcurrentHashMap<>();

  /** Beyond this many names (an engine sending ever new keys), names are written as they come. */
  private static final int MAX_NAMES = 1024;

  private Json() {}

  /**
   * The one JSON value of {@code text}; {@link MissingNode} when it holds none (only white space).
   *
   * @throws JsonProcessingException when it is not JSON, or something follows the value
   */
  public static JsonNode read(String text) throws JsonProcessingException {
    return read(text, false);
  }

  /**
   * The engine's answer, JSON text the client has read already: its tree, with decimals kept
   * exactly as written ({@code 1767171234.80} stays that), so it is written as the client read it.
   *
   * @throws IllegalArgumentException when it is not one JSON value
   */
  public static JsonNode readAnswer(String text) {
    try {
      return read(text, true);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the engine's answer is not JSON", e);
    }
  }

  /**
   * An engine's JSON text, read: its tree, and whether the text is one line. Only such a text can
   * be copied into a message as it came, each message being one line of stdio.
   */
  public record AnswerText(JsonNode tree, boolean oneLine) {}

  /**
   * {@link #readAnswer(String)}, telling whether {@code text} is one line (the parser counts the
   * line breaks it skips; JSON has none anywhere else).
   *
   * @throws IllegalArgumentException when it is not one JSON value
   */
  public static AnswerText readAnswerText(String text) {
    try (JsonParser parser = FACTORY.createParser(text)) {
      JsonNode tree = whole(parser, true);
      return new AnswerText(tree, parser.currentLocation().getLineNr() == 1);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("the engine's answer is not JSON", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a String is not read from anywhere that fails
    }
  }

  private static JsonNode read(String text, boolean exactDecimals) throws JsonProcessingException {
    try (JsonParser parser = FACTORY.createParser(text)) {
      return whole(parser, exactDecimals);
    } catch (JsonProcessingException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a String is not read from anywhere that fails
    }
  }

  private static JsonNode whole(JsonParser parser, boolean exactDecimals) throws IOException {
    if (parser.nextToken() == null) {
      return MissingNode.getInstance();
    }
    JsonNode value = value(parser, exactDecimals);
    if (parser.nextToken() != null) {
      throw new JsonParseException(parser, "more than one JSON value");
    }
    return value;
  }

  private static JsonNode value(JsonParser parser, boolean exactDecimals) throws IOException {
    switch (parser.currentToken()) {
      case START_OBJECT:
        ObjectNode object = NODES.objectNode();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String name = parser.currentName();
          parser.nextToken();
          object.replace(
              name, value(parser, exactDecimals)); // the last of repeated names wins, as in Jackson
        }
        return object;
      case START_ARRAY:
        ArrayNode array = NODES.arrayNode();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          array.add(value(parser, exactDecimals));
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
        return exactDecimals
            ? DecimalNode.valueOf(parser.getDecimalValue())
            : NODES.numberNode(parser.getDoubleValue());
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

  /** {@code value} as JSON text. */
  public static String write(Object value) {
    return new String(writeBytes(value), StandardCharsets.UTF_8);
  }

  /** {@code value} as UTF-8 JSON. */
  public static byte[] writeBytes(Object value) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (JsonGenerator generator = FACTORY.createGenerator(bytes)) {
      new Writer(generator, bytes).value(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // written to memory
    }
    return bytes.toByteArray();
  }

  /**
   * The JSON object {@code value} is, with {@code more} fields after its own: the way a result of
   * the modern era says it is complete.
   */
  public static byte[] writeObjectBytes(Object value, ObjectNode more) {
    byte[] object = writeBytes(value);
    if (more.isEmpty()) {
      return object;
    }
    if (object.length < 2 || object[0] != '{' || object[object.length - 1] != '}') {
      throw new IllegalArgumentException("not a JSON object: " + value.getClass().getName());
    }
    byte[] fields = writeBytes(more);
    // {a} and {b} make {a,b}: the generator writes no white space, so {} is the only empty object.
    boolean empty = object.length == 2;
    ByteArrayOutputStream joined = new ByteArrayOutputStream(object.length + fields.length);
    joined.write(object, 0, object.length - 1);
    if (!empty) {
      joined.write(',');
    }
    joined.write(fields, 1, fields.length - 1);
    return joined.toByteArray();
  }

  /** A plain Java value of {@code node}: maps, lists, strings, numbers, booleans and nulls. */
  public static Object toJava(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return null;
    }
    if (node.isObject()) {
      Map<String, Object> map = new LinkedHashMap<>();
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        map.put(field.getKey(), toJava(field.getValue()));
      }
      return map;
    }
    if (node.isArray()) {
      List<Object> list = new ArrayList<>(node.size());
      node.forEach(element -> list.add(toJava(element)));
      return list;
    }
    if (node.isTextual()) {
      return node.textValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isNumber()) {
      return node.numberValue();
    }
    throw new IllegalArgumentException("no plain Java value for a " + node.getNodeType() + " node");
  }

  /** {@code value} as a tree: itself when it is one. */
  public static JsonNode toTree(Object value) {
    if (value instanceof JsonNode node) {
      return node;
    }
    if (value instanceof Rendered rendered) {
      return rendered.tree();
    }
    try {
      return read(write(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the server wrote JSON it cannot read", e);
    }
  }

  /**
   * A JSON value written once: a tool's structured content, whose text is also its text block. It
   * is copied into an answer as it is, and the text block is escaped from the same bytes.
   */
  public static final class Rendered {
    private final JsonNode tree;
    private final byte[] utf8;
    private final Rendered shown;
    private String text;

    private Rendered(JsonNode tree, byte[] utf8, Rendered shown) {
      this.tree = tree;
      this.utf8 = utf8;
      this.shown = shown == null ? this : shown;
    }

    /** {@code tree}, written. */
    public static Rendered of(JsonNode tree) {
      return new Rendered(tree, writeBytes(tree), null);
    }

    /**
     * The array {@code tree} whose elements' JSON texts are {@code texts} already: joined rather
     * than written again. Rows passed through as the engine wrote them cost a copy, not a walk of
     * each tree (the most of what {@code list_sessions} did per call).
     *
     * @param texts each element's JSON text, one value on one line (a message is one line of
     *     stdio), which the caller read into the element of {@code tree} at its place
     */
    public static Rendered joining(ArrayNode tree, List<String> texts) {
      if (tree.size() != texts.size()) {
        throw new IllegalArgumentException(
            texts.size() + " texts for an array of " + tree.size() + " elements");
      }
      int length = 2 + Math.max(0, texts.size() - 1);
      for (String element : texts) {
        length += element.length();
      }
      StringBuilder joined = new StringBuilder(length).append('[');
      for (int i = 0; i < texts.size(); i++) {
        joined.append(i == 0 ? "" : ",").append(texts.get(i));
      }
      String text = joined.append(']').toString();
      Rendered rendered = new Rendered(tree, text.getBytes(StandardCharsets.UTF_8), null);
      rendered.text = text;
      return rendered;
    }

    /**
     * The object {@code {name: value}} ({@code tree}), written around {@code value}'s bytes rather
     * than again; its text block is {@code value}'s text ({@code list_sessions} shows the bare
     * array its structure wraps).
     */
    public static Rendered around(ObjectNode tree, String name, Rendered value) {
      if (tree.size() != 1 || tree.get(name) != value.tree) {
        throw new IllegalArgumentException("not the object {" + name + ": value}");
      }
      return new Rendered(tree, writeBytes(Map.of(name, value)), value);
    }

    public JsonNode tree() {
      return tree;
    }

    /**
     * The JSON text, made once when first asked (a wrapping one's own text is seldom needed): the
     * same instance each time, by which the writer knows its text block.
     */
    public synchronized String text() {
      if (text == null) {
        text = new String(utf8, StandardCharsets.UTF_8);
      }
      return text;
    }

    /** What its text block shows: itself, or the value it was written around. */
    public Rendered shown() {
      return shown;
    }
  }

  /** Writes values to a generator, and as they are to the bytes under it. */
  private static final class Writer {
    private final JsonGenerator out;
    private final ByteArrayOutputStream bytes;

    Writer(JsonGenerator out, ByteArrayOutputStream bytes) {
      this.out = out;
      this.bytes = bytes;
    }

    void value(Object value) throws IOException {
      if (value == null) {
        out.writeNull();
      } else if (value instanceof JsonNode node) {
        node(node);
      } else if (value instanceof String text) {
        string(text);
      } else if (value instanceof Boolean bool) {
        out.writeBoolean(bool);
      } else if (value instanceof Number number) {
        number(number);
      } else if (value instanceof Map<?, ?> map) {
        out.writeStartObject();
        for (Map.Entry<?, ?> entry : map.entrySet()) {
          fieldName(String.valueOf(entry.getKey()));
          value(entry.getValue());
        }
        out.writeEndObject();
      } else if (value instanceof Iterable<?> iterable) {
        out.writeStartArray();
        for (Object element : iterable) {
          value(element);
        }
        out.writeEndArray();
      } else if (value instanceof Rendered rendered) {
        // Written as it is: the generator writes the separator before it, then steps aside.
        out.writeRawValue("");
        out.flush();
        bytes.write(rendered.utf8);
      } else {
        sdkRecord(value);
      }
    }

    private void fieldName(String name) throws IOException {
      SerializedString encoded = NAMES.get(name);
      if (encoded == null) {
        if (NAMES.size() >= MAX_NAMES) {
          out.writeFieldName(name);
          return;
        }
        encoded = NAMES.computeIfAbsent(name, SerializedString::new);
      }
      out.writeFieldName(encoded);
    }

    private void string(String text) throws IOException {
      if (text.length() > BULK_STRING && out instanceof UTF8JsonGenerator) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        out.writeUTF8String(utf8, 0, utf8.length);
      } else {
        out.writeString(text);
      }
    }

    private void number(Number number) throws IOException {
      if (number instanceof Integer || number instanceof Short || number instanceof Byte) {
        out.writeNumber(number.intValue());
      } else if (number instanceof Long value) {
        out.writeNumber(value);
      } else if (number instanceof Double value) {
        out.writeNumber(value);
      } else if (number instanceof Float value) {
        out.writeNumber(value);
      } else if (number instanceof BigDecimal value) {
        out.writeNumber(value);
      } else if (number instanceof BigInteger value) {
        out.writeNumber(value);
      } else {
        throw new IllegalArgumentException("cannot write a " + number.getClass().getName());
      }
    }

    private void node(JsonNode node) throws IOException {
      switch (node.getNodeType()) {
        case OBJECT -> {
          out.writeStartObject();
          for (Map.Entry<String, JsonNode> field : node.properties()) {
            fieldName(field.getKey());
            node(field.getValue());
          }
          out.writeEndObject();
        }
        case ARRAY -> {
          out.writeStartArray();
          for (JsonNode element : node) {
            node(element);
          }
          out.writeEndArray();
        }
        case STRING -> string(node.textValue());
        case NUMBER -> number(node.numberValue());
        case BOOLEAN -> out.writeBoolean(node.booleanValue());
        case NULL, MISSING -> out.writeNull();
        default ->
            throw new IllegalArgumentException("cannot write a " + node.getNodeType() + " node");
      }
    }

    /**
     * The SDK's records that clique's server answers with, as the SDK's own Jackson annotations
     * have them: fields in declaration order, absent ones left out.
     */
    private void sdkRecord(Object value) throws IOException {
      out.writeStartObject();
      if (value instanceof CallToolResult result) {
        if (result.structuredContent() instanceof Rendered rendered
            && result.content() != null
            && result.content().size() == 1
            && result.content().get(0) instanceof TextContent block
            && block.text() == rendered.shown().text()
            && block.annotations() == null
            && block.meta() == null) {
          // The usual result: its text block is its structured content's JSON (or the part of it
          // shown), escaped from the bytes written already.
          byte[] shown = rendered.shown().utf8;
          out.writeFieldName("content");
          out.writeStartArray();
          out.writeStartObject();
          out.writeStringField("type", "text");
          out.writeFieldName("text");
          jsonTextAsString(shown);
          out.writeEndObject();
          out.writeEndArray();
        } else {
          field("content", result.content());
        }
        field("isError", result.isError());
        field("structuredContent", result.structuredContent());
        field("_meta", result.meta());
      } else if (value instanceof TextContent text) {
        out.writeStringField("type", "text");
        field("annotations", nothing(text.annotations(), "text annotations"));
        field("text", text.text());
        field("_meta", text.meta());
      } else if (value instanceof ListToolsResult list) {
        field("tools", list.tools());
        field("nextCursor", list.nextCursor());
        field("_meta", list.meta());
      } else if (value instanceof Tool tool) {
        field("name", tool.name());
        field("title", tool.title());
        field("description", tool.description());
        field("inputSchema", tool.inputSchema());
        field("outputSchema", tool.outputSchema());
        field("annotations", tool.annotations());
        field("_meta", tool.meta());
        field("icons", nothing(tool.icons(), "tool icons"));
      } else if (value instanceof ToolAnnotations hints) {
        field("title", hints.title());
        field("readOnlyHint", hints.readOnlyHint());
        field("destructiveHint", hints.destructiveHint());
        field("idempotentHint", hints.idempotentHint());
        field("openWorldHint", hints.openWorldHint());
        field("returnDirect", hints.returnDirect());
      } else {
        String what = value instanceof Content ? "content block" : "value";
        throw new IllegalArgumentException(
            "clique's server writes no " + what + " of type " + value.getClass().getName());
      }
      out.writeEndObject();
    }

    /**
     * {@code json}, JSON text on one line, written as a string, as the generator writes it: a
     * compact JSON text holds no control character, so only its quotes and backslashes need
     * escaping, done here in one pass over the bytes rather than the generator's general one (the
     * most of what a list of many sessions cost to write).
     */
    private void jsonTextAsString(byte[] json) throws IOException {
      int escapes = 0;
      for (byte b : json) {
        if (b >= 0 && b < 0x20) {
          out.writeUTF8String(json, 0, json.length); // not compact JSON: the general way
          return;
        }
        if (b == '"' || b == '\\') {
          escapes++;
        }
      }
      out.writeRawValue(""); // the separator before the value, then the generator steps aside
      out.flush();
      byte[] escaped = new byte[json.length + escapes + 2];
      int at = 0;
      escaped[at++] = '"';
      for (byte b : json) {
        if (b == '"' || b == '\\') {
          escaped[at++] = '\\';
        }
        escaped[at++] = b;
      }
      escaped[at] = '"';
      bytes.write(escaped, 0, escaped.length);
    }

    private void field(String name, Object value) throws IOException {
      if (value != null) {
        fieldName(name);
        value(value);
      }
    }
  }

  /** What clique's tools never set: refused rather than dropped, should that ever change. */
  private static Object nothing(Object value, String what) {
    if (value != null && !(value instanceof List<?> list && list.isEmpty())) {
      throw new IllegalArgumentException("clique's server does not write " + what);
    }
    return value;
  }
}
