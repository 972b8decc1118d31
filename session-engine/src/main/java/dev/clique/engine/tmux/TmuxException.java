package dev.clique.engine.tmux;

import java.io.IOException;

/** A tmux call failed; the message says which call and what tmux said. */
public final class TmuxException extends IOException {
  private static final long serialVersionUID = 1L;

  private final boolean sessionGone;

  public TmuxException(String message) {
    this(message, false);
  }

  public TmuxException(String message, boolean sessionGone) {
    super(message);
    this.sessionGone = sessionGone;
  }

  public TmuxException(String message, Throwable cause) {
    super(message, cause);
    this.sessionGone = false;
  }

  /** The call failed because the session (or the whole server) does not exist (any more). */
  public boolean sessionGone() {
    return sessionGone;
  }
}
