package dev.clique.conformance;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A plain terminal of the test's own: {@code plain-terminal.py} runs the command on a new
 * pseudo-terminal (200 by 50), writes what the test types to it as keys and logs what it draws.
 */
final class PlainTerminal implements AutoCloseable {
  final long pid;
  private final Process helper;
  private final long forkedAt;
  private final OutputStream keys;

  private PlainTerminal(Process helper, long pid, long forkedAt) {
    this.helper = helper;
    this.pid = pid;
    this.forkedAt = forkedAt;
    this.keys = helper.getOutputStream();
  }

  static PlainTerminal open(Path folder, Map<String, String> env, List<String> command)
      throws IOException {
    Path script = Files.createTempFile("plain-terminal-", ".py");
    try (InputStream in = PlainTerminal.class.getResourceAsStream("/plain-terminal.py")) {
      Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
    }
    List<String> argv =
        new ArrayList<>(
            List.of("python3", script.toString(), Path.of(env.get("HOME"), "screen").toString()));
    argv.addAll(command);
    ProcessBuilder builder = new ProcessBuilder(argv).directory(folder.toFile());
    builder.environment().clear();
    builder.environment().putAll(env);
    builder.environment().put("TERM", "xterm-256color");
    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
    Process helper = builder.start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(helper.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    long forkedAt = System.nanoTime();
    if (line == null) {
      throw new IOException("the terminal did not start " + command);
    }
    return new PlainTerminal(helper, Long.parseLong(line.strip()), forkedAt);
  }

  Duration sinceFork() {
    return Duration.ofNanos(System.nanoTime() - forkedAt);
  }

  /** Types {@code text} as keys (no Enter), then lets the CLI draw it. */
  void type(String text) throws IOException, InterruptedException {
    keys.write(text.getBytes(StandardCharsets.UTF_8));
    keys.flush();
    Thread.sleep(500); // typed apart from Enter, as a person does: no paste
  }

  void enter() throws IOException {
    keys.write('\n');
    keys.flush();
  }

  /**
   * Closes the terminal (its command gets SIGHUP) and waits for the command to end.
   *
   * @return when it ended, as {@link System#nanoTime()}
   */
  long closeAndAwaitEnd() throws IOException, InterruptedException {
    ProcessHandle cli = ProcessHandle.of(pid).orElse(null);
    keys.close();
    while (cli != null && cli.isAlive()) {
      Thread.sleep(5);
    }
    long ended = System.nanoTime();
    helper.waitFor(10, TimeUnit.SECONDS);
    return ended;
  }

  @Override
  public void close() {
    try {
      keys.close();
    } catch (IOException e) {
      // closed already
    }
    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
    helper.destroy();
  }
}
