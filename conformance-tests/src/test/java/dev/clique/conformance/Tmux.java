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

  /** Runs {@code tmux -L socket ARGS} and returns its stdout; fails when tmux does. */
  static String run(String socket, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("tmux", "-L", socket));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException("tmux " + String.join(" ", args) + " failed: " + err);
    }
    return out;
  }

  /** The pid of the process a session's pane started. */
  static long panePid(String socket, String session) throws IOException, InterruptedException {
    return Long.parseLong(
        run(socket, "display-message", "-p", "-t", "=" + session + ":", "#{pane_pid}").strip());
  }

  /** Whether the session's pane is dead: its process ended and tmux keeps the pane. */
  static boolean paneDead(String socket, String session) {
    try {
      return run(socket, "display-message", "-p", "-t", "=" + session + ":", "#{pane_dead}")
          .strip()
          .equals("1");
    } catch (IOException e) {
      return false; // no such session (any more)
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
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
