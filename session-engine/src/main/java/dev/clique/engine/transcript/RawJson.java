package dev.clique.engine.transcript;

import java.nio.charset.StandardCharsets;

/** Looks at a line's bytes without parsing it: enough to pass over records that hold no turn. */
final class RawJson {

  private RawJson() {}

  /**
   * {@code "name" : "value"}, whitespace allowed around the colon, looked for in a line's bytes.
   * Inside a JSON string a quote is escaped, so an occurrence is always structure (of the line
   * itself or of some nested object): a match may be a false alarm, never a miss.
   */
  static final class StringField {
    private final byte[] key;
    private final byte[] quoted;

    StringField(String name, String value) {
      key = ('"' + name + '"').getBytes(StandardCharsets.UTF_8);
      quoted = ('"' + value + '"').getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Whether it occurs in {@code bytes[start, end)}. The value is looked for first, as it is rarer
     * than the name, then the colon and the name before it.
     */
    boolean in(byte[] bytes, int start, int end) {
      for (int at = ByteSearch.indexOf(bytes, start, end, quoted);
          at >= 0;
          at = ByteSearch.indexOf(bytes, at + 1, end, quoted)) {
        int colon = skipBlanksBack(bytes, start, at) - 1;
        if (colon >= start && bytes[colon] == ':') {
          int keyAt = skipBlanksBack(bytes, start, colon) - key.length;
          if (keyAt >= start && ByteSearch.matches(bytes, keyAt, key)) {
            return true;
          }
        }
      }
      return false;
    }
  }

  /** Where the blanks that end {@code bytes[start, end)} start. */
  private static int skipBlanksBack(byte[] bytes, int start, int end) {
    int i = end;
    while (i > start && (bytes[i - 1] == ' ' || bytes[i - 1] == '\t' || bytes[i - 1] == '\r')) {
      i--;
    }
    return i;
  }
}
