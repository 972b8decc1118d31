package dev.clique.mcp.resources;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * One of clique's resource URIs: {@code clique://sessions}, or {@code clique://sessions/{id}} with
 * nothing, {@code /pane} or {@code /conversation} after it. The id is percent-encoded in the URI.
 *
 * @param kind which of the four
 * @param sessionId the session's id, decoded; {@code null} for the list
 */
record ResourceUri(Kind kind, String sessionId) {
  static final String SESSIONS = "clique://sessions";

  enum Kind {
    SESSIONS(""),
    SESSION(""),
    PANE("/pane"),
    CONVERSATION("/conversation");

    private final String suffix;

    Kind(String suffix) {
      this.suffix = suffix;
    }
  }

  static ResourceUri sessions() {
    return new ResourceUri(Kind.SESSIONS, null);
  }

  static ResourceUri of(Kind kind, String sessionId) {
    return new ResourceUri(kind, sessionId);
  }

  /** The resource {@code uri} names, or empty when it names none of clique's. */
  static Optional<ResourceUri> parse(String uri) {
    if (uri.equals(SESSIONS)) {
      return Optional.of(sessions());
    }
    if (!uri.startsWith(SESSIONS + "/")) {
      return Optional.empty();
    }
    String rest = uri.substring(SESSIONS.length() + 1);
    for (Kind kind : new Kind[] {Kind.PANE, Kind.CONVERSATION}) {
      if (rest.endsWith(kind.suffix)) {
        return decode(rest.substring(0, rest.length() - kind.suffix.length()))
            .map(id -> of(kind, id));
      }
    }
    return decode(rest).map(id -> of(Kind.SESSION, id));
  }

  /** The URI, with the id percent-encoded. */
  String text() {
    return kind == Kind.SESSIONS ? SESSIONS : SESSIONS + "/" + encode(sessionId) + kind.suffix;
  }

  /** The URI of the session this one is about, or of the list. */
  ResourceUri session() {
    return kind == Kind.SESSIONS ? this : of(Kind.SESSION, sessionId);
  }

  /**
   * One path segment, percent-decoded as UTF-8; empty when it is not one (empty, a slash, a query,
   * a fragment, a malformed escape or invalid UTF-8).
   */
  private static Optional<String> decode(String segment) {
    if (segment.isEmpty()) {
      return Optional.empty();
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(segment.length());
    int i = 0;
    while (i < segment.length()) {
      int c = segment.codePointAt(i);
      if (c == '/' || c == '?' || c == '#' || c <= ' ' || c == 0x7f) {
        return Optional.empty();
      }
      if (c == '%') {
        if (i + 2 >= segment.length()) {
          return Optional.empty();
        }
        int high = Character.digit(segment.charAt(i + 1), 16);
        int low = Character.digit(segment.charAt(i + 2), 16);
        if (high < 0 || low < 0) {
          return Optional.empty();
        }
        bytes.write(high << 4 | low);
        i += 3;
      } else {
        byte[] utf8 = new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8);
        bytes.write(utf8, 0, utf8.length);
        i += Character.charCount(c);
      }
    }
    try {
      String id =
          StandardCharsets.UTF_8
              .newDecoder()
              .decode(java.nio.ByteBuffer.wrap(bytes.toByteArray()))
              .toString();
      return id.isBlank() || id.equals(".") || id.equals("..") ? Optional.empty() : Optional.of(id);
    } catch (java.nio.charset.CharacterCodingException e) {
      return Optional.empty();
    }
  }

  /** Letters, digits and {@code -._~} as they are; every other byte of UTF-8 as {@code %XX}. */
  private static String encode(String id) {
    StringBuilder out = new StringBuilder(id.length());
    for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if ((c >= 'a' && c <= 'z')
          || (c >= 'A' && c <= 'Z')
          || (c >= '0' && c <= '9')
          || c == '-'
          || c == '.'
          || c == '_'
          || c == '~') {
        out.append((char) c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
        out.append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return out.toString();
  }
}
