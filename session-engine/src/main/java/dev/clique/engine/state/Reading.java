package dev.clique.engine.state;

/**
 * What the last lines of a screen say: nothing special, a question waiting for a person, or an
 * error.
 *
 * @param line the line it is stuck on (without its frame), or {@code ""}
 * @param last the last meaningful line of the screen, or {@code ""}
 */
public record Reading(Kind kind, String line, String last) {
  /** The three things a screen can say. */
  public enum Kind {
    NOTHING,
    WAITING,
    ERROR
  }

  public static Reading nothing(String last) {
    return new Reading(Kind.NOTHING, "", last);
  }
}
