package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ByteSearchTest {

  /** Few distinct bytes, so that matches, near misses and borrows between lanes are common. */
  private static byte[] noise(Random random, int length) {
    byte[] alphabet = {'"', 'a', 't', '\n', 0, 1, (byte) 0x80, (byte) 0xFF};
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = alphabet[random.nextInt(alphabet.length)];
    }
    return bytes;
  }

  private static int naive(byte[] bytes, int from, int to, byte[] pattern) {
    for (int at = from; at + pattern.length <= to; at++) {
      if (ByteSearch.matches(bytes, at, pattern)) {
        return at;
      }
    }
    return -1;
  }

  @Test
  void findsWhatALookAtEveryByteFinds() {
    Random random = new Random(7);
    for (int round = 0; round < 20_000; round++) {
      byte[] bytes = noise(random, random.nextInt(40));
      int from = random.nextInt(bytes.length + 1);
      int to = from + random.nextInt(bytes.length - from + 1);
      byte[] pattern = noise(random, 1 + random.nextInt(4));
      assertThat(ByteSearch.indexOf(bytes, from, to, pattern[0]))
          .isEqualTo(naive(bytes, from, to, new byte[] {pattern[0]}));
      assertThat(ByteSearch.indexOf(bytes, from, to, pattern))
          .isEqualTo(naive(bytes, from, to, pattern));
    }
  }

  @Test
  void findsAPatternAtEitherEndOfALongRange() {
    byte[] pattern = "\"assistant\"".getBytes(StandardCharsets.UTF_8);
    for (int length = pattern.length; length < 40; length++) {
      for (int at : new int[] {0, length - pattern.length}) {
        byte[] bytes = new byte[length];
        System.arraycopy(pattern, 0, bytes, at, pattern.length);
        assertThat(ByteSearch.indexOf(bytes, 0, length, pattern)).isEqualTo(at);
        assertThat(ByteSearch.indexOf(bytes, 0, length - 1, pattern))
            .isEqualTo(at == 0 && length > pattern.length ? 0 : -1);
        assertThat(ByteSearch.indexOf(bytes, 0, length, (byte) '"')).isEqualTo(at);
      }
    }
  }
}
