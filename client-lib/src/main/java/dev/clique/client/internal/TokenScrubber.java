package dev.clique.client.internal;

import dev.clique.client.Tokens;

/**
 * Takes tokens out of text meant for people. Every message this module makes passes through here,
 * so a token cannot leak through an engine that echoes it or a URL a caller pasted it into.
 */
final class TokenScrubber {
  static final String MASK = Tokens.MASK;

  private final String token;

  /** Scrubs {@code token} (may be {@code null} when none is known yet) and anything like it. */
  TokenScrubber(String token) {
    this.token = token == null || token.isEmpty() ? null : token;
  }

  String scrub(String text) {
    if (text == null) {
      return null;
    }
    // Its own token whatever its shape, then anything shaped like one, not only the one it holds.
    return Tokens.scrub(token == null ? text : text.replace(token, MASK));
  }
}
