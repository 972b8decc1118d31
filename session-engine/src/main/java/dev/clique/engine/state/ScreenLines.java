package dev.clique.engine.state;

import java.util.ArrayList;
import java.util.List;

/**
 * The text of a captured pane as a reader sees it: control characters removed, trailing whitespace
 * stripped, blank lines and lines drawn only with box-drawing or frame characters dropped.
 */
public final class ScreenLines {
  private ScreenLines() {}

  /** The meaningful lines of {@code captured}, top to bottom. */
  public static List<String> meaningful(String captured) {
    List<String> kept = new ArrayList<>();
    for (String line : captured.split("\n", -1)) {
      String clean = withoutControls(line).stripTrailing();
      if (clean.isBlank() || isFrame(clean)) {
        continue;
      }
      kept.add(clean);
    }
    return kept;
  }

  /**
   * Whether the cursor ({@code cursorRow}, from the top of a pane of {@code rows} rows) is on the
   * last row of {@code captured} that has text. Counted from the bottom: a capture joins wrapped
   * lines, so above the last text its lines are not rows.
   */
  public static boolean cursorOnLastText(String captured, int cursorRow, int rows) {
    String[] lines = captured.split("\n", -1);
    int count = captured.endsWith("\n") ? lines.length - 1 : lines.length;
    int blank = 0;
    while (blank < count && withoutControls(lines[count - 1 - blank]).isBlank()) {
      blank++;
    }
    return blank < count && cursorRow >= 0 && cursorRow == rows - 1 - blank;
  }

  /**
   * The lines as a comparison should see them: without the glyphs TUIs animate while they wait (a
   * blinking bullet, a braille or star spinner), so a prompt that blinks is a screen that stands
   * still.
   */
  public static List<String> steady(List<String> lines) {
    List<String> out = new ArrayList<>(lines.size());
    for (String line : lines) {
      StringBuilder kept = new StringBuilder(line.length());
      for (int i = 0; i < line.length(); i++) {
        char c = line.charAt(i);
        if (!isAnimated(c)) {
          kept.append(c);
        }
      }
      out.add(kept.toString().strip());
    }
    return out;
  }

  private static boolean isAnimated(char c) {
    return (c >= '\u2800' && c <= '\u28FF') // braille spinners
        || (c >= '\u25CB' && c <= '\u25D3') // ○ ◌ ◍ ◎ ● ◐ ◑ ◒ ◓
        || (c >= '\u2722' && c <= '\u274B') // ✢ ✳ ✶ ✻ ✽ and the other stars
        || c == '\u23FA' // ⏺
        || c == '\u00B7' // ·
        || c == '\u2022' // •
        || c == '\u2219' // ∙
        || c == '*';
  }

  /** A line drawn only with box-drawing, block or similar frame characters (and spaces). */
  public static boolean isFrame(String line) {
    for (int i = 0; i < line.length(); i++) {
      if (!Character.isWhitespace(line.charAt(i)) && !isFrameChar(line.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** The line without the frame it is drawn in ({@code │ text │}) and without outer spaces. */
  public static String unframed(String line) {
    int start = 0;
    int end = line.length();
    while (start < end
        && (Character.isWhitespace(line.charAt(start)) || isBox(line.charAt(start)))) {
      start++;
    }
    while (end > start
        && (Character.isWhitespace(line.charAt(end - 1)) || isBox(line.charAt(end - 1)))) {
      end--;
    }
    return line.substring(start, end);
  }

  private static boolean isFrameChar(char c) {
    return isBox(c) || c == '-' || c == '=' || c == '_' || c == '|' || c == '+';
  }

  private static boolean isBox(char c) {
    return c >= '\u2500' && c <= '\u259F'; // box drawing and block elements
  }

  private static String withoutControls(String line) {
    StringBuilder out = null;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      boolean control = (c < 0x20 && c != '\t') || c == 0x7f;
      if (control && out == null) {
        out = new StringBuilder(line.length()).append(line, 0, i);
      } else if (!control && out != null) {
        out.append(c);
      }
    }
    return out == null ? line : out.toString();
  }
}
