package dev.clique.client;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One session, a row of {@code GET /api/state}.
 *
 * <p>Keys the engine left out read as empty ({@code ""}, {@code 0}, {@code false}, {@link
 * Instant#EPOCH}, {@link SessionState#UNKNOWN}); keys this client does not know (CLIque sends e.g.
 * {@code color}, {@code icon}, {@code mode_seq}, {@code worktree}) are only in {@link #json()}.
 *
 * <pre>{@code
 * client.session(id).ifPresent(s ->
 *     System.out.printf("%s (%s) is %s in %s%n", s.name(), s.cliLabel(), s.state(), s.cwd()));
 * }</pre>
 *
 * <p>The client makes these from the engine's answers, a test from a row's text with {@link
 * #fromJson(String)}; there is no public constructor, so a later version can add what a later
 * engine sends. Two sessions are equal when the engine sent the same row for them.
 */
public final class Session {
  private final String id;
  private final String name;
  private final String cli;
  private final String cliLabel;
  private final Optional<String> cliVersion;
  private final String cwd;
  private final String project;
  private final Optional<String> folder;
  private final Optional<String> mode;
  private final Instant created;
  private final boolean alive;
  private final boolean attached;
  private final Optional<String> command;
  private final Instant activity;
  private final int cols;
  private final int rows;
  private final boolean busy;
  private final String signal;
  private final String saying;
  private final SessionState state;
  private final long rss;
  private final String branch;
  private final int dirty;
  private final Optional<String> engine;
  private final Optional<Usage> usage;
  private final Optional<Limits> limits;
  private final boolean outsideTmux;
  private final String json;

  Session(
      String id,
      String name,
      String cli,
      String cliLabel,
      Optional<String> cliVersion,
      String cwd,
      String project,
      Optional<String> folder,
      Optional<String> mode,
      Instant created,
      boolean alive,
      boolean attached,
      Optional<String> command,
      Instant activity,
      int cols,
      int rows,
      boolean busy,
      String signal,
      String saying,
      SessionState state,
      long rss,
      String branch,
      int dirty,
      Optional<String> engine,
      Optional<Usage> usage,
      Optional<Limits> limits,
      boolean outsideTmux,
      String json) {
    this.id = Objects.requireNonNull(id, "id");
    this.name = Objects.requireNonNull(name, "name");
    this.cli = Objects.requireNonNull(cli, "cli");
    this.cliLabel = Objects.requireNonNull(cliLabel, "cliLabel");
    this.cliVersion = Objects.requireNonNull(cliVersion, "cliVersion");
    this.cwd = Objects.requireNonNull(cwd, "cwd");
    this.project = Objects.requireNonNull(project, "project");
    this.folder = Objects.requireNonNull(folder, "folder");
    this.mode = Objects.requireNonNull(mode, "mode");
    this.created = Objects.requireNonNull(created, "created");
    this.alive = alive;
    this.attached = attached;
    this.command = Objects.requireNonNull(command, "command");
    this.activity = Objects.requireNonNull(activity, "activity");
    this.cols = cols;
    this.rows = rows;
    this.busy = busy;
    this.signal = Objects.requireNonNull(signal, "signal");
    this.saying = Objects.requireNonNull(saying, "saying");
    this.state = Objects.requireNonNull(state, "state");
    this.rss = rss;
    this.branch = Objects.requireNonNull(branch, "branch");
    this.dirty = dirty;
    this.engine = Objects.requireNonNull(engine, "engine");
    this.usage = Objects.requireNonNull(usage, "usage");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.outsideTmux = outsideTmux;
    this.json = Objects.requireNonNull(json, "json");
  }

  /**
   * Reads a session from the JSON text of one row of a {@code /api/state} answer, as the client
   * does.
   *
   * @param json the row's JSON text, e.g. {@code {"id": "...", "name": "api", "state": "idle"}}
   * @return the session
   * @throws IllegalArgumentException if it is not JSON, or not a session row
   */
  public static Session fromJson(String json) {
    return Answers.fromJson(json, Answers::readSession);
  }

  /**
   * The session id.
   *
   * @return the id (a uuid)
   */
  public String id() {
    return id;
  }

  /**
   * The name given to the session.
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * The catalogue id of its CLI.
   *
   * @return {@code claude}, {@code codex}, {@code gemini}, {@code shell}, ...
   */
  public String cli() {
    return cli;
  }

  /**
   * The CLI's display name.
   *
   * @return e.g. {@code Claude Code}
   */
  public String cliLabel() {
    return cliLabel;
  }

  /**
   * The version of the program that runs in the session's pane, read from its package or its {@code
   * --version}.
   *
   * @return e.g. {@code 2.1.328}; empty while the engine does not know it yet, once the session
   *     stopped, or from an engine that does not say (CLIque)
   */
  public Optional<String> cliVersion() {
    return cliVersion;
  }

  /**
   * The working directory.
   *
   * @return the directory
   */
  public String cwd() {
    return cwd;
  }

  /**
   * The last path element of {@link #cwd()}.
   *
   * @return that element
   */
  public String project() {
    return project;
  }

  /**
   * The folder the session is filed under.
   *
   * @return the folder, if any
   */
  public Optional<String> folder() {
    return folder;
  }

  /**
   * The CLI's permission mode, for CLIs that have modes.
   *
   * @return the mode, if any
   */
  public Optional<String> mode() {
    return mode;
  }

  /**
   * When the session was made.
   *
   * @return that time
   */
  public Instant created() {
    return created;
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
   * Whether a terminal client is attached to it.
   *
   * @return {@code true} when attached
   */
  public boolean attached() {
    return attached;
  }

  /**
   * The pane's foreground command.
   *
   * @return the command, when known
   */
  public Optional<String> command() {
    return command;
  }

  /**
   * When the pane last printed something.
   *
   * @return that time
   */
  public Instant activity() {
    return activity;
  }

  /**
   * The pane's width.
   *
   * @return the width in columns
   */
  public int cols() {
    return cols;
  }

  /**
   * The pane's height.
   *
   * @return the height in rows
   */
  public int rows() {
    return rows;
  }

  /**
   * Whether it is producing output now.
   *
   * @return {@code true} when busy
   */
  public boolean busy() {
    return busy;
  }

  /**
   * An attention signal.
   *
   * @return {@code ""}, {@code "waiting"} or {@code "error"}
   */
  public String signal() {
    return signal;
  }

  /**
   * For a waiting or erring session, the line it is stuck on.
   *
   * @return that line (up to 200 characters), {@code ""} when none
   */
  public String saying() {
    return saying;
  }

  /**
   * The state the engine decided on.
   *
   * @return the state
   */
  public SessionState state() {
    return state;
  }

  /**
   * The resident memory of the pane's process tree.
   *
   * @return the bytes
   */
  public long rss() {
    return rss;
  }

  /**
   * The git branch of {@link #cwd()}.
   *
   * @return the branch, {@code ""} when none
   */
  public String branch() {
    return branch;
  }

  /**
   * The number of changed paths in {@link #cwd()}'s git work tree.
   *
   * @return the count
   */
  public int dirty() {
    return dirty;
  }

  /**
   * The engine this session runs on, for a client over several engines: the name the engines file
   * gives it. Its {@link #id()} is then {@code <engine>:<the engine's own id>}, which every call of
   * that client takes.
   *
   * @return the engine's name, or empty for a client of one engine
   */
  public Optional<String> engine() {
    return engine;
  }

  /**
   * What the session has used, as its CLI recorded it: tokens summed over its conversation, the
   * context its last request filled, its model.
   *
   * @return the usage, when the CLI records it (empty for a shell, before the CLI's first answer,
   *     and from an engine that does not send it)
   */
  public Optional<Usage> usage() {
    return usage;
  }

  /**
   * The usage limits the session's CLI was last told of (Codex: its account's rate-limit windows).
   *
   * @return the limits, when the CLI records them
   */
  public Optional<Limits> limits() {
    return limits;
  }

  /**
   * Whether the session runs outside tmux (a terminal tab, an IDE's terminal): found by the engine
   * from its process, read-only for good (a write answers 403, it cannot be adopted), and without a
   * screen (a peek shows its conversation's last lines). Where it runs ({@code tty}, {@code pid},
   * {@code terminal}) is the row's {@code source} in {@link #json()}.
   *
   * @return {@code true} for a session outside tmux
   */
  public boolean outsideTmux() {
    return outsideTmux;
  }

  /**
   * The JSON text the engine sent for this row, exactly as it came (white space, key order and keys
   * this client does not know included): what to pass on to show a caller what the engine said, or
   * to read with a JSON library of one's own.
   *
   * @return the row's JSON text, one object
   */
  public String json() {
    return json;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Session that && json.equals(that.json);
  }

  @Override
  public int hashCode() {
    return json.hashCode();
  }

  @Override
  public String toString() {
    return "Session[id="
        + id
        + ", name="
        + name
        + ", cli="
        + cli
        + ", cliLabel="
        + cliLabel
        + ", cliVersion="
        + cliVersion
        + ", cwd="
        + cwd
        + ", project="
        + project
        + ", folder="
        + folder
        + ", mode="
        + mode
        + ", created="
        + created
        + ", alive="
        + alive
        + ", attached="
        + attached
        + ", command="
        + command
        + ", activity="
        + activity
        + ", cols="
        + cols
        + ", rows="
        + rows
        + ", busy="
        + busy
        + ", signal="
        + signal
        + ", saying="
        + saying
        + ", state="
        + state
        + ", rss="
        + rss
        + ", branch="
        + branch
        + ", dirty="
        + dirty
        + engine.map(e -> ", engine=" + e).orElse("")
        + usage.map(u -> ", usage=" + u).orElse("")
        + limits.map(l -> ", limits=" + l).orElse("")
        + "]";
  }
}
