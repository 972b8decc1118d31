package dev.clique.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code clique rm NAME}: ends the session and forgets it. */
@Command(name = "rm", mixinStandardHelpOptions = true, description = "End a session and forget it.")
final class RmCommand extends LocalCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the session's name or id")
  String session;

  @Override
  int run(LocalEngine engine, PrintWriter out) throws LocalEngine.Failure {
    engine.delete(SessionNames.path(SessionNames.find(engine, session)));
    return ExitCodes.OK;
  }
}
