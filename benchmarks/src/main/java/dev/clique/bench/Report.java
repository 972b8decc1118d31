package dev.clique.bench;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/** Writes BENCHMARKS.md: the machine, then one table row per figure. */
final class Report {
  private Report() {}

  static String markdown(Machine machine, List<Figure> figures, String command, boolean quick) {
    StringBuilder out = new StringBuilder();
    out.append("# Benchmarks\n\n");
    out.append("Written by `")
        .append(command)
        .append("` on ")
        .append(ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_LOCAL_DATE))
        .append(quick ? " (quick setting: too few samples to trust)" : "")
        .append(". Medians, because the machine is shared and noisy; p95 where it applies.\n\n");
    out.append("| machine | |\n|---|---|\n");
    out.append("| cores | ").append(machine.cores()).append(" |\n");
    out.append("| memory | ").append(machine.memory()).append(" |\n");
    out.append("| JDK | ").append(machine.jdk()).append(" |\n");
    out.append("| OS | ").append(machine.os()).append(" |\n\n");
    out.append("| figure | median | p95 | target | met | how |\n|---|---|---|---|---|---|\n");
    for (Figure figure : figures) {
      out.append("| ")
          .append(figure.name())
          .append(" | ")
          .append(number(figure.median()))
          .append(' ')
          .append(figure.unit())
          .append(" | ")
          .append(Double.isNaN(figure.p95()) ? "" : number(figure.p95()) + " " + figure.unit())
          .append(" | ")
          .append(figure.target())
          .append(" | ")
          .append(figure.target().isEmpty() ? "" : figure.met() ? "met" : "**not met**")
          .append(" | ")
          .append(figure.note())
          .append(" |\n");
    }
    return out.toString();
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
