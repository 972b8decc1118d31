package dev.clique.client;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

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
 * <p>The client makes these from the engine's answers, a test from an answer's text with {@link
 * #fromJson(String)}; there is no public constructor, so a later version can add what a later
 * engine sends. Two states are equal when the engine sent the same text for them.
 */
public final class EngineState {
  private final String version;
  private final long revision;
  private final List<Session> sessions;
  private final List<Cli> clis;
  private final List<EngineReport> engines;
  private final String json;

  EngineState(
      String version,
      long revision,
      List<Session> sessions,
      List<Cli> clis,
      List<EngineReport> engines,
      String json) {
    this.version = Objects.requireNonNull(version, "version");
    this.revision = revision;
    this.sessions = List.copyOf(sessions);
    this.clis = List.copyOf(clis);
    this.engines = List.copyOf(engines);
    this.json = Objects.requireNonNull(json, "json");
  }

  /**
   * Reads a state from the JSON text of a {@code /api/state} answer, as the client does.
   *
   * @param json the answer's JSON text, e.g. {@code {"version": "0.1.0", "sessions": []}}
   * @return the state
   * @throws IllegalArgumentException if it is not JSON, or not a state answer
   */
  public static EngineState fromJson(String json) {
    return Answers.fromJson(json, Answers.READER::state);
  }

  /**
   * The engine's version.
   *
   * @return the version, {@code ""} when it sent none
   */
  public String version() {
    return version;
  }

  /**
   * What {@link CliqueClient#state(long, java.time.Duration)} waits to move past.
   *
   * @return the revision; {@code 0} from an engine without a change feed (a CLIque panel)
   */
  public long revision() {
    return revision;
  }

  /**
   * The sessions, in the engine's order.
   *
   * @return an unmodifiable list
   */
  public List<Session> sessions() {
    return sessions;
  }

  /**
   * The CLI catalogue.
   *
   * @return an unmodifiable list
   */
  public List<Cli> clis() {
    return clis;
  }

  /**
   * For a client over several engines, how each of them answered, in the engines file's order: the
   * sessions of one that did not are absent, and its report says why.
   *
   * @return one report an engine; empty for a client of one engine
   */
  public List<EngineReport> engines() {
    return engines;
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
   * The sessions a word for one names, by the rule of every clique command that takes a session
   * ({@code clique peek NAME}, the MCP tools): the session with that id; else those with that name;
   * else, for four characters or more, those whose id starts with it. An id wins over a name, and a
   * name over the start of an id.
   *
   * <pre>{@code
   * List<Session> named = state.named("api");
   * if (named.size() > 1) {
   *   // ambiguous: ask which, by id
   * }
   * }</pre>
   *
   * @param wanted a session's id, name, or the start of its id
   * @return the one session meant; several when the word is ambiguous (say each id and ask which);
   *     none when it names no session
   */
  public List<Session> named(String wanted) {
    Objects.requireNonNull(wanted, "wanted");
    List<Predicate<Session>> rules =
        List.of(
            s -> s.id().equals(wanted),
            s -> s.name().equals(wanted),
            s -> wanted.length() >= 4 && s.id().startsWith(wanted));
    for (Predicate<Session> rule : rules) {
      List<Session> matches = sessions.stream().filter(rule).toList();
      if (!matches.isEmpty()) {
        return matches;
      }
    }
    return List.of();
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
    return other instanceof EngineState that && json.equals(that.json);
  }

  @Override
  public int hashCode() {
    return json.hashCode();
  }

  @Override
  public String toString() {
    return "EngineState[version="
        + version
        + ", revision="
        + revision
        + ", sessions="
        + sessions
        + ", clis="
        + clis
        + (engines.isEmpty() ? "" : ", engines=" + engines)
        + "]";
  }
}
