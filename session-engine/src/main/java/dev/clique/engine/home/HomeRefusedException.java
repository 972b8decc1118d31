package dev.clique.engine.home;

import java.io.IOException;

/**
 * A {@code CLIQUE_HOME} this user cannot trust as its own: its message is one sentence that names
 * the home, why it is refused and what to do about it.
 */
public final class HomeRefusedException extends IOException {
  private static final long serialVersionUID = 1L;

  HomeRefusedException(String message) {
    super(message);
  }
}
