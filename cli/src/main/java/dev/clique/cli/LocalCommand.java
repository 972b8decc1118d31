package dev.clique.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;

/**
 * What the human commands share: they reach the engine over its operator socket, and say a refusal
 * as one line on stderr with its exit status (a refused home, as every command says it: {@link
 * HomeRefusalHandler}).
 */
abstract class LocalCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** Does the command's work; a refusal is a {@link LocalEngine.Failure}. */
  abstract int run(LocalEngine engine, PrintWriter out) throws LocalEngine.Failure;

  @Override
  public final Integer call() throws IOException {
    LocalEngine engine = LocalEngine.of(Environment.variables());
    PrintWriter out = spec.commandLine().getOut();
    try {
      int code = run(engine, out);
      out.flush();
      return code;
    } catch (LocalEngine.Failure failure) {
      out.flush();
      PrintWriter err = spec.commandLine().getErr();
      err.println("clique " + spec.name() + ": " + failure.getMessage());
      err.flush();
      return failure.exitCode;
    }
  }
}
