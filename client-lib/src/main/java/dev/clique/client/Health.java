package dev.clique.client;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The answer of {@code GET /healthz}.
 *
 * <p>Anyone gets {@code ok}; the other values come only when the engine accepted the token (an
 * unknown token is treated as none there, not as an error), so {@link #detailed()} also tells
 * whether the token is known to this engine.
 *
 * <pre>{@code
 * Health h = client.health();
 * System.out.println(h.ok() + " " + h.version().orElse("?") + " alive=" + h.alive().orElse(0));
 * }</pre>
 *
 * <p>The client makes these from the engine's answers, a test from an answer's text with {@link
 * #fromJson(String)}; there is no public constructor, so a later version can add what a later
 * engine sends. Two healths are equal when the engine sent the same text for them.
 */
public final class Health {
  private final boolean ok;
  private final Optional<String> version;
  private final Optional<Duration> uptime;
  private final Optional<Boolean> tmux;
  private final OptionalInt sessions;
  private final OptionalInt alive;
  private final OptionalInt attached;
  private final String json;

  Health(
      boolean ok,
      Optional<String> version,
      Optional<Duration> uptime,
      Optional<Boolean> tmux,
      OptionalInt sessions,
      OptionalInt alive,
      OptionalInt attached,
      String json) {
    this.ok = ok;
    this.version = Objects.requireNonNull(version, "version");
    this.uptime = Objects.requireNonNull(uptime, "uptime");
    this.tmux = Objects.requireNonNull(tmux, "tmux");
    this.sessions = Objects.requireNonNull(sessions, "sessions");
    this.alive = Objects.requireNonNull(alive, "alive");
    this.attached = Objects.requireNonNull(attached, "attached");
    this.json = Objects.requireNonNull(json, "json");
  }

  /**
   * Reads a health from the JSON text of a {@code /healthz} answer, as the client does.
   *
   * @param json the answer's JSON text, e.g. {@code {"ok": true}}
   * @return the health
   * @throws IllegalArgumentException if it is not JSON, or not a health answer
   */
  public static Health fromJson(String json) {
    return Answers.fromJson(json, Answers.READER::health);
  }

  /**
   * Whether the engine says it is well.
   *
   * @return {@code true} when it is
   */
  public boolean ok() {
    return ok;
  }

  /**
   * The engine's version.
   *
   * @return the version, when the token is known
   */
  public Optional<String> version() {
    return version;
  }

  /**
   * How long the engine has been running.
   *
   * @return the uptime, when the token is known
   */
  public Optional<Duration> uptime() {
    return uptime;
  }

  /**
   * Whether tmux is available to the engine.
   *
   * @return that, when the token is known
   */
  public Optional<Boolean> tmux() {
    return tmux;
  }

  /**
   * How many sessions the engine has.
   *
   * @return the count, when the token is known
   */
  public OptionalInt sessions() {
    return sessions;
  }

  /**
   * How many of them have a tmux session.
   *
   * @return the count, when the token is known
   */
  public OptionalInt alive() {
    return alive;
  }

  /**
   * How many of them have a terminal attached.
   *
   * @return the count, when the token is known
   */
  public OptionalInt attached() {
    return attached;
  }

  /**
   * Whether the answer carries the details only an authenticated caller gets.
   *
   * @return {@code true} when {@link #version()} is present
   */
  public boolean detailed() {
    return version.isPresent();
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
    return other instanceof Health that && json.equals(that.json);
  }

  @Override
  public int hashCode() {
    return json.hashCode();
  }

  @Override
  public String toString() {
    return "Health[ok="
        + ok
        + ", version="
        + version
        + ", uptime="
        + uptime
        + ", tmux="
        + tmux
        + ", sessions="
        + sessions
        + ", alive="
        + alive
        + ", attached="
        + attached
        + "]";
  }
}
