package dev.clique.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything {@code GET /api/state} answers: the engine's version, the revision of what it shows,
 * its sessions and its CLI catalogue. Optional parts a CLIque panel adds ({@code folders}, {@code
 * settings}, ...) are in {@link #json()}.
 *
 * <pre>{@code
 * EngineState state = client.state();
 * System.out.println("engine " + state.version() + ", " + state.sessions().size() + " sessions");
 * }</pre>
 *
 * @param version the engine's version ({@code ""} when it sent none)
 * @param revision what {@link CliqueClient#state(long, java.time.Duration)} waits to move past;
 *     {@code 0} from an engine without a change feed (a CLIque panel)
 * @param sessions the sessions, in the engine's order
 * @param clis the CLI catalogue
 * @param json the answer exactly as the engine sent it
 */
public record EngineState(
    String version, long revision, List<Session> sessions, List<Cli> clis, JsonNode json) {

  /**
   * Copies the lists and {@code json}.
   *
   * @param version the engine's version ({@code ""} when it sent none)
   * @param revision the revision of what the engine shows; {@code 0} when it sent none
   * @param sessions the sessions, in the engine's order
   * @param clis the CLI catalogue
   * @param json the answer exactly as the engine sent it
   * @throws NullPointerException if a component or an element is {@code null}
   */
  public EngineState {
    Objects.requireNonNull(version, "version");
    sessions = List.copyOf(sessions);
    clis = List.copyOf(clis);
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * The session with the given id.
   *
   * @param id a session id
   * @return that session, or empty when the engine has none with that id
   */
  public Optional<Session> session(String id) {
    Objects.requireNonNull(id, "id");
    return sessions.stream().filter(s -> s.id().equals(id)).findFirst();
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
