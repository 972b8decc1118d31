package dev.clique.cli;

import dev.clique.engine.EngineSettings;
import dev.clique.engine.home.CliqueHome;
import dev.clique.engine.notify.NotifyTargets;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code clique notify test}: one test message to each target of {@code notify.toml}, sent from
 * this command, not through the engine: it tests the file as it is now, engine or none, and the
 * engine keeps no route that makes it post on a caller's word.
 */
@Command(
    name = "test",
    mixinStandardHelpOptions = true,
    description =
        "Send one test message to each target of notify.toml now, from this command, and say what"
            + " each answered; exit 1 if any failed.")
final class NotifyTestCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws InterruptedException {
    CliqueHome home = EngineSettings.fromEnvironment(Environment.variables()).home();
    PrintWriter out = spec.commandLine().getOut();
    NotifyTargets.Listing file = NotifyTargets.read(home.notifyFile());
    if (file.targets().isEmpty()) {
      spec.commandLine()
          .getErr()
          .println(
              "clique notify test: "
                  + home.notifyFile()
                  + " has no target: add a [[webhook]] or a [[command]] (README, \"Notifications\")");
      NotifyCommand.printProblems(spec.commandLine().getErr(), file.problems());
      return ExitCodes.NOT_CONFIGURED;
    }
    List<NotifyTargets.Status> answers = NotifyTargets.test(home.notifyFile(), null);
    boolean failed = false;
    for (NotifyTargets.Status answer : answers) {
      boolean delivered = answer.last().delivered();
      failed |= !delivered;
      out.println(
          "  " + answer.target() + ": " + (delivered ? "" : "FAILED: ") + answer.last().said());
    }
    NotifyCommand.printProblems(out, file.problems());
    out.flush();
    return failed || !file.problems().isEmpty() ? ExitCodes.NOT_CONFIGURED : ExitCodes.OK;
  }
}
