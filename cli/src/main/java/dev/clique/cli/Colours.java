package dev.clique.cli;

import java.util.Map;

/** Colours for a terminal, and none elsewhere or when {@code NO_COLOR} is set (no-color.org). */
final class Colours {
  private final boolean on;

  private Colours(boolean on) {
    this.on = on;
  }

  static Colours forTerminal(Map<String, String> env) {
    String noColor = env.get("NO_COLOR");
    return new Colours(System.console() != null && (noColor == null || noColor.isEmpty()));
  }

  /** {@code text} (the state padded to its column) in the colour of {@code state}. */
  String state(String state, String text) {
    if (!on) {
      return text;
    }
    String code =
        switch (state) {
          case "working" -> "34"; // blue
          case "waiting" -> "33;1"; // bold yellow: a person is needed
          case "error" -> "31;1"; // bold red
          case "idle" -> "32"; // green
          default -> "2"; // dim: stopped
        };
    return "\u001b[" + code + "m" + text + "\u001b[0m";
  }
}
