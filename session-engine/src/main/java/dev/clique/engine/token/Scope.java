package dev.clique.engine.token;

import java.util.Locale;
import java.util.Optional;

/**
 * What a token may do: {@code read} every GET, {@code write} every change, or only {@code
 * attention}.
 */
public enum Scope {
  READ,
  WRITE,
  ATTENTION;

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static Optional<Scope> fromWire(String name) {
    for (Scope scope : values()) {
      if (scope.wireName().equals(name)) {
        return Optional.of(scope);
      }
    }
    return Optional.empty();
  }
}
