package dev.clique.engine.session;

import java.util.List;

/**
 * The last lines of a pane as {@code peek} shows them.
 *
 * @param activity unix seconds of the last output, 0 for a stopped session
 */
public record PaneLines(List<String> lines, boolean alive, double activity) {
  public PaneLines {
    lines = List.copyOf(lines);
  }

  public static PaneLines stopped() {
    return new PaneLines(List.of(), false, 0);
  }
}
