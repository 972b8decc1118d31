package dev.clique.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * An engine in a JVM of its own ({@link BenchEngine#main}), so that the threads and CPU read from
 * {@code /proc} are the engine's alone. It runs with the JVM options bin/clique gives the engine.
 */
final class EngineProcess implements AutoCloseable {
  /** Clock ticks per second of {@code /proc/<pid>/stat} (USER_HZ, 100 on Linux). */
  private static final double TICKS = 100;

  /** The variables of this JVM's environment an engine is started with. */
  static final List<String> PASSED_ON =
      List.of("PATH", "HOME", "LANG", "LC_ALL", "JAVA_HOME", "USER", "TERM", "TMPDIR");

  final EngineApi api;
  final String host;
  final int port;
  final long pid;
  final Path home;
  final String socket;
  final List<String> sessions = new ArrayList<>();
  private final Process process;

  private EngineProcess(Process process, String[] hello) {
    this.process = process;
    this.api = new EngineApi(hello[0], hello[1]);
    URI url = URI.create(hello[0]);
    this.host = url.getHost();
    this.port = url.getPort();
    this.pid = Long.parseLong(hello[2]);
    this.home = Path.of(hello[3]);
    this.socket = hello[4];
  }

  static EngineProcess start() throws IOException {
    return start(Map.of());
  }

  /**
   * An engine whose environment (and so its panes') is {@code env} over a few of this one's
   * variables. Nothing else of the caller's reaches it: a {@code CI=true} of a build server, say,
   * makes Gemini CLI leave its terminal interface for a headless run that ends at once.
   */
  static EngineProcess start(Map<String, String> env) throws IOException {
    ProcessBuilder builder =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC",
                "-Xss512k",
                "-XX:-UsePerfData",
                "-Xlog:disable",
                "-Xlog:all=warning:stderr",
                // Its stop cancels the waits the benchmark left pending, each with a warning.
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=error",
                "-cp",
                System.getProperty("java.class.path"),
                BenchEngine.class.getName())
            .redirectError(ProcessBuilder.Redirect.INHERIT);
    builder.environment().keySet().retainAll(PASSED_ON);
    builder.environment().putAll(env);
    Process process = builder.start();
    String hello =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
            .readLine();
    if (hello == null) {
      process.destroyForcibly();
      throw new IOException("the engine's JVM ended before it said where it listens");
    }
    return new EngineProcess(process, hello.split(" "));
  }

  /** Makes shell sessions until there are {@code count}, and waits until each is idle. */
  void grow(int count) throws IOException, InterruptedException {
    while (sessions.size() < count) {
      sessions.add(api.create("shell", home, "bench-" + sessions.size()));
    }
    for (String id : sessions) {
      api.get("/api/sessions/" + id + "/wait?for=idle&timeout=30");
    }
  }

  /** The engine's threads now. */
  int threads() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("Threads:")) {
        return Integer.parseInt(line.substring(8).strip());
      }
    }
    throw new IOException("no thread count in /proc/" + pid + "/status");
  }

  /** The engine's CPU so far in seconds, its reaped children (tmux clients) included. */
  double cpuSeconds() throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    long ticks = 0;
    for (int field = 11; field <= 14; field++) { // utime, stime, cutime, cstime
      ticks += Long.parseLong(f[field]);
    }
    return ticks / TICKS;
  }

  /** Closes the engine's stdin: it stops, kills its tmux server and deletes its home. */
  @Override
  public void close() {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // already gone
    }
    try {
      if (!process.waitFor(15, TimeUnit.SECONDS)) {
        process.destroy(); // its shutdown hook still cleans up
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      }
    } catch (InterruptedException e) {
      process.destroy();
      Thread.currentThread().interrupt();
    }
  }
}
