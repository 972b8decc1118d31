package dev.clique.engine.state;

import java.util.Locale;
import java.util.Optional;

/** An attention signal a session's own hooks report: it needs a person, or it failed. */
public enum Signal {
  NONE(""),
  WAITING("waiting"),
  ERROR("error");

  private final String wireName;

  Signal(String wireName) {
    this.wireName = wireName;
  }

  /** {@code ""}, {@code waiting} or {@code error}, as {@code GET /api/state} shows it. */
  public String wireName() {
    return wireName;
  }

  /**
   * The signal a client asks for: {@code waiting}, {@code error}, or {@code clear} for none.
   * Anything else is empty.
   */
  public static Optional<Signal> fromRequest(String state) {
    if (state == null) {
      return Optional.empty();
    }
    return switch (state.strip().toLowerCase(Locale.ROOT)) {
      case "waiting" -> Optional.of(WAITING);
      case "error" -> Optional.of(ERROR);
      case "clear" -> Optional.of(NONE);
      default -> Optional.empty();
    };
  }
}
