package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.mcp.protocol.Json;
import dev.clique.mcp.tools.CliqueTool;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Icon;
import io.modelcontextprotocol.spec.McpSchema.ListToolsResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server's own JSON reads and writes what Jackson's data-binding mapper (which it no longer
 * loads) reads and writes.
 */
class JsonTest {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final String TRICKY =
      "\"quotes\" \\ back\\slash \u0000 \u0001 \n\t \u2028 \u007f é ❯ \ud83d\ude00 </script>";

  private static void writesAsTheMapper(Object value) throws Exception {
    String ours = Json.write(value);
    assertThat(MAPPER.readTree(ours))
        .as(ours)
        .isEqualTo(MAPPER.readTree(MAPPER.writeValueAsString(value)));
    assertThat(Json.writeBytes(value)).isEqualTo(ours.getBytes(StandardCharsets.UTF_8));
  }

  private static List<Tool> tools() {
    List<Tool> tools = new ArrayList<>();
    for (CliqueTool tool : new CliqueMcpServer(new FakeClient(), Fixtures.VERSION).tools()) {
      tools.add(tool.definition());
    }
    return tools;
  }

  @Test
  void theToolListIsWrittenByteForByteAsTheMapperWritesIt() throws Exception {
    ListToolsResult list = new ListToolsResult(tools(), null, null);
    assertThat(Json.write(list)).isEqualTo(MAPPER.writeValueAsString(list));
    ListToolsResult paged = new ListToolsResult(tools(), "next", Map.of("k", List.of(1, "two")));
    assertThat(Json.write(paged)).isEqualTo(MAPPER.writeValueAsString(paged));
    ToolAnnotations all = new ToolAnnotations("t", true, false, true, false, true);
    assertThat(Json.write(all)).isEqualTo(MAPPER.writeValueAsString(all));
  }

