package dev.clique.client.internal;

import java.util.regex.Pattern;

/**
 * Takes tokens out of text meant for people. Every message this module makes passes through here,
 * so a token cannot leak through an engine that echoes it or a URL a caller pasted it into.
 */
final class TokenScrubber {
  static final String MASK = "mxp_…";

  /** Anything shaped like a clique token, not only the one this client holds. */
  private static final Pattern TOKEN_SHAPED = Pattern.compile("mxp_[A-Za-z0-9_-]{8,}");

  private final String token;

  /** Scrubs {@code token} (may be {@code null} when none is known yet) and anything like it. */
  TokenScrubber(String token) {
    this.token = token == null || token.isEmpty() ? null : token;
  }

  String scrub(String text) {
    if (text == null) {
      return null;
    }
    String scrubbed = token == null ? text : text.replace(token, MASK);
    return TOKEN_SHAPED.matcher(scrubbed).replaceAll(MASK);
  }
}
