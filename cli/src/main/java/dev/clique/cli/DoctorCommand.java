package dev.clique.cli;

import dev.clique.engine.EngineSettings;
import dev.clique.engine.home.CliqueHome;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code clique doctor}: where clique keeps its files and sessions, and whether tmux is there. */
@Command(
    name = "doctor",
    mixinStandardHelpOptions = true,
    description = "Show where clique keeps its files and sessions, and whether tmux is installed.")
final class DoctorCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    EngineSettings settings = EngineSettings.fromEnvironment(Environment.variables());
    CliqueHome home = settings.home();
    PrintWriter out = spec.commandLine().getOut();
    out.println("home:   " + home.dir() + " (" + describe(home) + ")");
    out.println("state:  " + home.stateFile());
    out.println("tokens: " + home.tokensFile());
    out.println("clis:   " + home.clisFile() + (Files.exists(home.clisFile()) ? "" : " (none)"));
    out.println("socket: " + settings.tmuxSocket());
    String tmux = tmuxVersion();
    out.println(
        "tmux:   " + (tmux == null ? "not installed: install it (apt-get install tmux)" : tmux));
    out.flush();
    return tmux == null ? ExitCodes.NOT_CONFIGURED : ExitCodes.OK;
  }

  private static String describe(CliqueHome home) {
    if (!Files.isDirectory(home.dir())) {
      return "not made yet";
    }
    try {
      return "mode " + PosixFilePermissions.toString(Files.getPosixFilePermissions(home.dir()));
    } catch (IOException | UnsupportedOperationException e) {
      return "exists";
    }
  }

  private static String tmuxVersion() {
    try {
      Process process = new ProcessBuilder("tmux", "-V").redirectErrorStream(true).start();
      String version = new String(process.getInputStream().readAllBytes()).strip();
      return process.waitFor(5, TimeUnit.SECONDS) && process.exitValue() == 0 ? version : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
