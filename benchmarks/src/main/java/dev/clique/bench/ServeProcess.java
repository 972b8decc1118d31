package dev.clique.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A {@code clique serve} of the benchmark's own, as a person starts it ({@code bin/clique serve}),
 * on a home, tmux socket and socket directory of its own; sessions are made over its HTTP API with
 * a token it minted. It measures what it costs from outside, in {@code /proc}. Closing it stops the
 * engine and its tmux server and deletes what it made.
 */
final class ServeProcess implements AutoCloseable {
  private static final double TICKS = 100; // USER_HZ

  /**
   * CPU in ms per second of wall time: the engine's own, that of the processes it started and
   * reaped (counted in its children's time), and its tmux server's (its own and its reaped
   * children's); the processes it started that still run (its tmux control client) apart, in {@code
   * running}, not in the total.
   */
  record Cost(double engine, double spawned, double tmux, double running) {
    double total() {
      return engine + spawned + tmux;
    }
  }

  private final Path launcher;
  private final Path home;
  private final Path sockets;
  private final boolean isolated;
  final Map<String, String> env;
  final TmuxSocket tmux;
  final EngineApi api;
  private final Process process;
  private final String url;
  private final Path workdir;
  private final HttpClient http = HttpClient.newHttpClient();
  private final long startedAt;

