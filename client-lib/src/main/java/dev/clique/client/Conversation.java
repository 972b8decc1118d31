package dev.clique.client;

import com.fasterxml.jackson.databind.JsonNode;
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
 * @param cli the catalogue id of the session's CLI
 * @param name the session's name
 * @param turns the turns, oldest first
 * @param json the answer exactly as the engine sent it
 */
public record Conversation(String cli, String name, List<Turn> turns, JsonNode json) {

  /**
   * Copies {@code turns} and {@code json}.
   *
   * @param cli the catalogue id of the session's CLI
   * @param name the session's name
   * @param turns the turns, oldest first
   * @param json the answer exactly as the engine sent it
   * @throws NullPointerException if a component or a turn is {@code null}
   */
  public Conversation {
    Objects.requireNonNull(cli, "cli");
    Objects.requireNonNull(name, "name");
    turns = List.copyOf(turns);
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * The answer exactly as the engine sent it, including keys this client does not know.
   *
   * @return a copy of the raw JSON object (changing it changes nothing here)
   */
  @Override
  public JsonNode json() {
    return json.deepCopy();
  }
}
