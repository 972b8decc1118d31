package dev.clique.mcp.protocol;

import java.util.regex.Pattern;

/**
 * Takes anything shaped like a clique token out of text that leaves this process: error messages on
 * stdout and log lines on stderr. The client already scrubs its own messages; this is the second
 * wall, for text the server words itself or passes on.
 */
public final class Tokens {
  /** What a token is replaced with. */
  public static final String MASK = "mxp_…";

  private static final Pattern TOKEN_SHAPED = Pattern.compile("mxp_[A-Za-z0-9_-]{8,}");
  private static final Pattern BEARER = Pattern.compile("(?i)(bearer\\s+)[^\\s\"']+");

  private Tokens() {}

  /** {@code text} without tokens; {@code null} stays {@code null}. */
  public static String scrub(String text) {
    if (text == null) {
      return null;
    }
    String scrubbed = TOKEN_SHAPED.matcher(text).replaceAll(MASK);
    return BEARER.matcher(scrubbed).replaceAll("$1" + MASK);
  }
}
