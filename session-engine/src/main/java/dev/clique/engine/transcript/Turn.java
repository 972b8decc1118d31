package dev.clique.engine.transcript;

import java.util.Objects;

/**
 * One turn of a conversation: consecutive messages of one speaker, joined by a blank line.
 *
 * <pre>{@code
 * new Turn("user", "Why does LoginTest fail on CI?")
 * }</pre>
 *
 * @param role {@code "user"} or {@code "assistant"}
 * @param text what was typed or answered, never blank
 */
public record Turn(String role, String text) {

  /** The person at the keyboard. */
  public static final String USER = "user";

  /** The model's prose. */
  public static final String ASSISTANT = "assistant";

  /** Checks that both parts are present. */
  public Turn {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(text, "text");
  }
}
