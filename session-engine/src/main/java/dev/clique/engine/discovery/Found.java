package dev.clique.engine.discovery;

import java.util.List;
import java.util.Map;

/**
 * A session found on another tmux server: one pane whose process tree runs a CLI of the catalogue.
 *
 * @param id stable while the same CLI process runs in the same pane (derived from both)
 * @param name the tmux session's name, with the window and pane when it holds several found ones
 * @param cli the catalogue id
 * @param cwd the CLI process's working directory
 * @param created unix seconds of the CLI process's start
 * @param socket the path of the tmux server's socket file
 * @param session the tmux session's name
 * @param window the index of the pane's window
 * @param pane the pane id ({@code %12})
 * @param cliPid the CLI's topmost process in the pane's tree
 * @param cliStartTicks the CLI process's start, which with its pid names it
 * @param argv the CLI process's argv
 * @param env the variables of the CLI process's own environment that say where it keeps its files
 * @param ended whether the CLI (or its pane) has gone: it shows as stopped for a while
 * @param terminal for a CLI that runs outside tmux, where it runs (socket, session and pane are
 *     then null); null for one in a tmux pane
 * @param own for a CLI that runs outside tmux, what it says of its own state; else null
 */
public record Found(
    String id,
    String name,
    String cli,
    String cwd,
    double created,
    String socket,
    String session,
    int window,
    String pane,
    long cliPid,
    long cliStartTicks,
    List<String> argv,
    Map<String, String> env,
    boolean ended,
    Terminal terminal,
    OwnState own) {

  public Found {
    argv = List.copyOf(argv);
    env = Map.copyOf(env);
  }

  /** A session of tmux's (on another server) rather than one that runs outside tmux. */
  public Found(
      String id,
      String name,
      String cli,
      String cwd,
      double created,
      String socket,
      String session,
      int window,
      String pane,
      long cliPid,
      long cliStartTicks,
      List<String> argv,
      Map<String, String> env,
      boolean ended) {
    this(
        id,
        name,
        cli,
        cwd,
        created,
        socket,
        session,
        window,
        pane,
        cliPid,
        cliStartTicks,
        argv,
        env,
        ended,
        null,
        null);
  }

  /** Whether the CLI runs outside tmux: no pane, a terminal of its own. */
  public boolean outside() {
    return terminal != null;
  }

  Found withOwn(OwnState state) {
    return new Found(
        id,
        name,
        cli,
        cwd,
        created,
        socket,
        session,
        window,
        pane,
        cliPid,
        cliStartTicks,
        argv,
        env,
        ended,
        terminal,
        state);
  }

  Found asEnded() {
    return ended ? this : with(name, true);
  }

  Found named(String newName) {
    return with(newName, ended);
  }

  private Found with(String newName, boolean hasEnded) {
    return new Found(
        id,
        newName,
        cli,
        cwd,
        created,
        socket,
        session,
        window,
        pane,
        cliPid,
        cliStartTicks,
        argv,
        env,
        hasEnded,
        terminal,
        own);
  }
}
