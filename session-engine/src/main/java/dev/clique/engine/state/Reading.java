package dev.clique.engine.state;

/**
 * What the last lines of a screen say: nothing special, a question waiting for a person, or an
 * error.
 *
 * @param line the line it is stuck on (without its frame), or {@code ""}
 * @param last the last meaningful line of the screen, or {@code ""}
 * @param attention why a person is needed ({@code permission}, {@code trust}, {@code first-run},
 *     {@code question}, {@code error}), or {@code ""} when nothing is asked
 * @param own whether one of the CLI's own patterns matched: its own screens are specific enough to
 *     beat output that looks like work (a prompt that blinks while it waits)
 * @param detail what a permission is asked for (the command on the screen), or {@code ""}
 * @param generic the name of the generic question pattern that matched ({@code clis.toml}'s {@code
 *     [generic]}), or {@code ""}
 * @param resets when a usage limit lifts, in the CLI's words ({@code 7:52 PM}), or {@code ""}
 */
public record Reading(
    Kind kind,
    String line,
    String last,
    String attention,
    boolean own,
    String detail,
    String generic,
    String resets) {
  /**
   * What a screen can say: nothing special, a question, an error, or (the CLI's own words) work.
   */
  public enum Kind {
    NOTHING,
    WAITING,
    ERROR,
    WORKING
  }

  public Reading(
      Kind kind,
      String line,
      String last,
      String attention,
      boolean own,
      String detail,
      String generic) {
    this(kind, line, last, attention, own, detail, generic, "");
  }

  /** What {@code attention.detail} says: what is asked for, else the line it is stuck on. */
  public String why() {
    return detail.isEmpty() ? line : detail;
  }

  public static Reading nothing(String last) {
    return new Reading(Kind.NOTHING, "", last, "", false, "", "");
  }
}
