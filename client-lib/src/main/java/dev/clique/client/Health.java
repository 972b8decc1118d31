package dev.clique.client;

import com.fasterxml.jackson.databind.JsonNode;
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
 * @param ok whether the engine says it is well
 * @param version the engine's version
 * @param uptime how long the engine has been running
 * @param tmux whether tmux is available to the engine
 * @param sessions how many sessions the engine has
 * @param alive how many of them have a tmux session
 * @param attached how many of them have a terminal attached
 * @param json the answer exactly as the engine sent it
 */
public record Health(
    boolean ok,
    Optional<String> version,
    Optional<Duration> uptime,
    Optional<Boolean> tmux,
    OptionalInt sessions,
    OptionalInt alive,
    OptionalInt attached,
    JsonNode json) {

  /**
   * Checks that no component is {@code null} and keeps a private copy of {@code json}.
   *
   * @param ok whether the engine says it is well
   * @param version the engine's version
   * @param uptime how long the engine has been running
   * @param tmux whether tmux is available to the engine
   * @param sessions how many sessions the engine has
   * @param alive how many of them have a tmux session
   * @param attached how many of them have a terminal attached
   * @param json the answer exactly as the engine sent it
   * @throws NullPointerException if a component is {@code null}
   */
  public Health {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(uptime, "uptime");
    Objects.requireNonNull(tmux, "tmux");
    Objects.requireNonNull(sessions, "sessions");
    Objects.requireNonNull(alive, "alive");
    Objects.requireNonNull(attached, "attached");
    json = Objects.requireNonNull(json, "json").deepCopy();
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
   * The answer exactly as the engine sent it, including keys this client does not know.
   *
   * @return a copy of the raw JSON object (changing it changes nothing here)
   */
  @Override
  public JsonNode json() {
    return json.deepCopy();
  }
}
