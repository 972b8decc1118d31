package dev.clique.engine.tmux;

import java.io.IOException;

/** A tmux call failed; the message says which call and what tmux said. */
public final class TmuxException extends IOException {
  private static final long serialVersionUID = 1L;

  public TmuxException(String message) {
    super(message);
  }

  public TmuxException(String message, Throwable cause) {
    super(message, cause);
  }
}
