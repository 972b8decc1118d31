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

  /** At most {@value #DETAIL_MAX} characters on one line, never half a surrogate pair. */
  static String clip(String text) {
    return ScreenReader.clip(text.replaceAll("\\s+", " "), DETAIL_MAX);
  }
}
