package dev.clique.engine.session;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns a captured pane into the lines {@code peek} shows: trailing whitespace stripped, blank
 * lines and lines made only of box-drawing or frame characters dropped, the last {@code n} kept.
 */
public final class PaneText {
  private PaneText() {}

  public static List<String> lastLines(String captured, int n) {
    List<String> kept = new ArrayList<>();
    for (String line : captured.split("\n", -1)) {
      String clean = line.stripTrailing();
      if (clean.isBlank() || isFrame(clean)) {
        continue;
      }
      kept.add(clean);
    }
    return List.copyOf(kept.subList(Math.max(0, kept.size() - n), kept.size()));
  }

  /** A line drawn only with box-drawing, block or similar frame characters (and spaces). */
  static boolean isFrame(String line) {
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      boolean frame =
          Character.isWhitespace(c)
              || (c >= '\u2500' && c <= '\u259F') // box drawing and block elements
              || c == '-'
              || c == '='
              || c == '_'
              || c == '|'
              || c == '+';
      if (!frame) {
        return false;
      }
    }
    return true;
  }
}
