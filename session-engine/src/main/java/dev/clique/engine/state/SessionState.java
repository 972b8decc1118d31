package dev.clique.engine.state;

import java.util.Locale;
import java.util.Optional;

/** The states of HTTP-API.md, in the order they are decided. */
public enum SessionState {
  STOPPED,
  WORKING,
  WAITING,
  ERROR,
  IDLE;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<SessionState> fromWire(String name) {
    for (SessionState state : values()) {
      if (state.wireName().equals(name)) {
        return Optional.of(state);
      }
    }
    return Optional.empty();
  }
}
