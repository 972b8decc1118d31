package dev.clique.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The client's reader gives the trees Jackson's data-binding mapper gives, decimals kept exact. */
class JsonTreeTest {
  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);

  @Test
  void everyContractAnswerReadsAsTheMapperReadsIt() throws IOException {
    List<String> texts = new ArrayList<>();
    try (Stream<Path> files = Files.list(Path.of("..", "contract"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        texts.add(Files.readString(file, StandardCharsets.UTF_8));
      }
    }
    assertThat(texts).hasSizeGreaterThan(10);
    texts.addAll(
        List.of(
            "{\"a\":1,\"a\":2}",
            "[1,2147483648,12345678901234567890,-0,true,false,null,\"\\u00e9\\ud83d\\ude00\"]",
            " {\"padded\": {}} "));
    for (String text : texts) {
      JsonNode ours = JsonTree.read(text.getBytes(StandardCharsets.UTF_8));
      assertThat(ours).as(text).isEqualTo(MAPPER.readTree(text));
      assertThat(JsonTree.read(text)).isEqualTo(ours);
    }
  }

  @Test
  void decimalsKeepTheirDigits() throws IOException {
    JsonNode node = JsonTree.read("{\"t\":1767171234.80,\"u\":100.0,\"v\":1.5e3}");
    assertThat(node.get("t").decimalValue()).isEqualTo(new BigDecimal("1767171234.80"));
    assertThat(node.get("t").toString()).isEqualTo("1767171234.80");
    assertThat(node.get("u").toString()).isEqualTo("100.0");
    assertThat(node.get("v").doubleValue()).isEqualTo(1500.0);
  }

  @Test
  void whatIsNotOneJsonValueIsRefused() throws IOException {
    for (String bad : List.of("{", "[1,]", "<html>", "{} x", "1 2", "{\"a\" 1}")) {
      assertThatThrownBy(() -> JsonTree.read(bad.getBytes(StandardCharsets.UTF_8)))
          .as(bad)
          .isInstanceOf(JsonProcessingException.class);
    }
    assertThat(JsonTree.read(new byte[0]).isMissingNode()).isTrue();
    assertThat(JsonTree.read(" \n").isMissingNode()).isTrue();
    // Nesting is bounded by the parser, not by the stack of the thread reading it.
    byte[] deep = ("[".repeat(100_000) + "]".repeat(100_000)).getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> JsonTree.read(deep)).isInstanceOf(JsonProcessingException.class);
  }
}
