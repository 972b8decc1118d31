package dev.clique.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code clique start NAME}: starts a stopped session's CLI again, in its folder. */
@Command(
    name = "start",
    mixinStandardHelpOptions = true,
    description = "Start a stopped session's CLI again.")
final class StartCommand extends LocalCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the session's name or id")
  String session;

  @Override
  int run(LocalEngine engine, PrintWriter out) throws LocalEngine.Failure {
    engine.post(SessionNames.path(SessionNames.find(engine, session)) + "/start", null);
    return ExitCodes.OK;
  }
}
