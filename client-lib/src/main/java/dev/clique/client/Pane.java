package dev.clique.client;

import com.fasterxml.jackson.databind.JsonNode;
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
 * @param lines the last lines, oldest first
 * @param alive whether a tmux session exists for it
 * @param activity when the pane last printed something ({@link Instant#EPOCH} when never or
 *     stopped)
 * @param json the answer exactly as the engine sent it
 */
public record Pane(List<String> lines, boolean alive, Instant activity, JsonNode json) {

  /**
   * Copies {@code lines} and {@code json}.
   *
   * @param lines the last lines, oldest first
   * @param alive whether a tmux session exists for it
   * @param activity when the pane last printed something ({@link Instant#EPOCH} when never or
   *     stopped)
   * @param json the answer exactly as the engine sent it
   * @throws NullPointerException if a component or a line is {@code null}
   */
  public Pane {
    lines = List.copyOf(lines);
    Objects.requireNonNull(activity, "activity");
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
