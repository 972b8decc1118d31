package dev.clique.client;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * The last lines of a session's pane, as text: the answer of {@code GET /api/sessions/{id}/peek}.
 *
 * <p>The engine sends no ANSI codes, joins wrapped lines, strips trailing white space and drops
 * blank lines and lines made only of frame characters. A stopped session has no lines, is not
 * alive, and its activity is {@link Instant#EPOCH}.
 *
 * <pre>{@code
 * Pane pane = client.peek(id, 40);
 * pane.lines().forEach(System.out::println);
 * }</pre>
 *
 * <p>The client makes these from the engine's answers, a test from an answer's text with {@link
 * #fromJson(String)}; there is no public constructor, so a later version can add what a later
 * engine sends. Two panes are equal when the engine sent the same text for them.
 */
public final class Pane {
  private final List<String> lines;
  private final boolean alive;
  private final Instant activity;
  private final boolean screen;
  private final String json;

  Pane(List<String> lines, boolean alive, Instant activity, boolean screen, String json) {
    this.lines = List.copyOf(lines);
    this.alive = alive;
    this.activity = Objects.requireNonNull(activity, "activity");
    this.screen = screen;
    this.json = Objects.requireNonNull(json, "json");
  }

  /**
   * Reads a pane from the JSON text of a peek answer, as the client does.
   *
   * @param json the answer's JSON text, e.g. {@code {"lines": ["$ ls"], "alive": true}}
   * @return the pane
   * @throws IllegalArgumentException if it is not JSON, or not a peek answer
   */
  public static Pane fromJson(String json) {
    return Answers.fromJson(json, Answers.READER::pane);
  }

  /**
   * The last lines, oldest first.
   *
   * @return an unmodifiable list
   */
  public List<String> lines() {
    return lines;
  }

  /**
   * Whether a tmux session exists for it.
   *
   * @return {@code true} when alive
   */
  public boolean alive() {
    return alive;
  }

  /**
   * When the pane last printed something.
   *
   * @return that time; {@link Instant#EPOCH} when never or stopped
   */
  public Instant activity() {
    return activity;
  }

  /**
   * Whether the lines are a screen's. A session that runs outside tmux has no screen to read: its
   * lines are then its conversation's last ones (a prompt marked {@code > }).
   *
   * @return {@code false} for lines of a conversation; {@code true} otherwise (and from an engine
   *     that does not say)
   */
  public boolean screen() {
    return screen;
  }

  /**
   * The JSON text the engine sent for this answer, exactly as it came (white space, key order and
   * keys this client does not know included): what to pass on to show a caller what the engine
   * said, or to read with a JSON library of one's own.
   *
   * @return the answer's JSON text, one object
   */
  public String json() {
    return json;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Pane that && json.equals(that.json);
  }

  @Override
  public int hashCode() {
    return json.hashCode();
  }

  @Override
  public String toString() {
    return "Pane[lines="
        + lines
        + ", alive="
        + alive
        + ", activity="
        + activity
        + ", screen="
        + screen
        + "]";
  }
}
