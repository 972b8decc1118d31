package dev.clique.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code clique peek NAME}: the last lines of a session's screen. */
@Command(
    name = "peek",
    mixinStandardHelpOptions = true,
    description = "Show the last lines of a session's screen.")
final class PeekCommand extends LocalCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the session's name or id")
  String session;

  @Option(
      names = "-n",
      defaultValue = "40",
      description = "how many lines (default ${DEFAULT-VALUE})")
  int lines;

  @Override
  int run(LocalEngine engine, PrintWriter out) throws LocalEngine.Failure {
    JsonNode found = SessionNames.find(engine, session);
    JsonNode peek = engine.get(SessionNames.path(found) + "/peek?lines=" + Math.max(1, lines));
    peek.path("lines").forEach(line -> out.println(line.asText()));
    return ExitCodes.OK;
  }
}
