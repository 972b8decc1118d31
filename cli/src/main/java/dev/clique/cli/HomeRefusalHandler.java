package dev.clique.cli;

import dev.clique.engine.home.HomeRefusedException;
import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * How every command says that the engine refuses its home: the one sentence of the refusal on
 * stderr, exit status {@link ExitCodes#NOT_CONFIGURED}, as {@code clique serve} says it. Anything
 * else a command throws is left to picocli (a stack trace: a bug to report, not a set-up to mend).
 */
final class HomeRefusalHandler implements CommandLine.IExecutionExceptionHandler {
  @Override
  public int handleExecutionException(
      Exception failure, CommandLine command, CommandLine.ParseResult parsed) throws Exception {
    if (!(failure instanceof HomeRefusedException)) {
      throw failure;
    }
    PrintWriter err = command.getErr();
    err.println(command.getCommandSpec().qualifiedName() + ": " + failure.getMessage());
    err.flush();
    return ExitCodes.NOT_CONFIGURED;
  }
}
