package dev.clique.client;

import java.util.Objects;

/**
 * One turn of a {@link Conversation}: consecutive messages of one role, merged with a blank line
 * between them.
 *
 * @param role {@code "user"} or {@code "assistant"}
 * @param text what was said
 */
public record Turn(String role, String text) {

  /** The role of what the user typed. */
  public static final String USER = "user";

  /** The role of what the CLI answered. */
  public static final String ASSISTANT = "assistant";

  /**
   * Checks that no component is {@code null}.
   *
   * @param role {@code "user"} or {@code "assistant"}
   * @param text what was said
   * @throws NullPointerException if a component is {@code null}
   */
  public Turn {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(text, "text");
  }

  /**
   * Whether the user said this.
   *
   * @return {@code true} when {@link #role()} is {@value #USER}
   */
  public boolean isUser() {
    return USER.equals(role);
  }

  /**
   * Whether the CLI said this.
   *
   * @return {@code true} when {@link #role()} is {@value #ASSISTANT}
   */
  public boolean isAssistant() {
    return ASSISTANT.equals(role);
  }
}
