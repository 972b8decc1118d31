package dev.clique.engine.hooks;

import java.util.regex.Pattern;

/**
 * A vendor's words for a usage or rate limit, as a CLI that says only "the request failed" passes
 * them on (opencode's retry, pi's last error): such a failure needs a person to wait or switch, not
 * to mend anything.
 */
final class LimitWords {
  private static final Pattern WORDS =
      Pattern.compile(
          "rate.?limit|too many requests|usage limit|quota|resource.?exhausted",
          Pattern.CASE_INSENSITIVE);

  private LimitWords() {}

  /** Whether {@code message} says a usage or rate limit stopped the request. */
  static boolean in(String message) {
    return message != null && WORDS.matcher(message).find();
  }
}
