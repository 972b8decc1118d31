package dev.clique.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code clique log NAME}: a session's conversation, from its CLI's own transcript. */
@Command(
    name = "log",
    mixinStandardHelpOptions = true,
    description = "Show a session's conversation, read from its CLI's own transcript.")
final class LogCommand extends LocalCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the session's name or id")
  String session;

  @Override
  int run(LocalEngine engine, PrintWriter out) throws LocalEngine.Failure {
    JsonNode found = SessionNames.find(engine, session);
    JsonNode turns = engine.get(SessionNames.path(found) + "/transcript").path("turns");
    if (turns.isEmpty()) {
      out.println("(no conversation yet)");
    }
    for (JsonNode turn : turns) {
      out.println(turn.path("role").asText() + ":");
      turn.path("text").asText().lines().forEach(line -> out.println("  " + line));
      out.println();
    }
    return ExitCodes.OK;
  }
}