  private ServeProcess(
      Path launcher, Path home, Path sockets, boolean isolated, Map<String, String> env)
      throws IOException, InterruptedException {
    this.launcher = launcher;
    this.home = home;
    this.sockets = sockets;
    this.isolated = isolated;
    this.env = env;
    this.tmux = new TmuxSocket(env.get("CLIQUE_TMUX_SOCKET"), env);
    this.workdir = Files.createTempDirectory("clique-bench-work-");
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    this.url = "http://127.0.0.1:" + port;
    this.startedAt = System.nanoTime();
    this.process =
        environ(
                new ProcessBuilder(launcher.toString(), "serve", "--port", Integer.toString(port))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD))
            .start();
    this.api = new EngineApi(url, mint());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!healthy()) {
      if (System.nanoTime() > deadline || !process.isAlive()) {
        throw new IOException("clique serve did not answer on " + url);
      }
      Thread.sleep(100);
    }
  }

  /** An engine with this JVM's environment, its home, socket and shells' home its own. */
  static ServeProcess start(Path launcher) throws IOException, InterruptedException {
    return start(launcher, false, Map.of());
  }

  /**
   * An engine whose environment (and so its panes') is a few of this JVM's variables and {@code
   * extra} over its own home and socket. Nothing else of the caller's reaches the panes: a {@code
   * CI=true} of a build server, say, makes Gemini CLI run headless and end at once.
   */
  static ServeProcess start(Path launcher, Map<String, String> extra)
      throws IOException, InterruptedException {
    return start(launcher, true, extra);
  }

  private static ServeProcess start(Path launcher, boolean isolated, Map<String, String> extra)
      throws IOException, InterruptedException {
    Path home =
        Files.createTempDirectory(
            "clique-bench-home-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Path sockets = Files.createTempDirectory("clique-bench-tmux-");
    String socket = "bench-serve-" + UUID.randomUUID().toString().substring(0, 8);
    Map<String, String> env = new HashMap<>();
    env.put("CLIQUE_HOME", home.toString());
    env.put("CLIQUE_TMUX_SOCKET", socket);
    env.put("TMUX_TMPDIR", sockets.toString());
    // A home of its own for the shells: a person's start-up files (a version manager's rehash
    // that 200 shells queue on) would measure them, not clique.
    Path user = Files.createDirectory(sockets.resolve("home"));
    env.put("HOME", user.toString());
    env.putAll(extra);
    return new ServeProcess(launcher, home, sockets, isolated, env);
  }

  /** {@code builder} with the engine's environment. */
  private ProcessBuilder environ(ProcessBuilder builder) {
    if (isolated) {
      builder.environment().keySet().retainAll(EngineProcess.PASSED_ON);
    }
    builder.environment().putAll(env);
    return builder;
  }

  private String mint() throws IOException, InterruptedException {
    Process minting =
        environ(
                new ProcessBuilder(launcher.toString(), "token", "create", "bench")
                    .redirectError(ProcessBuilder.Redirect.DISCARD))
            .start();
    String printed = new String(minting.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (minting.waitFor() != 0) {
      throw new IOException("clique token create failed");
    }
    return printed.strip();
  }

  private boolean healthy() {
    try {
      return http.send(
                  HttpRequest.newBuilder(URI.create(url + "/healthz")).build(),
                  HttpResponse.BodyHandlers.discarding())
              .statusCode()
          < 500;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Makes a shell session in a working directory of the engine's own. */
  void createShell(String name) throws IOException, InterruptedException {
    api.create("shell", workdir, name);
  }

  /** When the engine was started, in {@link System#nanoTime()}. */
  long startedAt() {
    return startedAt;
  }

  /** The JVM's pid: bin/clique execs it, so it is the launcher's own. */
  long enginePid() {
    return process.pid();
  }

  long tmuxPid() throws IOException, InterruptedException {
    return tmux.serverPid();
  }

  /** What the engine costs over the next {@code seconds}. */
  Cost cost(int seconds) throws IOException, InterruptedException {
    long tmuxPid = tmuxPid();
    long[] engine0 = ticks(enginePid());
    long[] tmux0 = ticks(tmuxPid);
    Map<Long, Long> running0 = descendants(enginePid(), tmuxPid);
    long t0 = System.nanoTime();
    Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
    long[] engine1 = ticks(enginePid());
    long[] tmux1 = ticks(tmuxPid);
    Map<Long, Long> running1 = descendants(enginePid(), tmuxPid);
    double wall = (System.nanoTime() - t0) / 1e9;
    long running = 0;
    for (Map.Entry<Long, Long> child : running1.entrySet()) {
      Long before = running0.get(child.getKey());
      running += before == null ? 0 : child.getValue() - before; // new ones: reaped or not yet
    }
    return new Cost(
        (engine1[0] - engine0[0]) / TICKS * 1000 / wall,
        (engine1[1] - engine0[1]) / TICKS * 1000 / wall,
        (tmux1[0] + tmux1[1] - tmux0[0] - tmux0[1]) / TICKS * 1000 / wall,
        running / TICKS * 1000 / wall);
  }

  /**
   * The own ticks of each process under {@code pid} that runs now, by pid; none under {@code tmux},
   * the server (whose panes are not the engine's), were it one of them.
   */
  private static Map<Long, Long> descendants(long pid, long tmux) throws IOException {
    Map<Long, Long> parents = new HashMap<>();
    Map<Long, Long> own = new HashMap<>();
    try (Stream<Path> all = Files.list(Path.of("/proc"))) {
      for (Path dir : all.toList()) {
        String name = dir.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          String[] f = statFields(Long.parseLong(name));
          parents.put(Long.parseLong(name), Long.parseLong(f[1]));
          own.put(Long.parseLong(name), Long.parseLong(f[11]) + Long.parseLong(f[12]));
        } catch (IOException e) {
          // ended meanwhile
        }
      }
    }
    Map<Long, Long> under = new HashMap<>();
    Set<Long> frontier = new HashSet<>(Set.of(pid));
    while (!frontier.isEmpty()) {
      Set<Long> next = new HashSet<>();
      parents.forEach(
          (child, parent) -> {
            if (frontier.contains(parent) && child != tmux && !under.containsKey(child)) {
              under.put(child, own.get(child));
              next.add(child);
            }
          });
      frontier.clear();
      frontier.addAll(next);
    }
    return under;
  }

  /** Stops the engine; its sessions stay in tmux and its records in the home. */
  void stopEngine() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }

  /** Whether {@code pid} holds a listening TCP socket (an engine's). */
  static boolean listens(long pid) throws IOException {
    Set<String> sockets = new HashSet<>();
    try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : fds.toList()) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            sockets.add(target.substring(8, target.length() - 1));
          }
        } catch (IOException e) {
          // closed meanwhile
        }
      }
    }
    for (String table : List.of("tcp", "tcp6")) {
      Path file = Path.of("/proc", Long.toString(pid), "net", table);
      if (!Files.exists(file)) {
        continue;
      }
      for (String line : Files.readAllLines(file)) {
        String[] f = line.strip().split("\\s+");
        if (f.length > 9 && f[3].equals("0A") && sockets.contains(f[9])) {
          return true;
        }
      }
    }
    return false;
  }

  /** Own (user + system) and reaped children's ticks of {@code pid}; zeros when it has none. */
  static long[] ticks(long pid) throws IOException {
    if (pid <= 0) {
      return new long[] {0, 0};
    }
    String[] f = statFields(pid);
    return new long[] {
      Long.parseLong(f[11]) + Long.parseLong(f[12]), Long.parseLong(f[13]) + Long.parseLong(f[14])
    };
  }

  /** The fields of {@code /proc/<pid>/stat} after its command: state first, ppid second. */
  private static String[] statFields(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
  }

  /** Processes the engine and its tmux server start in {@code seconds}; -1 without strace. */
  int processesStarted(int seconds) throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(List.of("strace", "-f", "-qq", "-e", "trace=execve", "-o"));
    Path log = Files.createTempFile("clique-bench-strace-", ".log");
    command.add(log.toString());
    command.addAll(List.of("-p", Long.toString(enginePid())));
    long tmuxPid = tmuxPid();
    if (tmuxPid > 0) {
      command.addAll(List.of("-p", Long.toString(tmuxPid)));
    }
    Process strace;
    try {
      strace =
          new ProcessBuilder(command)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
    } catch (IOException e) {
      return -1;
    }
    Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
    strace.destroy();
    strace.waitFor(10, TimeUnit.SECONDS);
    long execs = Files.readAllLines(log).stream().filter(line -> line.contains("execve(")).count();
    Files.deleteIfExists(log);
    return (int) execs;
  }

  double residentMiB() throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(enginePid()), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.substring(6).strip().split("\\s+")[0]) / 1024.0;
      }
    }
    return 0;
  }

  @Override
  public void close() throws IOException {
    try {
      // Through the engine first: a CLI that started itself anew (Gemini CLI) outlives the end of
      // its tmux server, and only the engine ends a session's every process.
      if (process.isAlive()) {
        for (JsonNode session : api.get("/api/state").path("sessions")) {
          api.delete(session.path("id").asText());
        }
      }
      process.destroy();
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
      tmux.kill();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    delete(home);
    delete(sockets);
    delete(workdir);
  }

  private static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
