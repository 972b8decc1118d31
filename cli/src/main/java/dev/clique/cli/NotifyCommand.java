package dev.clique.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.engine.EngineSettings;
import dev.clique.engine.home.CliqueHome;
import dev.clique.engine.notify.NotifyTargets;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code clique notify}: the targets of {@code notify.toml}, the events and sessions each wants,
 * and how the running engine's last delivery to each ended; the file's mistakes, with their lines.
 */
@Command(
    name = "notify",
    mixinStandardHelpOptions = true,
    description =
        "List the notification targets of notify.toml (a URL's path and query masked), the events"
            + " and sessions each wants, and the last delivery the running engine made to each.",
    subcommands = {NotifyTestCommand.class})
final class NotifyCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    CliqueHome home = EngineSettings.fromEnvironment(Environment.variables()).home();
    PrintWriter out = spec.commandLine().getOut();
    NotifyTargets.Listing file = NotifyTargets.read(home.notifyFile());
    List<Row> rows = new ArrayList<>();
    String engineSays;
    try {
      JsonNode answer = LocalEngine.of(Environment.variables()).get("/api/notify");
      for (JsonNode target : answer.path("targets")) {
        rows.add(Row.of(target));
      }
      engineSays = "as the running engine tells them";
    } catch (LocalEngine.Failure | IOException | RuntimeException e) {
      file.targets().forEach(target -> rows.add(Row.of(target)));
      engineSays = "as the file says them; no delivery is known: " + e.getMessage();
    }
    out.println("notify: " + home.notifyFile() + (rows.isEmpty() ? "" : " (" + engineSays + ")"));
    if (rows.isEmpty()) {
      out.println("  no target: add a [[webhook]] or a [[command]] (README, \"Notifications\")");
    }
    for (Row row : rows) {
      row.print(out);
    }
    printProblems(out, file.problems());
    out.flush();
    return file.problems().isEmpty() ? ExitCodes.OK : ExitCodes.NOT_CONFIGURED;
  }

  /** Each mistake of the file, with its file and line, as the engine's log says it once. */
  static void printProblems(PrintWriter out, List<String> problems) {
    if (problems.isEmpty()) {
      return;
    }
    out.println("mistakes in the file (the targets they are in are left out):");
    problems.forEach(problem -> out.println("  " + problem));
  }

  /** One target as it is printed. */
  private record Row(String target, List<String> events, String cli, String name, String last) {
    static Row of(NotifyTargets.Status status) {
      return new Row(status.target(), status.events(), status.cli(), status.name(), null);
    }

    static Row of(JsonNode target) {
      List<String> events = new ArrayList<>();
      target.path("events").forEach(event -> events.add(event.asText()));
      JsonNode last = target.path("last");
      String said =
          last.isObject()
              ? last.path("at").asText()
                  + " "
                  + last.path("event").asText()
                  + ": "
                  + (last.path("delivered").asBoolean() ? "" : "failed, ")
                  + last.path("said").asText()
              : "none yet";
      return new Row(
          target.path("target").asText(),
          events,
          text(target.path("cli")),
          text(target.path("name")),
          said);
    }

    private static String text(JsonNode node) {
      return node.isTextual() ? node.asText() : null;
    }

    void print(PrintWriter out) {
      out.println("  " + target);
      out.println("    events: " + String.join(", ", events));
      if (cli != null || name != null) {
        out.println(
            "    only:   "
                + (cli == null ? "any CLI" : "cli " + cli)
                + ", "
                + (name == null ? "any name" : "name " + name));
      }
      if (last != null) {
        out.println("    last:   " + last);
      }
    }
  }
}
