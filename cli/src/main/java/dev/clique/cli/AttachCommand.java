package dev.clique.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.engine.EngineSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code clique attach NAME}: tmux's own attach, on the server and target the session lives on (a
 * person typing into their own terminal; clique itself never types).
 */
@Command(
    name = "attach",
    mixinStandardHelpOptions = true,
    description = "Attach this terminal to a session (tmux attach; detach with C-b d).")
final class AttachCommand extends LocalCommand {
  @Parameters(index = "0", paramLabel = "NAME", description = "the session's name or id")
  String session;

  @Override
  int run(LocalEngine engine, PrintWriter out) throws LocalEngine.Failure {
    if (!Terminal.isStdin()) {
      // tmux would only say "open terminal failed: not a terminal"
      throw new LocalEngine.Failure(
          "attach needs a terminal (stdin is not one): run it in a terminal, or see the session's"
              + " screen from here with `clique peek "
              + session
              + "`",
          ExitCodes.USAGE);
    }
    JsonNode found = SessionNames.find(engine, session);
    JsonNode source = found.path("source");
    List<String> command =
        source.isObject()
            ? List.of(
                "tmux",
                "-S",
                source.path("socket").asText(),
                "attach-session",
                "-t",
                "=" + source.path("session").asText())
            : List.of(
                "tmux",
                "-L",
                EngineSettings.fromEnvironment(Environment.variables()).tmuxSocket(),
                "attach-session",
                "-t",
                "=" + found.path("id").asText());
    out.flush();
    try {
      Process tmux = new ProcessBuilder(command).inheritIO().start();
      return tmux.waitFor();
    } catch (IOException e) {
      throw new LocalEngine.Failure(
          "tmux could not be started: " + e.getMessage(), ExitCodes.NOT_CONFIGURED);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ExitCodes.NOT_CONFIGURED;
    }
  }
}
