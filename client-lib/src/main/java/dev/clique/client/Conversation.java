package dev.clique.client;

import java.util.List;
import java.util.Objects;

/**
 * What was said in a session, read by the engine from the CLI's own transcript: the answer of
 * {@code GET /api/sessions/{id}/transcript}.
 *
 * <p>Turns are oldest first, at most the last 300. A CLI whose transcript the engine cannot read (a
 * shell, for one) has no turns.
 *
 * <pre>{@code
 * for (Turn turn : client.conversation(id).turns()) {
 *   System.out.println(turn.role() + ": " + turn.text());
 * }
 * }</pre>
 *
 * <p>The client makes these from the engine's answers, a test from an answer's text with {@link
 * #fromJson(String)}; there is no public constructor, so a later version can add what a later
 * engine sends. Two conversations are equal when the engine sent the same text for them.
 */
public final class Conversation {
  private final String cli;
  private final String name;
  private final List<Turn> turns;
  private final String json;

  Conversation(String cli, String name, List<Turn> turns, String json) {
    this.cli = Objects.requireNonNull(cli, "cli");
    this.name = Objects.requireNonNull(name, "name");
    this.turns = List.copyOf(turns);
    this.json = Objects.requireNonNull(json, "json");
  }

  /**
   * Reads a conversation from the JSON text of a transcript answer, as the client does.
   *
   * @param json the answer's JSON text, e.g. {@code {"cli": "claude", "name": "x", "turns": []}}
   * @return the conversation
   * @throws IllegalArgumentException if it is not JSON, or not a transcript answer
   */
  public static Conversation fromJson(String json) {
    return Answers.fromJson(json, Answers.READER::conversation);
  }

  /**
   * The catalogue id of the session's CLI.
   *
   * @return e.g. {@code claude}
   */
  public String cli() {
    return cli;
  }

  /**
   * The session's name.
   *
   * @return the name given to the session
   */
  public String name() {
    return name;
  }

  /**
   * The turns, oldest first.
   *
   * @return an unmodifiable list
   */
  public List<Turn> turns() {
    return turns;
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
    return other instanceof Conversation that && json.equals(that.json);
  }

  @Override
  public int hashCode() {
    return json.hashCode();
  }

  @Override
  public String toString() {
    return "Conversation[cli=" + cli + ", name=" + name + ", turns=" + turns + "]";
  }
}
