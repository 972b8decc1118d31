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
  /** How long one held request of {@code --watch} lasts: the ages are redrawn this often. */
  private static final int WATCH_SECONDS = 30;

  @Option(names = "--json", description = "the engine's sessions as JSON")
  boolean json;

  @Option(
      names = "--watch",
      description =
          "Redraw on every change of a session (it appears, goes, or changes state), until Ctrl-C."
              + " Off a terminal, one table (or JSON line) per change.")
  boolean watch;

  @Override
  int run(LocalEngine engine, PrintWriter out) throws LocalEngine.Failure {
    JsonNode state = engine.get("/api/state");
    Colours colours = Colours.forTerminal(Environment.variables());
    if (!watch) {
      print(state, colours, out);
      return ExitCodes.OK;
    }
    if (!state.path("revision").isIntegralNumber()) {
      throw new LocalEngine.Failure(
          "this engine has no change feed to watch: run the clique serve of this version",
          ExitCodes.NOT_CONFIGURED);
    }
    Screen screen = Screen.open(out, System.console() != null);
    try {
      long revision = state.path("revision").asLong();
      screen.draw(lines(state, colours));
      while (true) {
        JsonNode next;
        try {
          // Held by the engine until something changes: no polling here.
          next = engine.get("/api/state?after=" + revision + "&timeout=" + WATCH_SECONDS);
        } catch (LocalEngine.Failure failed) {
          // An engine that stopped meanwhile cut the answer short: a new request says so plainly.
          engine.get("/api/state");
          throw failed;
        }
        long nextRevision = next.path("revision").asLong();
        if (nextRevision != revision || screen.terminal()) {
          screen.draw(lines(next, colours)); // on a terminal also when only the ages moved
        }
        revision = nextRevision;
      }
    } finally {
      screen.close();
    }
  }

  private void print(JsonNode state, Colours colours, PrintWriter out) {
    lines(state, colours).forEach(out::println);
  }

  private List<String> lines(JsonNode state, Colours colours) {
    JsonNode sessions = state.path("sessions");
    if (json) {
      return List.of(sessions.toString());
    }
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
    List<String> lines = new ArrayList<>();
    for (int r = 0; r < rows.size(); r++) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < widths.length; i++) {
        String cell = String.format("%-" + widths[i] + "s", rows.get(r)[i]);
        line.append(r > 0 && i == 2 ? colours.state(rows.get(r)[i], cell) : cell);
        line.append(i < widths.length - 1 ? "  " : "");
      }
      lines.add(line.toString().stripTrailing());
    }
    return lines;
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
