package dev.clique.conformance;

import dev.clique.engine.tmux.TmuxProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The suites' own small use of tmux: looking at a socket and cleaning up their own. */
final class Tmux {
  private Tmux() {}

  /** {@code tmux -L socket list-sessions}: the names, empty when no server runs there. */
  static List<String> sessions(String socket) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder("tmux", "-L", socket, "list-sessions", "-F", "#{session_name}")
            .redirectErrorStream(false)
            .start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    process.getErrorStream().readAllBytes();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException("tmux list-sessions hung");
    }
    List<String> names = new ArrayList<>();
    if (process.exitValue() == 0) {
      for (String line : out.split("\n")) {
        if (!line.isBlank()) {
          names.add(line.strip());
        }
      }
    }
    return names;
  }

  /** Stops the tmux server on a socket this suite made; never called on {@code clique}. */
  static void killServer(String socket) throws IOException, InterruptedException {
    if (socket.equals("clique") || socket.equals("default")) {
      throw new IllegalArgumentException("the suites never kill a real tmux server: " + socket);
    }
    // The engine's own tmux runner: it also removes the socket file tmux leaves behind.
    new TmuxProcess("tmux", socket, Duration.ofSeconds(10)).killServer();
  }
}
