package dev.clique.client;

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
 * <p>The client makes these from the engine's answers, a test from an answer's text with {@link
 * #fromJson(String)}; there is no public constructor, so a later version can add what a later
 * engine sends. Two results are equal when their ids and the engine's answers are.
 */
public final class WaitResult {
  private final String id;
  private final SessionState state;
  private final boolean matched;
  private final Duration waited;
  private final String json;

  WaitResult(String id, SessionState state, boolean matched, Duration waited, String json) {
    this.id = Objects.requireNonNull(id, "id");
    this.state = Objects.requireNonNull(state, "state");
    this.matched = matched;
    this.waited = Objects.requireNonNull(waited, "waited");
    this.json = Objects.requireNonNull(json, "json");
  }

  /**
   * Reads a wait's result from the JSON text of a wait answer, as the client does.
   *
   * @param json the answer's JSON text, e.g. {@code {"id": "...", "state": "idle", "matched": true,
   *     "waited": 3.2}}
   * @return the result; its {@link #id()} is {@code ""} when the answer names no session
   * @throws IllegalArgumentException if it is not JSON, or not a wait answer
   */
  public static WaitResult fromJson(String json) {
    return Answers.fromJson(json, answer -> Answers.READER.waitResult(answer, ""));
  }

  /**
   * The session id.
   *
   * @return the id of the session waited on
   */
  public String id() {
    return id;
  }

  /**
   * The session's state when the wait ended.
   *
   * @return that state; {@link SessionState#GONE} when the session was removed meanwhile
   */
  public SessionState state() {
    return state;
  }

  /**
   * Whether the wait ended in a state waited for.
   *
   * @return {@code true} when {@link #state()} is one of those waited for, {@code false} on
   *     time-out or when the session is gone
   */
  public boolean matched() {
    return matched;
  }

  /**
   * How long the engine waited.
   *
   * @return the time waited (0.1 s resolution)
   */
  public Duration waited() {
    return waited;
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
    return other instanceof WaitResult that && id.equals(that.id) && json.equals(that.json);
  }

  @Override
  public int hashCode() {
    return 31 * id.hashCode() + json.hashCode();
  }

  @Override
  public String toString() {
    return "WaitResult[id="
        + id
        + ", state="
        + state
        + ", matched="
        + matched
        + ", waited="
        + waited
        + "]";
  }
}
