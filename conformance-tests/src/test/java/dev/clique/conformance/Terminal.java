package dev.clique.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A person's terminal: a shell ({@code bash --norc}) in a folder, on a real terminal of 200 by 50,
 * with {@code env} as its environment, that a test types into and looks at. It is a tmux pane on a
 * socket of its own in {@code dir} (never a socket directory discovery looks in), and the shell
 * sees no {@code TMUX}: what it runs behaves as in any terminal window. Closing it stops that
 * server only.
 */
final class Terminal implements AutoCloseable {
  private final Path socket;

  private Terminal(Path socket) {
    this.socket = socket;
  }

  /** Opens a terminal whose socket is in {@code dir} and whose shell starts in {@code folder}. */
  static Terminal open(Path dir, Path folder, Map<String, String> env)
      throws IOException, InterruptedException {
    Terminal terminal = new Terminal(dir.resolve("terminal"));
    List<String> command = new ArrayList<>(terminal.tmux());
    command.addAll(
        List.of(
            "new-session",
            "-d",
            "-x",
            "200",
            "-y",
            "50",
            "-c",
            folder.toString(),
            "env -u TMUX -u TMUX_PANE bash --norc --noprofile"));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().clear();
    builder.environment().putAll(env);
    builder.environment().putIfAbsent("TERM", "xterm-256color");
    run(builder, "tmux new-session");
    try {
      terminal.awaitScreen(screen -> !screen.isBlank(), Duration.ofSeconds(10)); // the prompt
    } catch (IOException | AssertionError e) {
      terminal.close();
      throw e;
    }
    return terminal;
  }

  /** Types {@code line} and presses Enter, as a person does. */
  void type(String line) throws IOException, InterruptedException {
    tmux("send-keys", "-t", "=0:", "-l", line);
    tmux("send-keys", "-t", "=0:", "Enter");
  }

  /** Presses one key by its tmux name ({@code C-c}, {@code Enter}). */
  void press(String key) throws IOException, InterruptedException {
    tmux("send-keys", "-t", "=0:", key);
  }

  /** The screen's text as a person sees it now. */
  String screen() throws IOException, InterruptedException {
    return tmux("capture-pane", "-p", "-t", "=0:");
  }

  /** The screen with its colours and attributes as escape sequences. */
  String screenWithColours() throws IOException, InterruptedException {
    return tmux("capture-pane", "-p", "-e", "-t", "=0:");
  }

  /**
   * A tmux format of the terminal's pane, e.g. {@code #{alternate_on}} or {@code #{cursor_flag}}.
   */
  String format(String format) throws IOException, InterruptedException {
    return tmux("display-message", "-p", "-t", "=0:", format).strip();
  }

  /** Waits until the screen is as {@code wanted}; fails with the screen when it is not in time. */
  String awaitScreen(Predicate<String> wanted, Duration within)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    String screen = screen();
    while (!wanted.test(screen)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "the terminal did not show what was wanted in " + within + ":\n" + screen);
      }
      Thread.sleep(50);
      screen = screen();
    }
    return screen;
  }

  private List<String> tmux() {
    return List.of("tmux", "-S", socket.toString(), "-f", "/dev/null");
  }

  private String tmux(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(tmux());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(k -> k.startsWith("TMUX"));
    return run(builder, "tmux " + args[0]);
  }

  private static String run(ProcessBuilder builder, String what)
      throws IOException, InterruptedException {
    Process process = builder.start();
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException(what + " failed: " + err);
    }
    return out;
  }

  @Override
  public void close() throws IOException {
    try {
      tmux("kill-server");
    } catch (IOException e) {
      // the server had already gone
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    Files.deleteIfExists(socket);
  }
}
