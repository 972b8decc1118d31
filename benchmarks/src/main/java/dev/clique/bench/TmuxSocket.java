package dev.clique.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A benchmark engine's tmux server, reached by its socket name with the environment that places its
 * socket ({@code TMUX_TMPDIR}), as the benchmark looks at it from outside the engine.
 */
record TmuxSocket(String name, Map<String, String> env) {
  /** Runs {@code tmux -L name args...} and returns what it printed (its errors included). */
  String run(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("tmux", "-L", name));
    command.addAll(List.of(args));
    ProcessBuilder tmux = new ProcessBuilder(command).redirectErrorStream(true);
    tmux.environment().putAll(env);
    Process running = tmux.start();
    String out = new String(running.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    running.waitFor(5, TimeUnit.SECONDS);
    return out;
  }

  /** The pane of session {@code id} as it shows now, wrapped lines joined. */
  String capture(String id) throws IOException, InterruptedException {
    return run("capture-pane", "-p", "-J", "-t", id);
  }

  /** The server's pid, or -1 when none runs (no session was made). */
  long serverPid() throws IOException, InterruptedException {
    try {
      return Long.parseLong(run("display-message", "-p", "#{pid}").strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Stops the server and every pane in it. */
  void kill() throws IOException, InterruptedException {
    run("kill-server");
  }
}
