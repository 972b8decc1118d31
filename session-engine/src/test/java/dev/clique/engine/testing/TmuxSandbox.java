package dev.clique.engine.testing;

import dev.clique.engine.tmux.TmuxProcess;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A tmux server of the test's own: socket {@code clique-test-<uuid>}, never the real one. Closing
 * it kills that server and nothing else.
 */
public final class TmuxSandbox implements AutoCloseable {
  private final String socket = "clique-test-" + UUID.randomUUID();
  private final TmuxProcess tmux = new TmuxProcess("tmux", socket, Duration.ofSeconds(5));

  public String socket() {
    return socket;
  }

  public TmuxProcess tmux() {
    return tmux;
  }

  /** Runs a tmux command on this socket the way a person in a terminal would. */
  public void outside(String... args) throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>(List.of("tmux", "-L", socket));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove("TMUX");
    Process process = builder.start();
    process.getOutputStream().close();
    process.getInputStream().readAllBytes();
    if (!process.waitFor(5, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException("tmux " + String.join(" ", args) + " did not finish");
    }
  }

  @Override
  public void close() {
    tmux.killServer();
  }
}