  @Test
  void anAnswersTextIsKnownToBeOneLineOrNot() {
    Json.AnswerText compact = Json.readAnswerText("{\"a\": [1, \"x\\ny\"], \"t\": 1.50}");
    assertThat(compact.oneLine()).isTrue();
    assertThat(compact.tree().get("t").decimalValue()).isEqualTo(new BigDecimal("1.50"));
    assertThat(Json.readAnswerText("{\"a\":\n1}").oneLine()).isFalse();
    assertThat(Json.readAnswerText("{\"a\":1}\r").oneLine()).isFalse();
    assertThat(Json.readAnswerText("{\"a\":1}\r\n").oneLine()).isFalse();
    assertThatThrownBy(() -> Json.readAnswerText("{\"a\":1} {}"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void anArrayJoinedFromItsElementsTextsIsWhatWritingItGives() throws Exception {
    List<String> texts =
        List.of("{\"id\":\"a\",\"say\":" + Json.write(TRICKY) + "}", "[1,2.50]", "null");
    var tree = JsonNodeFactory.instance.arrayNode();
    for (String text : texts) {
      tree.add(Json.readAnswer(text));
    }
    Json.Rendered joined = Json.Rendered.joining(tree, texts);
    assertThat(joined.tree()).isSameAs(tree);
    assertThat(joined.text()).isEqualTo(Json.write(tree));
    assertThat(Json.write(Map.of("rows", joined))).isEqualTo("{\"rows\":" + Json.write(tree) + "}");
    assertThat(Json.Rendered.joining(JsonNodeFactory.instance.arrayNode(), List.of()).text())
        .isEqualTo("[]");
    assertThatThrownBy(() -> Json.Rendered.joining(tree, texts.subList(0, 2)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void toolResultsAreWrittenAsTheMapperWritesThem() throws Exception {
    for (String file : List.of("state.json", "peek.json", "transcript.json", "wait-gone.json")) {
      ObjectNode object = (ObjectNode) Fixtures.contractJson(file);
      object.put("tricky", TRICKY);
      Json.Rendered rendered = Json.Rendered.of(object);
      CallToolResult ours =
          CallToolResult.builder()
              .content(List.of(TextContent.builder(rendered.text()).build()))
              .structuredContent(rendered)
              .isError(false)
              .build();
      CallToolResult theirs =
          CallToolResult.builder()
              .content(List.of(TextContent.builder(object.toString()).build()))
              .structuredContent(object)
              .isError(false)
              .build();
      JsonNode written = MAPPER.readTree(Json.write(ours));
      assertThat(written).isEqualTo(MAPPER.readTree(MAPPER.writeValueAsString(theirs)));
      assertThat(MAPPER.readTree(written.at("/content/0/text").textValue())).isEqualTo(object);
      assertThat(rendered.tree()).isSameAs(object);
    }
    CallToolResult error =
        CallToolResult.builder()
            .content(List.of(TextContent.builder("no session with id " + TRICKY).build()))
            .isError(true)
            .build();
    writesAsTheMapper(error);
    assertThat(Json.write(error)).isEqualTo(MAPPER.writeValueAsString(error));
    writesAsTheMapper(
        CallToolResult.builder()
            .content(List.of(TextContent.builder("x").build(), TextContent.builder("y").build()))
            .structuredContent(Map.of("a", 1))
            .meta(Map.of("m", true))
            .isError(false)
            .build());
  }

  @Test
  void aResultsTextBlockIsEscapedByteForByteAsTheMapperEscapesIt() throws Exception {
    ObjectNode object = (ObjectNode) Fixtures.contractJson("state.json");
    object.put("tricky", TRICKY);
    List<String> texts =
        List.of(
            Json.write(object),
            "{\"a\":\"\\\\\\\"\"}",
            // One line, yet not compact: white space the engine might send between values.
            "{\"b\":\t1, \"c\" : [\"\\u0007\"]}");
    for (String text : texts) {
      var tree = JsonNodeFactory.instance.arrayNode().add(Json.readAnswer(text));
      Json.Rendered shown = Json.Rendered.joining(tree, List.of(text));
      CallToolResult ours =
          CallToolResult.builder()
              .content(List.of(TextContent.builder(shown.text()).build()))
              .structuredContent(shown)
              .isError(false)
              .build();
      CallToolResult theirs =
          CallToolResult.builder()
              .content(List.of(TextContent.builder(shown.text()).build()))
              .structuredContent(Map.of())
              .isError(false)
              .build();
      String expected = MAPPER.writeValueAsString(theirs);
      String written = Json.write(ours);
      // The text block byte for byte; the structured content, the engine's text, as it came.
      assertThat(written.substring(0, written.indexOf(",\"isError\"")))
          .as(text)
          .isEqualTo(expected.substring(0, expected.indexOf(",\"isError\"")));
      assertThat(written).endsWith("\"structuredContent\":[" + text + "]}");
    }
  }

  @Test
  void everyKindOfValueAndNodeIsWrittenAsTheMapperWritesIt() throws Exception {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("int", 7);
    values.put("long", 1L << 40);
    values.put("short", (short) 3);
    values.put("byte", (byte) -1);
    values.put("double", 1767171234.87);
    values.put("float", 1.5f);
    values.put("decimal", new BigDecimal("1767171234.80"));
    values.put("big", new BigInteger("123456789012345678901234567890"));
    values.put("true", true);
    values.put("null", null);
    values.put("short text", "é ❯ \"q\"");
    values.put("long text", TRICKY.repeat(20));
    values.put("list", List.of(1, "a", List.of(), Map.of()));
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    ObjectNode tree = nodes.objectNode();
    tree.put("int", 1).put("long", 1L << 40).put("double", 0.5).put("float", 2.5f);
    tree.put("decimal", new BigDecimal("1.50")).put("big", new BigInteger("9".repeat(30)));
    tree.put("text", TRICKY).put("long text", TRICKY.repeat(9)).put("false", false).putNull("n");
    tree.putArray("array").add(1).add("x").addNull().addObject().put("k", "v");
    values.put("tree", tree);
    values.put("contract", Fixtures.contractJson("state.json"));
    writesAsTheMapper(values);
    assertThat(Json.write(values)).isEqualTo(MAPPER.writeValueAsString(values));
    assertThat(Json.write(nodes.missingNode())).isEqualTo("null");
  }

  @Test
  void itReadsWhatTheMapperReads() throws Exception {
    List<String> texts =
        new ArrayList<>(
            List.of(
                "{}",
                "[]",
                "1",
                "-0",
                "1.5",
                "1e400",
                "-1.25e-7",
                "12345678901234567890",
                "2147483648",
                "\"\\u00e9\\ud83d\\ude00 \\\" \\\\ \\n\"",
                "{\"a\":1,\"a\":2}",
                "{\"a\":[1,{\"b\":null,\"c\":true,\"d\":false}],\"e\":\"f\"}",
                " \n {\"padded\": 1} \n"));
    for (String file : List.of("state.json", "peek.json", "transcript.json", "created.json")) {
      texts.add(Fixtures.contract(file));
    }
    for (String text : texts) {
      assertThat(Json.read(text)).as(text).isEqualTo(MAPPER.readTree(text));
    }
  }

  @Test
  void whatIsNotOneJsonValueIsRefused() throws Exception {
    for (String bad : List.of("{", "[1,]", "nope", "1 2", "{} x", "{\"a\" 1}", "'a'", "[1]]")) {
      assertThatThrownBy(() -> Json.read(bad)).as(bad).isInstanceOf(JsonProcessingException.class);
      assertThatThrownBy(() -> MAPPER.readTree(bad))
          .as(bad)
          .isInstanceOf(JsonProcessingException.class);
    }
    assertThat(Json.read(" \t\n").isMissingNode()).isTrue();
    // Nesting is bounded by the parser, not by the stack of the thread reading it.
    String deep = "[".repeat(100_000) + "]".repeat(100_000);
    assertThatThrownBy(() -> Json.read(deep)).isInstanceOf(JsonProcessingException.class);
  }

  @Test
  void aModernResultGetsItsFieldsAfterItsOwn() {
    ObjectNode complete = JsonNodeFactory.instance.objectNode().put("resultType", "complete");
    assertThat(new String(Json.writeObjectBytes(Map.of(), complete), StandardCharsets.UTF_8))
        .isEqualTo("{\"resultType\":\"complete\"}");
    assertThat(new String(Json.writeObjectBytes(Map.of("a", 1), complete), StandardCharsets.UTF_8))
        .isEqualTo("{\"a\":1,\"resultType\":\"complete\"}");
    ListToolsResult list = new ListToolsResult(tools(), null, null);
    JsonNode written =
        Fixtures.json(new String(Json.writeObjectBytes(list, complete), StandardCharsets.UTF_8));
    assertThat(written.get("tools").size()).isEqualTo(5);
    assertThat(written.get("resultType").asText()).isEqualTo("complete");
    assertThatThrownBy(() -> Json.writeObjectBytes(List.of(1), complete))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a JSON object");
  }

  @Test
  void whatTheServerNeverWritesIsRefusedByName() {
    assertThatThrownBy(() -> Json.write(new StringBuilder("x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("java.lang.StringBuilder");
    Tool withIcons =
        Tool.builder("t", Map.of("type", "object"))
            .icons(List.of(new Icon("https://example.org/i.png", "image/png", null, null)))
            .build();
    assertThatThrownBy(() -> Json.write(withIcons)).hasMessageContaining("icons");
  }
}
