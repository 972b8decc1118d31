package dev.clique.client;

import java.util.regex.Pattern;

/**
 * Takes anything shaped like a clique token out of text meant for people or logs: every message
 * this library makes has been through it, and a tool that words its own messages (or passes an
 * engine's on) can pass them through it too.
 *
 * <pre>{@code
 * log.warn("the engine said: {}", Tokens.scrub(answer));
 * }</pre>
 */
public final class Tokens {
  /** What a token is replaced with. */
  public static final String MASK = "mxp_…";

  private static final Pattern TOKEN_SHAPED = Pattern.compile("mxp_[A-Za-z0-9_-]{8,}");
  // A value masked already is left as it is, with what follows it.
  private static final Pattern BEARER = Pattern.compile("(?i)(bearer\\s+)(?!mxp_…)[^\\s\"']+");

  private Tokens() {}

  /**
   * Masks every token-shaped word, and whatever follows "Bearer ".
   *
   * @param text what is about to be shown or logged, or {@code null}
   * @return {@code text} without tokens; {@code null} for {@code null}
   */
  public static String scrub(String text) {
    if (text == null) {
      return null;
    }
    String scrubbed = TOKEN_SHAPED.matcher(text).replaceAll(MASK);
    return BEARER.matcher(scrubbed).replaceAll("$1" + MASK);
  }
}
