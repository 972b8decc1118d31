package dev.clique.engine.transcript;

import java.nio.charset.StandardCharsets;

/** Looks at a line's bytes without parsing it: enough to pass over records that hold no turn. */
final class RawJson {

  private RawJson() {}

  /**
   * Whether {@code "name" : "value"} occurs in {@code bytes[start, end)}, whitespace allowed around
   * the colon. Inside a JSON string a quote is escaped, so an occurrence is always structure (of
   * the line itself or of some nested object): a match may be a false alarm, never a miss.
   */
  static boolean hasStringField(byte[] bytes, int start, int end, String name, String value) {
    byte[] key = ('"' + name + '"').getBytes(StandardCharsets.UTF_8);
    byte[] quoted = ('"' + value + '"').getBytes(StandardCharsets.UTF_8);
    for (int at = indexOf(bytes, start, end, key); at >= 0; at = indexOf(bytes, at + 1, end, key)) {
      int i = skipBlanks(bytes, at + key.length, end);
      if (i < end && bytes[i] == ':') {
        i = skipBlanks(bytes, i + 1, end);
        if (startsWith(bytes, i, end, quoted)) {
          return true;
        }
      }
    }
    return false;
  }

  private static int skipBlanks(byte[] bytes, int from, int end) {
    int i = from;
    while (i < end && (bytes[i] == ' ' || bytes[i] == '\t' || bytes[i] == '\r')) {
      i++;
    }
    return i;
  }

  private static boolean startsWith(byte[] bytes, int at, int end, byte[] prefix) {
    if (end - at < prefix.length) {
      return false;
    }
    for (int k = 0; k < prefix.length; k++) {
      if (bytes[at + k] != prefix[k]) {
        return false;
      }
    }
    return true;
  }

  private static int indexOf(byte[] bytes, int from, int end, byte[] pattern) {
    byte first = pattern[0];
    for (int i = from; i <= end - pattern.length; i++) {
      if (bytes[i] == first && startsWith(bytes, i, end, pattern)) {
        return i;
      }
    }
    return -1;
  }
}
