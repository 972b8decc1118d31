package dev.clique.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code clique ls}: the sessions, what each is doing and why it needs you. */
@Command(
    name = "ls",
    mixinStandardHelpOptions = true,
    description = "List the sessions: name, CLI, state, why it needs you, folder, age.")
final class LsCommand extends LocalCommand {
  @Option(names = "--json", description = "the engine's sessions as JSON")
  boolean json;

  @Override
  int run(LocalEngine engine, PrintWriter out) throws LocalEngine.Failure {
    JsonNode sessions = engine.get("/api/state").path("sessions");
    if (json) {
      out.println(sessions.toString());
      return ExitCodes.OK;
    }
    Colours colours = Colours.forTerminal(Environment.variables());
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"NAME", "CLI", "STATE", "WHY", "FOLDER", "AGE"});
    double now = System.currentTimeMillis() / 1000.0;
    for (JsonNode session : sessions) {
      JsonNode attention = session.path("attention");
      String why =
          attention.isObject()
              ? attention.path("kind").asText() + ": " + attention.path("detail").asText()
              : "";
      rows.add(
          new String[] {
            session.path("name").asText(),
            session.path("cli").asText(),
            session.path("state").asText(),
            why.length() > 60 ? why.substring(0, 59) + "…" : why,
            session.path("cwd").asText(),
            age(now - session.path("created").asDouble(now))
          });
    }
    int[] widths = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (int r = 0; r < rows.size(); r++) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < widths.length; i++) {
        String cell = String.format("%-" + widths[i] + "s", rows.get(r)[i]);
        line.append(r > 0 && i == 2 ? colours.state(rows.get(r)[i], cell) : cell);
        line.append(i < widths.length - 1 ? "  " : "");
      }
      out.println(line.toString().stripTrailing());
    }
    return ExitCodes.OK;
  }

  private static String age(double seconds) {
    long s = Math.max(0, (long) seconds);
    if (s < 60) {
      return s + "s";
    }
    if (s < 3600) {
      return s / 60 + "m";
    }
    if (s < 86_400) {
      return s / 3600 + "h";
    }
    return s / 86_400 + "d";
  }
}
