package dev.clique.engine.tmux;

import static dev.clique.engine.tmux.ProcFs.parseLong;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** The formats a listing of panes asks tmux for, and the rows it answers read back. */
final class PaneListing {
  private static final String FIELD = "\u001f"; // unit separator: cannot appear in the fields
  private static final int PANE_FIELDS = 15;

  /** A pane id ({@code %12}): unique on its server for the server's lifetime. */
  static final Pattern PANE_ID = Pattern.compile("%[0-9]+");

  /**
   * A pane's fields, the command left empty: tmux reads a file under {@code /proc} for it, which
   * would count as work of the server's ({@link Tmux#activity}); it is read from {@code /proc} when
   * asked. The title comes last: it is the one field a program chooses, so it may hold anything.
   */
  static final String QUIET_FORMAT =
      String.join(
          FIELD,
          "#{session_name}",
          "",
          "#{window_activity}",
          "#{pane_width}",
          "#{pane_height}",
          "#{session_attached}",
          "#{pane_pid}",
          "#{pane_dead}",
          "#{pane_dead_status}",
          "#{pane_dead_time}",
          "#{history_size}",
          "#{cursor_x}",
          "#{cursor_y}",
          "#{" + HomeMark.ID_OPTION + "}",
          "#{pane_title}");

  /**
   * Every pane of a server, one row each: its id and place first, then what {@link PaneInfo} holds.
   */
  static final String EVERY_PANE_FORMAT =
      String.join(FIELD, "#{pane_id}", "#{window_index}", "#{pane_current_path}", QUIET_FORMAT);

  private static final int EVERY_PANE_FIELDS = 3 + PANE_FIELDS;

  private PaneListing() {}

  /** A session of clique's by its exact name, or one pane by its id ({@code %12}). */
  static String target(String name) {
    return PANE_ID.matcher(name).matches() ? name : "=" + name + ":";
  }

  static List<ServerPane> parseEveryPane(String listing) {
    List<ServerPane> panes = new ArrayList<>();
    for (String line : listing.split("\n")) {
      String[] f = line.split(FIELD, EVERY_PANE_FIELDS);
      if (f.length < EVERY_PANE_FIELDS || !PANE_ID.matcher(f[0]).matches()) {
        continue;
      }
      String rest = String.join(FIELD, Arrays.copyOfRange(f, 3, f.length));
      List<PaneInfo> info = parsePanes(rest);
      if (!info.isEmpty()) {
        panes.add(new ServerPane(f[0], (int) parseLong(f[1]), f[2], info.get(0)));
      }
    }
    return panes;
  }

  static List<PaneInfo> parsePanes(String listing) {
    return parsePanes(listing, "");
  }

  /** The panes of a listing; {@code controlSession} has the control client among its clients. */
  static List<PaneInfo> parsePanes(String listing, String controlSession) {
    List<PaneInfo> panes = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String line : listing.split("\n")) {
      String[] f = line.split(FIELD, PANE_FIELDS);
      if (f.length < PANE_FIELDS || !seen.add(f[0])) {
        continue; // the first pane of each session speaks for it
      }
      panes.add(
          new PaneInfo(
              f[0],
              f[1],
              parseLong(f[2]),
              (int) parseLong(f[3]),
              (int) parseLong(f[4]),
              parseLong(f[5]) - (f[0].equals(controlSession) ? 1 : 0) > 0,
              parseLong(f[6]),
              "1".equals(f[7]),
              "1".equals(f[7]) && !f[8].isBlank() ? (int) parseLong(f[8]) : -1,
              // Reaped (a time of death) with no exit status: a signal ended it.
              "1".equals(f[7]) && f[8].isBlank() && !f[9].isBlank() ? 0 : -1,
              parseLong(f[10]),
              (int) parseLong(f[11]),
              (int) parseLong(f[12]),
              f[14],
              f[13]));
    }
    return panes;
  }
}
