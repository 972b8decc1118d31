package dev.clique.engine.state;

/**
 * Why a session needs a person, as {@code GET /api/state} shows it beside a {@code waiting} or
 * {@code error} state.
 *
 * @param kind {@code permission}, {@code question}, {@code trust}, {@code first-run}, {@code
 *     error}, ...
 * @param detail what exactly, at most 200 characters (e.g. {@code Bash: python3 -c ...}, or the
 *     CLI's error type such as {@code rate_limit})
 * @param sinceMillis unix milliseconds since when
 */
public record Attention(String kind, String detail, long sinceMillis) {
  public static final int DETAIL_MAX = 200;

  public Attention {
    detail = clip(detail == null ? "" : detail.strip());
  }

  /** At most {@value #DETAIL_MAX} characters, never half a surrogate pair, on one line. */
  static String clip(String text) {
    String line = text.replaceAll("\\s+", " ");
    if (line.length() <= DETAIL_MAX) {
      return line;
    }
    int end = DETAIL_MAX;
    if (Character.isHighSurrogate(line.charAt(end - 1))) {
      end--;
    }
    return line.substring(0, end);
  }
}
