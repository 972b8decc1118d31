package dev.clique.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code clique stop NAME}: ends the session's CLI (its whole process tree); the record stays. */
@Command(
    name = "stop",
    mixinStandardHelpOptions = true,
    description = "Stop a session's CLI; the session stays, to start again.")
final class StopCommand extends LocalCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the session's name or id")
  String session;

  @Override
  int run(LocalEngine engine, PrintWriter out) throws LocalEngine.Failure {
    engine.post(SessionNames.path(SessionNames.find(engine, session)) + "/kill", null);
    return ExitCodes.OK;
  }
}
