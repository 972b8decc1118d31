package dev.clique.bench;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes BENCHMARKS.md: the machine, then one table row per figure. */
final class Report {
  private Report() {}

  static String markdown(Machine machine, List<Figure> figures, String command, boolean quick) {
    return markdown(machine, figures, command, quick, "");
  }

  /**
   * As {@link #markdown(Machine, List, String, boolean)}, keeping the rows of {@code previous} (the
   * file as an earlier run wrote it) that this run did not measure, in their place; a figure
   * measured now replaces its old row, and new ones come last.
   */
  static String markdown(
      Machine machine, List<Figure> figures, String command, boolean quick, String previous) {
    Map<String, String> measured = new LinkedHashMap<>();
    for (Figure figure : figures) {
      measured.put(figure.name(), row(figure));
    }
    List<String> rows = new ArrayList<>();
    boolean kept = false;
    for (String line : previous.lines().toList()) {
      if (line.startsWith("## ")) {
        break; // the notes, kept whole below
      }
      String name = figureName(line);
      if (name == null) {
        continue;
      }
      String now = measured.remove(name);
      rows.add(now == null ? line : now);
      kept |= now == null;
    }
    rows.addAll(measured.values());
    StringBuilder out = new StringBuilder();
    out.append("# Benchmarks\n\n");
    out.append("Written by `")
        .append(command)
        .append("` on ")
        .append(ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_LOCAL_DATE))
        .append(quick ? " (quick setting: too few samples to trust)" : "")
        .append(". Medians, because the machine is shared and noisy; p95 where it applies.")
        .append(kept ? " Rows this run did not measure are kept from the file's earlier run." : "")
        .append("\n\n");
    out.append("| machine | |\n|---|---|\n");
    out.append("| cores | ").append(machine.cores()).append(" |\n");
    out.append("| memory | ").append(machine.memory()).append(" |\n");
    out.append("| JDK | ").append(machine.jdk()).append(" |\n");
    out.append("| OS | ").append(machine.os()).append(" |\n\n");
    out.append("| figure | median | p95 | target | met | how |\n|---|---|---|---|---|---|\n");
    for (String row : rows) {
      out.append(row).append('\n');
    }
    out.append(notes(previous));
    return out.toString();
  }

  /**
   * What {@code previous} says below the table, from its first {@code ## } heading on: the notes of
   * what a change gave, before and after, written by hand and kept by every run.
   */
  private static String notes(String previous) {
    int at = previous.startsWith("## ") ? 0 : previous.indexOf("\n## ");
    return at < 0 ? "" : "\n" + previous.substring(at == 0 ? 0 : at + 1).stripTrailing() + "\n";
  }

  private static String row(Figure figure) {
    return "| "
        + figure.name()
        + " | "
        + number(figure.median())
        + ' '
        + figure.unit()
        + " | "
        + (Double.isNaN(figure.p95()) ? "" : number(figure.p95()) + " " + figure.unit())
        + " | "
        + figure.target()
        + " | "
        + (figure.target().isEmpty() ? "" : figure.met() ? "met" : "**not met**")
        + " | "
        + figure.note()
        + " |";
  }

  /** The figure a line of the figures table is about, or null for any other line. */
  private static String figureName(String line) {
    if (!line.startsWith("| ") || line.startsWith("| figure |") || line.startsWith("|---")) {
      return null;
    }
    String[] cells = line.split(" \\| ", -1);
    // The figures table has six columns; the machine table two.
    return cells.length >= 6 ? cells[0].substring(2) : null;
  }

  /** A figure with the digits that matter: 0.412, 3.07, 182, 5,210; a whole number as one. */
  static String number(double value) {
    if (Double.isNaN(value)) {
      return "n/a";
    }
    double abs = Math.abs(value);
    if (abs >= 1000 || value == Math.rint(value)) {
      return String.format(Locale.ROOT, "%,.0f", value);
    }
    if (abs >= 100) {
      return String.format(Locale.ROOT, "%.0f", value);
    }
    if (abs >= 10) {
      return String.format(Locale.ROOT, "%.1f", value);
    }
    if (abs >= 1) {
      return String.format(Locale.ROOT, "%.2f", value);
    }
    return String.format(Locale.ROOT, "%.3f", value);
  }
}
