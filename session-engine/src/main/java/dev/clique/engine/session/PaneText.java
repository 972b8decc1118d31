package dev.clique.engine.session;

import dev.clique.engine.state.ScreenLines;
import java.util.List;

/**
 * Turns a captured pane into the lines {@code peek} shows: text only, wrapped lines already joined
 * by the capture, trailing whitespace stripped, blank lines and lines made only of box-drawing or
 * frame characters dropped, the last {@code n} kept.
 */
public final class PaneText {
  private PaneText() {}

  public static List<String> lastLines(String captured, int n) {
    List<String> kept = ScreenLines.meaningful(captured);
    return List.copyOf(kept.subList(Math.max(0, kept.size() - Math.max(0, n)), kept.size()));
  }
}
