package dev.clique.engine.tmux;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The tmux server that holds the sessions, on clique's own socket. Every target is exact: a session
 * is named by its clique id and never matched by prefix.
 */
public interface Tmux {
  /** The socket name ({@code tmux -L}), or the socket file's path ({@code tmux -S}). */
  String socket();

  /** Whether the tmux binary can be run at all. */
  boolean installed();

  /**
   * Starts a detached session running {@code argv} in {@code cwd}, with extra environment, marked
   * as {@code home}'s from its first moment ({@link HomeMark#NONE}: unmarked).
   */
  void newSession(String name, Path cwd, List<String> argv, Map<String, String> env, HomeMark home)
      throws TmuxException;

  /** Marks a running session as {@code home}'s. */
  void markHome(String name, HomeMark home) throws TmuxException;

  /** The home a session is marked as belonging to; {@link HomeMark#NONE} when it carries none. */
  HomeMark home(String name) throws TmuxException;

  /**
   * The working directory of the session's pane process now, as the kernel has it: where tmux
   * really started it.
   */
  Path workingDirectory(String name) throws TmuxException;

  /** Puts {@code text} into the pane literally (never read as key names), as one paste. */
  void sendText(String name, String text) throws TmuxException;

  /** Presses one named key ({@code Enter}, {@code C-c}, ...). */
  void sendKey(String name, String key) throws TmuxException;

  void killSession(String name) throws TmuxException;

  /** One row per live session on the socket, in one call; empty when no server runs. */
  List<PaneInfo> listPanes() throws TmuxException;

  /**
   * The last {@code lines} lines of the pane's history plus its visible screen, as plain text with
   * wrapped lines joined.
   */
  String capturePane(String name, int lines) throws TmuxException;

  /** The visible screen only, as plain text with wrapped lines joined. */
  String captureScreen(String name) throws TmuxException;

  /**
   * Who holds the pane's terminal now: its own process (a shell at its prompt) or a command it
   * runs. Cheap enough to ask many times a second; starts no process.
   */
  Foreground foreground(PaneInfo pane);

  /**
   * Every process under the pane's process, by pid, with its command line (empty when none, or
   * unreadable): a CLI that starts itself anew shows here. Starts no process.
   */
  Map<Long, PaneProcess> descendants(PaneInfo pane);

  /**
   * The values of {@code names} in the environment the pane's process was started with (unset names
   * left out), or {@code null} when the process has gone or cannot be read. Starts no process.
   */
  Map<String, String> environment(long panePid, Set<String> names);

  /**
   * This user's processes whose start environment sets {@code name}, by its value: a session's own,
   * by the marker each of its processes inherits, even one that left the pane's process tree (a
   * daemon that forked twice). Never tmux itself. Starts no process.
   */
  Map<String, List<Long>> processesMarked(String name);

  /** Resident bytes of each pane process tree, by the pane's pid. Starts no process. */
  Map<Long, Long> residentBytes(Collection<Long> panePids);

  /**
   * The name of the command that holds the pane's terminal ({@code pane_current_command}): the
   * listing's, or read now when the listing left it out.
   */
  default String currentCommand(PaneInfo pane) {
    return pane.command();
  }

  /**
   * A stamp of what the server has done that moves whenever it did something (output in a pane, a
   * session made or gone, a pane that died), so a watcher that sees the same stamp again knows that
   * nothing changed without looking. Null when this server cannot tell: only looking tells.
   */
  default Activity activity() {
    return null;
  }

  /** How each server this watches is watched: by events or by polling, and why. */
  default List<ServerWatch> watches() {
    return List.of();
  }

  /**
   * When a person's client attached to the session (for a pane, to the tmux session that holds it)
   * was last active (a key, its attach), in unix seconds: the latest of them; empty when no client
   * but a control client is attached, or the session is gone.
   */
  default OptionalLong clientActivity(String name) throws TmuxException {
    return OptionalLong.empty();
  }

  /** Stops the whole server on this socket (tests only use this on their own socket). */
  void killServer();
}
