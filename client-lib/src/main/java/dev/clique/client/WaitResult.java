package dev.clique.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Objects;

/**
 * The answer of {@code GET /api/sessions/{id}/wait}: the state the session was in when the wait
 * ended, and whether it was one of the states waited for.
 *
 * <pre>{@code
 * WaitResult w = client.waitFor(id, Duration.ofSeconds(60), SessionState.IDLE, SessionState.WAITING);
 * if (!w.matched()) {
 *   System.out.println("still " + w.state() + " after " + w.waited().toSeconds() + " s");
 * }
 * }</pre>
 *
 * @param id the session id
 * @param state the session's state when the wait ended; {@link SessionState#GONE} when it was
 *     removed meanwhile
 * @param matched {@code true} when {@code state} is one of those waited for, {@code false} on
 *     time-out or when the session is gone
 * @param waited how long the engine waited (0.1 s resolution)
 * @param json the answer exactly as the engine sent it
 */
public record WaitResult(
    String id, SessionState state, boolean matched, Duration waited, JsonNode json) {

  /**
   * Checks that no component is {@code null} and keeps a private copy of {@code json}.
   *
   * @param id the session id
   * @param state the session's state when the wait ended; {@link SessionState#GONE} when it was
   *     removed meanwhile
   * @param matched {@code true} when {@code state} is one of those waited for, {@code false} on
   *     time-out or when the session is gone
   * @param waited how long the engine waited (0.1 s resolution)
   * @param json the answer exactly as the engine sent it
   * @throws NullPointerException if a component is {@code null}
   */
  public WaitResult {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(waited, "waited");
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
