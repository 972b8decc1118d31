package dev.clique.engine.tmux;

/**
 * What one cheap {@code list-panes -a} call tells about a session's (first) pane.
 *
 * @param command the pane's foreground command, as tmux names it
 * @param activity unix seconds of the last output in the window (tmux keeps whole seconds)
 * @param pid the pid of the process the pane started
 * @param exitStatus how the pane's process ended, once it is dead (tmux keeps a dead pane, its last
 *     screen readable); -1 while it runs or when tmux does not say
 * @param exitSignal the signal that ended the pane's process, once it is dead: its number, 0 when a
 *     signal did but its number is not known, -1 when no signal did (or it still runs)
 * @param historySize lines scrolled into the pane's history
 * @param cursorX cursor column
 * @param cursorY cursor row
 * @param title the pane title a program set with an escape sequence
 * @param home the id of the clique home its session belongs to ({@link HomeMark#id()}), empty when
 *     it carries none
 */
public record PaneInfo(
    String session,
    String command,
    long activity,
    int cols,
    int rows,
    boolean attached,
    long pid,
    boolean dead,
    int exitStatus,
    int exitSignal,
    long historySize,
    int cursorX,
    int cursorY,
    String title,
    String home) {

  /** A pane with nothing but the basics known, as tests and fakes need it. */
  public static PaneInfo of(String session, String command, long activity, long pid) {
    return new PaneInfo(
        session,
        command,
        activity,
        TmuxProcess.COLS,
        TmuxProcess.ROWS,
        false,
        pid,
        false,
        -1,
        -1,
        0,
        0,
        0,
        "",
        "");
  }

  /** The same pane, under another session name (a discovered pane, by its clique id). */
  public PaneInfo withSession(String name) {
    return copy(name, exitSignal);
  }

  /** The same pane, with the name of the command that holds its terminal. */
  public PaneInfo withCommand(String name) {
    return new PaneInfo(
        session,
        name,
        activity,
        cols,
        rows,
        attached,
        pid,
        dead,
        exitStatus,
        exitSignal,
        historySize,
        cursorX,
        cursorY,
        title,
        home);
  }

  /** The same pane, dead by signal {@code signal}. */
  public PaneInfo withExitSignal(int signal) {
    return copy(session, signal);
  }

  private PaneInfo copy(String newSession, int newExitSignal) {
    return new PaneInfo(
        newSession,
        command,
        activity,
        cols,
        rows,
        attached,
        pid,
        dead,
        exitStatus,
        newExitSignal,
        historySize,
        cursorX,
        cursorY,
        title,
        home);
  }

  /**
   * The part of the pane that output changes: the second of the last output, the history size, the
   * cursor and the title. Two calls with different marks saw output in between; equal marks within
   * one second can still hide output that redrew in place, which the next second shows.
   */
  public OutputMark mark() {
    return new OutputMark(activity, historySize, cursorX, cursorY, title);
  }

  /** See {@link #mark()}. */
  public record OutputMark(
      long activity, long historySize, int cursorX, int cursorY, String title) {}
}
