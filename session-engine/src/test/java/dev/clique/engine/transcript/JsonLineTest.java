package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JsonLineTest {

  private static ObjectNode parse(String line) {
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    return JsonLine.parse(bytes, 0, bytes.length);
  }

  @Test
  void onlyACompleteObjectIsALine() {
    assertThat(parse("{\"a\":[1,2.5,true,null,{\"b\":\"c\"}]}").toString())
        .isEqualTo("{\"a\":[1,2.5,true,null,{\"b\":\"c\"}]}");
    assertThat(parse("  {\"a\":1}\r")).isNotNull();
    assertThat(parse("[1,2]")).isNull();
    assertThat(parse("\"text\"")).isNull();
    assertThat(parse("{\"a\":1} trailing")).isNull();
    assertThat(parse("{\"a\":1}{\"b\":2}")).isNull();
    assertThat(parse("{\"a\":\"cut")).isNull();
    assertThat(parse("")).isNull();
    assertThat(parse("{" + "[".repeat(5000))).isNull();
  }

  @Test
  void badBytesBecomeReplacementCharacters() {
    byte[] bytes = {
      '{',
      '"',
      't',
      '"',
      ':',
      '"',
      'a',
      (byte) 0xC3,
      ' ',
      (byte) 0xED,
      (byte) 0xA0,
      (byte) 0x80,
      'b',
      '"',
      '}'
    };

    String text = JsonLine.parse(bytes, 0, bytes.length).get("t").textValue();

    assertThat(text)
        .startsWith("a\uFFFD ")
        .endsWith("\uFFFDb")
        .isEqualTo(new String(Arrays.copyOfRange(bytes, 6, 13), StandardCharsets.UTF_8));
  }

  @Test
  void theUtf8CheckAgreesWithTheJdkDecoder() {
    Random random = new Random(1);
    byte[] alphabet = {
      'a',
      '"',
      (byte) 0x80,
      (byte) 0xBF,
      (byte) 0xC0,
      (byte) 0xC2,
      (byte) 0xDF,
      (byte) 0xE0,
      (byte) 0xED,
      (byte) 0xA0,
      (byte) 0xEF,
      (byte) 0xF0,
      (byte) 0x90,
      (byte) 0xF4,
      (byte) 0x8F,
      (byte) 0xF5,
      (byte) 0xFF
    };
    for (int round = 0; round < 200_000; round++) {
      byte[] bytes = new byte[1 + random.nextInt(6)];
      for (int i = 0; i < bytes.length; i++) {
        bytes[i] = alphabet[random.nextInt(alphabet.length)];
      }
      boolean roundTrips =
          Arrays.equals(
              new String(bytes, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8), bytes);
      assertThat(JsonLine.isUtf8(bytes, 0, bytes.length))
          .as("%s", Arrays.toString(bytes))
          .isEqualTo(roundTrips);
    }
  }
}
