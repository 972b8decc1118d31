package dev.clique.engine.tmux;

/** Who holds a pane's terminal: the process the pane started (its shell), or a command it runs. */
public enum Foreground {
  /**
   * The pane's own process holds the terminal and waits for a key the way a line editor does, in
   * {@code select} or {@code poll} (bash's readline, fish): a shell at its prompt.
   */
  PROMPT,
  /**
   * The pane's own process holds the terminal otherwise: it waits in a plain {@code read} of it (a
   * builtin that asks, {@code read -p}; or the prompt of a shell whose editor reads so, zsh, dash),
   * or it runs.
   */
  SHELL,
  /** Another process group holds the terminal: a command runs in the foreground. */
  COMMAND,
  /** The pane's process is gone, or this system cannot tell. */
  UNKNOWN
}
