package dev.clique.client;

import java.util.Objects;

/**
 * One turn of a {@link Conversation}: consecutive messages of one role, merged with a blank line
 * between them. Made by the client as it reads a conversation; there is no public constructor, so a
 * later version can add what a later engine sends. Two turns are equal when their roles and texts
 * are.
 */
public final class Turn {

  /** The role of what the user typed. */
  public static final String USER = "user";

  /** The role of what the CLI answered. */
  public static final String ASSISTANT = "assistant";

  private final String role;
  private final String text;

  Turn(String role, String text) {
    this.role = Objects.requireNonNull(role, "role");
    this.text = Objects.requireNonNull(text, "text");
  }

  /**
   * Who said it.
   *
   * @return {@code "user"} or {@code "assistant"}
   */
  public String role() {
    return role;
  }

  /**
   * What was said.
   *
   * @return the text
   */
  public String text() {
    return text;
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

  @Override
  public boolean equals(Object other) {
    return other instanceof Turn that && role.equals(that.role) && text.equals(that.text);
  }

  @Override
  public int hashCode() {
    return 31 * role.hashCode() + text.hashCode();
  }

  @Override
  public String toString() {
    return "Turn[role=" + role + ", text=" + text + "]";
  }
}
