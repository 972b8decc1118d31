package dev.clique.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code clique peek NAME}: the last lines of a session's screen; of its conversation for a session
 * outside tmux, which has no screen (said first, on stderr, so the lines alone reach a pipe).
 */
@Command(
    name = "peek",
    mixinStandardHelpOptions = true,
    description = "Show the last lines of a session's screen (of its conversation outside tmux).")
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
    if (!peek.path("screen").asBoolean(true)) {
      PrintWriter err = spec.commandLine().getErr();
      err.println("(no screen: it runs outside tmux; the last lines of its conversation)");
      err.flush();
    }
    peek.path("lines").forEach(line -> out.println(line.asText()));
    return ExitCodes.OK;
  }
}
