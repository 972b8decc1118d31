package dev.clique.engine.state;

import java.time.Instant;

/**
 * Why a session needs a person, as {@code GET /api/state} shows it beside a {@code waiting} or
 * {@code error} state.
 *
 * @param kind {@code permission}, {@code question}, {@code trust}, {@code first-run}, {@code
 *     usage_limit}, {@code error}, ...
 * @param detail what exactly, at most 200 characters (e.g. {@code Bash: python3 -c ...}, the CLI's
 *     error type such as {@code authentication_failed}, or its words on a usage limit)
 * @param sinceMillis unix milliseconds since when
 * @param resetsAt when a usage limit lifts, only where the CLI says it; otherwise null
 */
public record Attention(String kind, String detail, long sinceMillis, Instant resetsAt) {
  public static final int DETAIL_MAX = 200;

  /** The kind of a session stopped by its vendor's usage or rate limit. */
  public static final String USAGE_LIMIT = "usage_limit";

  public Attention {
    detail = clip(detail == null ? "" : detail.strip());
  }

  public Attention(String kind, String detail, long sinceMillis) {
    this(kind, detail, sinceMillis, null);
  }

  /** At most {@value #DETAIL_MAX} characters on one line, never half a surrogate pair. */
  static String clip(String text) {
    return ScreenReader.clip(text.replaceAll("\\s+", " "), DETAIL_MAX);
  }
}
