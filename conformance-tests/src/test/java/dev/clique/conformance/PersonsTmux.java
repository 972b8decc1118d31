package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A tmux server of a person's own, as {@code tmux new -s NAME} makes it, on a socket of a throwaway
 * {@code TMUX_TMPDIR}: what discovery finds. Its session {@code work} can be looked at and typed
 * into as the person does. Closing it stops every server of that directory (and the terminal it was
 * typed in) and removes the directory.
 */
final class PersonsTmux implements AutoCloseable {
  final Path tmpdir;
  final Path socket;
  private final Terminal terminal;

  private PersonsTmux(Path tmpdir, Path socket, Terminal terminal) {
    this.tmpdir = tmpdir;
    this.socket = socket;
    this.terminal = terminal;
  }

  /** A throwaway {@code TMUX_TMPDIR} with its socket directory for this user, as tmux makes it. */
  private static Path socketDirectory(Path tmpdir) throws IOException {
    Path socketDir =
        Files.createDirectories(
            tmpdir.resolve("tmux-" + Files.getAttribute(Path.of("/proc/self/"), "unix:uid")));
    Files.setPosixFilePermissions(socketDir, PosixFilePermissions.fromString("rwx------"));
    return socketDir;
  }

  /**
   * Opens a terminal in {@code folder} whose shell has {@code env} and {@code TMUX_TMPDIR} (the
   * throwaway one) and types {@code commandLine} into it, literally, as a person does: {@code tmux
   * new -s work claude} starts the server on the default socket there and attaches to it in that
   * terminal.
   */
  static PersonsTmux typedInATerminal(Path folder, Map<String, String> env, String commandLine)
      throws Exception {
    Path tmpdir = Files.createTempDirectory("clique-it-tmux-");
    Path socket = socketDirectory(tmpdir).resolve("default");
    Map<String, String> shell = new HashMap<>(env);
    shell.put("TMUX_TMPDIR", tmpdir.toString());
    Terminal terminal = Terminal.open(tmpdir, folder, shell);
    PersonsTmux tmux = new PersonsTmux(tmpdir, socket, terminal);
    try {
      terminal.type(commandLine);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!Files.exists(socket)) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError(
              "`" + commandLine + "` started no server at " + socket + ":\n" + terminal.screen());
        }
        Thread.sleep(50);
      }
      return tmux;
    } catch (Exception | AssertionError e) {
      tmux.close();
      throw e;
    }
  }

  /**
   * Starts the server on socket {@code work} of the throwaway directory, as a person's shell with
   * {@code env} does: one session {@code work}, 200 by 50, running {@code commandLine} in {@code
   * folder}.
   */
  static PersonsTmux startedBy(Path folder, Map<String, String> env, String commandLine)
      throws Exception {
    Path tmpdir = Files.createTempDirectory("clique-it-tmux-");
    PersonsTmux tmux = new PersonsTmux(tmpdir, socketDirectory(tmpdir).resolve("work"), null);
    try {
      tmux.run(
          env,
          "new-session",
          "-d",
          "-s",
          "work",
          "-x",
          "200",
          "-y",
          "50",
          "-c",
          folder.toString(),
          commandLine);
      return tmux;
    } catch (Exception e) {
      tmux.close();
      throw e;
    }
  }

  /** Starts the server with one session {@code name} running {@code command}. */
  static PersonsTmux start(String name, String... command) throws Exception {
    Path tmpdir = Files.createTempDirectory("clique-it-tmux-");
    PersonsTmux tmux = new PersonsTmux(tmpdir, socketDirectory(tmpdir).resolve("default"), null);
    List<String> args =
        new ArrayList<>(
            List.of(
                "tmux",
                "-S",
                tmux.socket.toString(),
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-s",
                name));
    args.addAll(List.of(command));
    Process started = new ProcessBuilder(args).start();
    assertThat(started.waitFor(10, TimeUnit.SECONDS) && started.exitValue() == 0)
        .as("tmux new-session -s " + name)
        .isTrue();
    return tmux;
  }

  /** What an engine needs to find this server's CLIs: discovery on, in this directory. */
  Map<String, String> discoverClis() {
    return Map.of("CLIQUE_DISCOVER", "on", "TMUX_TMPDIR", tmpdir.toString());
  }

  /** What an engine needs to find this server's shells: discovery on, in this directory. */
  Map<String, String> discoverShells() {
    return Map.of(
        "CLIQUE_DISCOVER", "on",
        "CLIQUE_DISCOVER_SHELLS", "on",
        "TMUX_TMPDIR", tmpdir.toString());
  }

  /** The pane of session {@code work}, its wrapped lines joined; empty while there is none. */
  String screen() {
    try {
      return run(Map.of(), "capture-pane", "-p", "-J", "-t", "=work:");
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  /** Types a line into session {@code work} and submits it, as a person at the terminal does. */
  void type(Map<String, String> env, String text) throws Exception {
    run(env, "send-keys", "-t", "=work:", "-l", text);
    Thread.sleep(300);
    pressEnter(env);
  }

  /** Presses Enter in session {@code work}. */
  void pressEnter(Map<String, String> env) throws IOException, InterruptedException {
    run(env, "send-keys", "-t", "=work:", "Enter");
  }

  /**
   * {@code tmux -S socket ARGS}, as a person's terminal runs it: none of clique's or tmux's own
   * variables, {@code env} on top; returns what it printed.
   */
  String run(Map<String, String> env, String... args) throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(List.of("tmux", "-S", socket.toString(), "-f", "/dev/null"));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(k -> k.startsWith("CLIQUE_") || k.startsWith("TMUX"));
    builder.environment().putAll(env);
    Process process = builder.start();
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException("tmux " + String.join(" ", args) + " failed: " + err);
    }
    return out;
  }

  @Override
  public void close() throws IOException {
    try {
      // A CLI may outlive its server (Qwen Code's re-executed child does): those are stopped too.
      List<ProcessHandle> panes = paneProcesses();
      killServers(socket.getParent());
      SessionProcesses.stop(panes);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (terminal != null) {
      terminal.close();
    }
    ThrowawayEngine.deleteTree(tmpdir);
  }

  /** The processes of every pane of this server and their descendants; none once it has ended. */
  List<ProcessHandle> paneProcesses() {
    List<ProcessHandle> found = new ArrayList<>();
    String pids;
    try {
      pids = run(Map.of(), "list-panes", "-a", "-F", "#{pane_pid}");
    } catch (IOException e) {
      return found;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return found;
    }
    for (String line : pids.strip().split("\\s+")) {
      if (!line.isEmpty()) {
        ProcessHandle.of(Long.parseLong(line))
            .ifPresent(
                pane -> {
                  found.add(pane);
                  pane.descendants().forEach(found::add);
                });
      }
    }
    return found;
  }

  /** Stops every server on a socket of the throwaway directory, and nothing else. */
  private static void killServers(Path socketDir) throws IOException, InterruptedException {
    if (!Files.isDirectory(socketDir)) {
      return;
    }
    try (DirectoryStream<Path> sockets = Files.newDirectoryStream(socketDir)) {
      for (Path socket : sockets) {
        new ProcessBuilder("tmux", "-S", socket.toString(), "kill-server")
            .redirectErrorStream(true)
            .start()
            .waitFor(10, TimeUnit.SECONDS);
      }
    }
  }
}
