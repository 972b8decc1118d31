package dev.clique.engine.tmux;

/** Who holds a pane's terminal: the process the pane started (its shell), or a command it runs. */
public enum Foreground {
  /** The pane's own process is in the foreground: a shell waits at its prompt. */
  SHELL,
  /** Another process group holds the terminal: a command runs in the foreground. */
  COMMAND,
  /** The pane's process is gone, or this system cannot tell. */
  UNKNOWN
}
