package dev.clique.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.engine.EngineSettings;
import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.discovery.CliVersions;
import dev.clique.engine.home.CliqueHome;
import dev.clique.engine.notify.NotifyTargets;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code clique doctor}: where clique keeps its files and sessions, whether tmux is there, how the
 * running engine watches each tmux server, and which CLIs are installed, at which version, next to
 * the versions the catalogue's patterns were proven on.
 */
@Command(
    name = "doctor",
    mixinStandardHelpOptions = true,
    description =
        "Show where clique keeps its files and sessions, whether tmux is installed, how the running"
            + " engine watches each tmux server (by events or by polling, and why), and each CLI's"
            + " installed version next to the versions clique was proven on.")
final class DoctorCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    EngineSettings settings = EngineSettings.fromEnvironment(Environment.variables());
    CliqueHome home = settings.home();
    PrintWriter out = spec.commandLine().getOut();
    boolean homeUsable = !Files.exists(home.dir()) || Files.isDirectory(home.dir());
    out.println("home:   " + home.dir() + " (" + describe(home) + ")");
    out.println("state:  " + home.stateFile());
    out.println("tokens: " + home.tokensFile());
    out.println("clis:   " + home.clisFile() + (Files.exists(home.clisFile()) ? "" : " (none)"));
    out.println("socket: " + settings.tmuxSocket());
    String tmux = tmuxVersion();
    out.println(
        "tmux:   " + (tmux == null ? "not installed: install it (apt-get install tmux)" : tmux));
    printWatches(out);
    printNotify(out, home);
    printClis(out, CliCatalogue.load(home.clisFile(), settings.path(), settings.userHome()));
    out.flush();
    return tmux == null || !homeUsable ? ExitCodes.NOT_CONFIGURED : ExitCodes.OK;
  }

  /**
   * One line a CLI: its id, the version installed (or that it is not), and the versions the
   * catalogue's patterns were proven on; a version outside them is marked, since a screen it
   * changed may be misread.
   */
  private static void printClis(PrintWriter out, CliCatalogue catalogue) {
    CliVersions versions = CliVersions.system(catalogue);
    out.println("versions: each CLI's installed, and those its patterns were proven on");
    for (CliDefinition cli : catalogue.all()) {
      String installed;
      if (catalogue.resolve(cli).isEmpty()) {
        installed = "not installed";
      } else {
        installed = versions.installed(cli).orElse("installed, version unknown");
      }
      // A shell's states come from its foreground command, not from patterns of its screen.
      String proven =
          cli.isShell()
              ? "proven on any version"
              : cli.proven().isEmpty()
                  ? "recognised only: proven on no version"
                  : "proven on " + String.join(", ", cli.proven());
      boolean unproven =
          !cli.proven().isEmpty()
              && catalogue.resolve(cli).isPresent()
              && !cli.proven().contains(installed);
      out.printf(
          "  %-10s %-26s %s%s%n",
          cli.id(), installed, proven, unproven ? "  (not the version proven)" : "");
    }
  }

  /**
   * One line a tmux server the home's running engine watches (its own, each discovered one): by
   * events or by polling, and why; asked of the engine over its operator socket.
   */
  private static void printWatches(PrintWriter out) {
    JsonNode health;
    try {
      health = LocalEngine.of(Environment.variables()).get("/healthz");
    } catch (LocalEngine.Failure | IOException | RuntimeException e) {
      out.println("watch:  " + e.getMessage());
      return;
    }
    JsonNode servers = health.path("tmux_servers");
    if (servers.isEmpty()) {
      out.println("watch:  the engine names no tmux server it watches");
      return;
    }
    out.println("watch:  how the engine learns what each tmux server did");
    for (JsonNode server : servers) {
      out.printf(
          "  %s: by %s (%s)%n",
          server.path("socket").asText(),
          server.path("watched_by").asText(),
          server.path("why").asText());
    }
  }

  /** The notification targets of {@code notify.toml}, and its mistakes with their lines. */
  private static void printNotify(PrintWriter out, CliqueHome home) {
    NotifyTargets.Listing file = NotifyTargets.read(home.notifyFile());
    if (file.targets().isEmpty() && file.problems().isEmpty()) {
      out.println(
          "notify: "
              + home.notifyFile()
              + (Files.exists(home.notifyFile()) ? " (no target)" : " (none)"));
      return;
    }
    out.println("notify: " + home.notifyFile() + " (`clique notify` for the last deliveries)");
    for (NotifyTargets.Status target : file.targets()) {
      out.println("  " + target.target() + ": " + String.join(", ", target.events()));
    }
    NotifyCommand.printProblems(out, file.problems());
  }

  private static String describe(CliqueHome home) {
    if (!Files.exists(home.dir())) {
      return "not made yet";
    }
    if (!Files.isDirectory(home.dir())) {
      return "a file, not a directory: point CLIQUE_HOME at a directory";
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
