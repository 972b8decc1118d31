package dev.clique.engine.tmux;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs the {@code tmux} binary as a process of its own: an argument list (never a shell string), on
 * one server's socket, with a time-out, in the engine's environment less what is not for panes.
 */
final class TmuxRunner {
  private static final ScheduledExecutorService WATCHDOG =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "tmux-watchdog");
            thread.setDaemon(true);
            return thread;
          });

  private static final Set<String> BUILD_SERVER_MARKS =
      Set.of("CI", "CONTINUOUS_INTEGRATION", "GITHUB_ACTIONS");

  /** What one call did: its exit code and what it wrote. */
  record Result(int exitCode, String stdout, String stderr) {}

  private final String binary;
  private final List<String> address;
  private final Duration timeout;

  /** {@code address} is {@code -L <name>} or {@code -S <file>}. */
  TmuxRunner(String binary, List<String> address, Duration timeout) {
    this.binary = binary;
    this.address = List.copyOf(address);
    this.timeout = timeout;
  }

  Duration timeout() {
    return timeout;
  }

  /**
   * The command line of {@code tmux} on this socket, with no configuration file, and {@code args}.
   */
  List<String> command(List<String> args) {
    List<String> command = new ArrayList<>(args.size() + 5);
    command.add(binary);
    command.addAll(address);
    command.add("-f");
    command.add("/dev/null");
    command.addAll(args);
    return command;
  }

  Result run(List<String> args) throws TmuxException {
    return run(args, Map.of(), new byte[0]);
  }

  Result run(List<String> args, Map<String, String> extra) throws TmuxException {
    return run(args, extra, new byte[0]);
  }

  /**
   * Runs tmux with the engine's environment less its own secrets and tmux's pointers, plus {@code
   * extra}: a server that this call starts keeps that environment for every pane.
   */
  Result run(List<String> args, Map<String, String> extra, byte[] stdin) throws TmuxException {
    Process process;
    try {
      ProcessBuilder builder = new ProcessBuilder(command(args));
      Map<String, String> environment = builder.environment();
      environment.keySet().removeIf(TmuxRunner::notForPanes);
      environment.putAll(extra);
      process = builder.start();
    } catch (IOException e) {
      throw new TmuxException("tmux could not be started: " + e.getMessage(), e);
    }
    ScheduledFuture<?> watchdog =
        WATCHDOG.schedule(process::destroyForcibly, timeout.toMillis(), TimeUnit.MILLISECONDS);
    try {
      try (var in = process.getOutputStream()) {
        in.write(stdin);
      }
      // tmux writes little to stderr, so reading stdout to its end first cannot deadlock.
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      int exitCode = process.waitFor();
      if (!watchdog.cancel(false)) {
        throw new TmuxException("tmux " + args.get(0) + " did not finish within " + timeout);
      }
      return new Result(exitCode, out, err);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new TmuxException("interrupted while waiting for tmux", e);
    } catch (IOException e) {
      process.destroyForcibly();
      throw new TmuxException("tmux output could not be read: " + e.getMessage(), e);
    } finally {
      watchdog.cancel(false);
    }
  }

  /** Fails with tmux's own words when {@code result} is a failure. */
  static void check(Result result, String what) throws TmuxException {
    if (result.exitCode() != 0) {
      String reason = result.stderr().strip();
      throw new TmuxException(
          "tmux " + what + " failed: " + (reason.isEmpty() ? "exit " + result.exitCode() : reason),
          gone(result));
    }
  }

  /**
   * Whether tmux failed because what the command was for is not there: no server, or no such
   * session.
   */
  static boolean gone(Result result) {
    String err = result.stderr();
    return noServer(err)
        || err.contains("can't find session")
        || err.contains("No such file or directory");
  }

  /**
   * Whether tmux said that no server is there to answer: none runs on the socket, or the one it
   * reached ended as it was asked ("server exited unexpectedly", "lost server").
   */
  static boolean noServer(String said) {
    return said.contains("no server running")
        || said.contains("error connecting")
        || said.contains("server exited")
        || said.contains("lost server");
  }

  /**
   * tmux splits its argument list at any argument that ends in {@code ;}. A trailing {@code \;} is
   * read back as a literal {@code ;}, so user text that ends in one stays text.
   */
  static String escape(String arg) {
    return arg.endsWith(";") ? arg.substring(0, arg.length() - 1) + "\\;" : arg;
  }

  /**
   * The engine's own variables (its secrets, tmux's pointers to the engine's own terminal) and the
   * marks of a build server it may run on: a pane is a terminal a person can attach to, and a CLI
   * that sees {@code CI=true} leaves its terminal interface (Gemini CLI then runs headless and
   * exits at once).
   */
  static boolean notForPanes(String name) {
    return name.startsWith("CLIQUE_")
        || BUILD_SERVER_MARKS.contains(name)
        || name.equals("TMUX")
        || name.equals("TMUX_PANE");
  }
}
