package dev.clique.client;

import com.fasterxml.jackson.databind.JsonNode;
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
 * @param id the session id (a uuid)
 * @param name the name given to the session
 * @param cli the catalogue id of its CLI: {@code claude}, {@code codex}, {@code gemini}, {@code
 *     shell}, ...
 * @param cliLabel the CLI's display name, e.g. {@code Claude Code}
 * @param cwd the working directory
 * @param project the last path element of {@code cwd}
 * @param folder the folder the session is filed under, if any
 * @param mode the CLI's permission mode, for CLIs that have modes
 * @param created when the session was made
 * @param alive whether a tmux session exists for it
 * @param attached whether a terminal client is attached to it
 * @param command the pane's foreground command, when known
 * @param activity when the pane last printed something
 * @param cols the pane's width in columns
 * @param rows the pane's height in rows
 * @param busy whether it is producing output now
 * @param signal {@code ""}, {@code "waiting"} or {@code "error"}: an attention signal
 * @param saying for a waiting or erring session, the line it is stuck on (up to 200 characters)
 * @param state the state the engine decided on
 * @param rss the resident memory of the pane's process tree, in bytes
 * @param branch the git branch of {@code cwd}, {@code ""} when none
 * @param dirty the number of changed paths in {@code cwd}'s git work tree
 * @param json the row exactly as the engine sent it, unknown keys included
 */
public record Session(
    String id,
    String name,
    String cli,
    String cliLabel,
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
    JsonNode json) {

  /**
   * Checks that no component is {@code null} and keeps a private copy of {@code json}.
   *
   * @param id the session id (a uuid)
   * @param name the name given to the session
   * @param cli the catalogue id of its CLI: {@code claude}, {@code codex}, {@code gemini}, {@code
   *     shell}, ...
   * @param cliLabel the CLI's display name, e.g. {@code Claude Code}
   * @param cwd the working directory
   * @param project the last path element of {@code cwd}
   * @param folder the folder the session is filed under, if any
   * @param mode the CLI's permission mode, for CLIs that have modes
   * @param created when the session was made
   * @param alive whether a tmux session exists for it
   * @param attached whether a terminal client is attached to it
   * @param command the pane's foreground command, when known
   * @param activity when the pane last printed something
   * @param cols the pane's width in columns
   * @param rows the pane's height in rows
   * @param busy whether it is producing output now
   * @param signal {@code ""}, {@code "waiting"} or {@code "error"}: an attention signal
   * @param saying for a waiting or erring session, the line it is stuck on (up to 200 characters)
   * @param state the state the engine decided on
   * @param rss the resident memory of the pane's process tree, in bytes
   * @param branch the git branch of {@code cwd}, {@code ""} when none
   * @param dirty the number of changed paths in {@code cwd}'s git work tree
   * @param json the row exactly as the engine sent it, unknown keys included
   * @throws NullPointerException if a component is {@code null}
   */
  public Session {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(cli, "cli");
    Objects.requireNonNull(cliLabel, "cliLabel");
    Objects.requireNonNull(cwd, "cwd");
    Objects.requireNonNull(project, "project");
    Objects.requireNonNull(folder, "folder");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(created, "created");
    Objects.requireNonNull(command, "command");
    Objects.requireNonNull(activity, "activity");
    Objects.requireNonNull(signal, "signal");
    Objects.requireNonNull(saying, "saying");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(branch, "branch");
    json = Objects.requireNonNull(json, "json").deepCopy();
  }

  /**
   * The row exactly as the engine sent it, including keys this client does not know; pass it on
   * unchanged to show a caller what the engine said.
   *
   * @return a copy of the raw JSON object (changing it changes nothing here)
   */
  @Override
  public JsonNode json() {
    return json.deepCopy();
  }
}
