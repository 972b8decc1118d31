package dev.clique.bench;

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
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * What {@code clique serve} costs while nothing happens, counted whole: the engine's own CPU, that
 * of the processes it started (reaped, so counted in its children's time), and that of its tmux
 * server, over a stretch of quiet after the sessions settled; the processes it started meanwhile
 * (counted by {@code strace}, in a stretch of their own, since tracing costs CPU); and its resident
 * memory. The engine is {@code bin/clique serve} as a person starts it, on a home, socket and
 * socket directory of the benchmark's own.
 */
final class IdleCostBenchmark implements Benchmark {
  private static final double TICKS = 100; // USER_HZ

  /** Targets of the idle engine, in ms of CPU per second. */
  private static final double AT_20 = 1;

  private static final double AT_200 = 3;

  @Override
  public String name() {
    return "idle-cost";
  }

  @Override
  public List<Figure> run(Settings settings) throws Exception {
    List<Figure> figures = new ArrayList<>();
    int settle = settings.scale(30, 3);
    int quiet = settings.scale(60, 3); // a CPU tick is 10 ms: 60 s tell 0.17 ms/s apart
    // Measured as it runs every day after its first: with the class-data archive of its own.
    if (!ClassDataArchive.awaitServe(
        settings.launcher(), () -> Serve.start(settings.launcher()), settings.scale(180, 60))) {
      System.err.println("idle-cost: clique serve's class-data archive was not made; without it");
    }
    for (int sessions : settings.quick() ? List.of(0, 2) : List.of(0, 20, 200)) {
      try (Serve serve = Serve.start(settings.launcher())) {
        System.err.printf("idle-cost: %d shell sessions...%n", sessions);
        for (int i = 0; i < sessions; i++) {
          serve.createShell("idle-" + i);
        }
        Thread.sleep(TimeUnit.SECONDS.toMillis(settle));
        Cost cost = serve.cost(quiet);
        int started = serve.processesStarted(settings.scale(10, 2));
        String note =
            String.format(
                "bin/clique serve, %d idle shells, %d s after they started; over %d s: engine"
                    + " %.3f, processes it started %.3f, its tmux server %.3f ms/s; %s",
                sessions,
                settle,
                quiet,
                cost.engine(),
                cost.spawned(),
                cost.tmux(),
                started < 0
                    ? "strace not installed: processes started not counted"
                    : started + " processes started in " + settings.scale(10, 2) + " s of quiet");
        String name = "CPU of `clique serve` with " + sessions + " idle sessions, counted whole";
        if (sessions == 20 || sessions == 200) {
          figures.add(
              Figure.atMost(
                  name, "ms/s", Samples.of(cost.total()), sessions == 20 ? AT_20 : AT_200, note));
        } else {
          figures.add(Figure.reference(name, "ms/s", Samples.of(cost.total()), note));
        }
        if (started >= 0) {
          figures.add(
              Figure.atMost(
                  "processes started by `clique serve` with " + sessions + " idle sessions",
                  "processes",
                  Samples.of(started),
                  0,
                  "strace -f on the engine and its tmux server, " + settings.scale(10, 2) + " s"));
        }
        figures.add(
            Figure.reference(
                "RSS of `clique serve` with " + sessions + " idle sessions",
                "MiB",
                Samples.of(serve.residentMiB()),
                "VmRSS after " + (settle + quiet + settings.scale(10, 2)) + " s"));
        if (sessions == 20) {
          figures.addAll(afterLongIdle(serve, settings, quiet));
        }
      }
    }
    figures.addAll(threeEmbedded(settings, settle, quiet));
    return figures;
  }

  /**
   * The same engine once it has run for {@value #LONG_IDLE_SECONDS} s, as a daemon that runs all
   * day mostly is: its CPU (its compiler long done) and its resident memory.
   */
  private static List<Figure> afterLongIdle(Serve serve, Settings settings, int quiet)
      throws IOException, InterruptedException {
    int runFor = settings.scale(LONG_IDLE_SECONDS, 60);
    long left = TimeUnit.SECONDS.toNanos(runFor) - (System.nanoTime() - serve.startedAt());
    System.err.printf("idle-cost: the 20 sessions' engine until it has run %d s...%n", runFor);
    if (left > 0) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
    Cost cost = serve.cost(quiet);
    return List.of(
        Figure.reference(
            "CPU of `clique serve` with 20 idle sessions, after " + runFor + " s",
            "ms/s",
            Samples.of(cost.total()),
            String.format(
                "over %d s: engine %.3f, processes it started %.3f, its tmux server %.3f ms/s",
                quiet, cost.engine(), cost.spawned(), cost.tmux())),
        Figure.atMost(
            "RSS of `clique serve` with 20 idle sessions, after " + runFor + " s",
            "MiB",
            Samples.of(serve.residentMiB()),
            64,
            "VmRSS"));
  }

  private static final int LONG_IDLE_SECONDS = 600;

  /**
   * Three {@code clique mcp --embedded} on one home, as three assistants start them, with 20 idle
   * sessions (made by a {@code clique serve} that is stopped before they start): their CPU and that
   * of their tmux server together, and how many of them listen (run an engine).
   */
  private static List<Figure> threeEmbedded(Settings settings, int settle, int quiet)
      throws Exception {
    int sessions = settings.scale(20, 2);
    System.err.printf("idle-cost: three clique mcp --embedded, %d shell sessions...%n", sessions);
    try (Serve serve = Serve.start(settings.launcher())) {
      for (int i = 0; i < sessions; i++) {
        serve.createShell("idle-" + i);
      }
      serve.stopEngine();
      List<Process> assistants = new ArrayList<>();
      try {
        for (int i = 0; i < 3; i++) {
          ProcessBuilder mcp =
              new ProcessBuilder(settings.launcher().toString(), "mcp", "--embedded")
                  .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                  .redirectError(ProcessBuilder.Redirect.DISCARD);
          mcp.environment().putAll(serve.env);
          assistants.add(mcp.start()); // its stdin stays open: it runs until closed
        }
        Thread.sleep(TimeUnit.SECONDS.toMillis(settle));
        long tmux = serve.tmuxPid();
        long[][] before = new long[4][];
        for (int i = 0; i < 3; i++) {
          before[i] = Serve.ticks(assistants.get(i).pid());
        }
        before[3] = Serve.ticks(tmux);
        long t0 = System.nanoTime();
        Thread.sleep(TimeUnit.SECONDS.toMillis(quiet));
        double wall = (System.nanoTime() - t0) / 1e9;
        double total = 0;
        List<String> each = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          long[] after = Serve.ticks(i < 3 ? assistants.get(i).pid() : tmux);
          double ms = (after[0] + after[1] - before[i][0] - before[i][1]) / TICKS * 1000 / wall;
          total += ms;
          each.add(String.format("%.3f", ms));
        }
        int listening = 0;
        for (Process assistant : assistants) {
          listening += Serve.listens(assistant.pid()) ? 1 : 0;
        }
        String note =
            String.format(
                "bin/clique mcp --embedded x3 on one home, %d idle shells; over %d s: each %s,"
                    + " their tmux server %s ms/s; %d of 3 run an engine",
                sessions, quiet, String.join(", ", each.subList(0, 3)), each.get(3), listening);
        return List.of(
            Figure.atMost(
                "CPU of three `clique mcp --embedded` on one home, " + sessions + " idle sessions",
                "ms/s",
                Samples.of(total),
                1.5,
                note),
            Figure.atMost(
                "engines among three `clique mcp --embedded` on one home",
                "engines",
                Samples.of(listening),
                1,
                "processes with a listening TCP socket of their own (/proc/<pid>/net/tcp inodes)"));
      } finally {
        for (Process assistant : assistants) {
          assistant.getOutputStream().close();
          if (!assistant.waitFor(10, TimeUnit.SECONDS)) {
            assistant.destroyForcibly();
          }
        }
      }
    }
  }

  /** CPU in ms per second of wall time. */
  record Cost(double engine, double spawned, double tmux) {
    double total() {
      return engine + spawned + tmux;
    }
  }

  /** A {@code clique serve} of the benchmark's own, stopped with its tmux server at close. */
  private static final class Serve implements AutoCloseable {
    private final Path launcher;
    private final Path home;
    private final Path sockets;
    private final String socket;
    final Map<String, String> env;
    private final Process process;
    private final String url;
    private final String token;
    private final Path workdir;
    private final HttpClient http = HttpClient.newHttpClient();
    private final long startedAt;

    private Serve(Path launcher, Path home, Path sockets, String socket, Map<String, String> env)
        throws IOException, InterruptedException {
      this.launcher = launcher;
      this.home = home;
      this.sockets = sockets;
      this.socket = socket;
      this.env = env;
      this.workdir = Files.createTempDirectory("clique-bench-work-");
      int port;
      try (ServerSocket free = new ServerSocket(0)) {
        port = free.getLocalPort();
      }
      this.url = "http://127.0.0.1:" + port;
      this.startedAt = System.nanoTime();
      ProcessBuilder serve =
          new ProcessBuilder(launcher.toString(), "serve", "--port", Integer.toString(port))
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD);
      serve.environment().putAll(env);
      this.process = serve.start();
      this.token = mint();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!healthy()) {
        if (System.nanoTime() > deadline || !process.isAlive()) {
          throw new IOException("clique serve did not answer on " + url);
        }
        Thread.sleep(100);
      }
    }

    static Serve start(Path launcher) throws IOException, InterruptedException {
      Path home =
          Files.createTempDirectory(
              "clique-bench-home-",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      Path sockets = Files.createTempDirectory("clique-bench-tmux-");
      String socket = "bench-idle-" + UUID.randomUUID().toString().substring(0, 8);
      Map<String, String> env = new HashMap<>();
      env.put("CLIQUE_HOME", home.toString());
      env.put("CLIQUE_TMUX_SOCKET", socket);
      env.put("TMUX_TMPDIR", sockets.toString());
      // A home of its own for the shells: a person's start-up files (a version manager's rehash
      // that 200 shells queue on) would measure them, not clique.
      Path user = Files.createDirectory(sockets.resolve("home"));
      env.put("HOME", user.toString());
      return new Serve(launcher, home, sockets, socket, env);
    }

    private String mint() throws IOException, InterruptedException {
      ProcessBuilder mint =
          new ProcessBuilder(launcher.toString(), "token", "create", "bench")
              .redirectError(ProcessBuilder.Redirect.DISCARD);
      mint.environment().putAll(env);
      Process minting = mint.start();
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

    void createShell(String name) throws IOException, InterruptedException {
      String body = "{\"cli\":\"shell\",\"cwd\":\"" + workdir + "\",\"name\":\"" + name + "\"}";
      HttpResponse<String> created =
          http.send(
              HttpRequest.newBuilder(URI.create(url + "/api/sessions"))
                  .header("Authorization", "Bearer " + token)
                  .header("Content-Type", "application/json")
                  .timeout(Duration.ofSeconds(60))
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (created.statusCode() != 201) {
        throw new IOException("creating a session answered " + created.statusCode());
      }
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
      ProcessBuilder ask =
          new ProcessBuilder("tmux", "-L", socket, "display-message", "-p", "#{pid}");
      ask.environment().putAll(env);
      Process asking = ask.redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String printed = new String(asking.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      asking.waitFor();
      try {
        return Long.parseLong(printed.strip());
      } catch (NumberFormatException e) {
        return -1; // no server: no session was made
      }
    }

    Cost cost(int seconds) throws IOException, InterruptedException {
      long tmux = tmuxPid();
      long[] engine0 = ticks(enginePid());
      long[] tmux0 = ticks(tmux);
      long t0 = System.nanoTime();
      Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
      long[] engine1 = ticks(enginePid());
      long[] tmux1 = ticks(tmux);
      double wall = (System.nanoTime() - t0) / 1e9;
      return new Cost(
          (engine1[0] - engine0[0]) / TICKS * 1000 / wall,
          (engine1[1] - engine0[1]) / TICKS * 1000 / wall,
          (tmux1[0] + tmux1[1] - tmux0[0] - tmux0[1]) / TICKS * 1000 / wall);
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
      java.util.Set<String> sockets = new java.util.HashSet<>();
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
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return new long[] {
        Long.parseLong(f[11]) + Long.parseLong(f[12]), Long.parseLong(f[13]) + Long.parseLong(f[14])
      };
    }

    /** Processes the engine and its tmux server start in {@code seconds}; -1 without strace. */
    int processesStarted(int seconds) throws IOException, InterruptedException {
      List<String> command =
          new ArrayList<>(List.of("strace", "-f", "-qq", "-e", "trace=execve", "-o"));
      Path log = Files.createTempFile("clique-bench-strace-", ".log");
      command.add(log.toString());
      command.addAll(List.of("-p", Long.toString(enginePid())));
      long tmux = tmuxPid();
      if (tmux > 0) {
        command.addAll(List.of("-p", Long.toString(tmux)));
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
      long execs =
          Files.readAllLines(log).stream().filter(line -> line.contains("execve(")).count();
      Files.deleteIfExists(log);
      return (int) execs;
    }

    double residentMiB() throws IOException {
      for (String line :
          Files.readAllLines(Path.of("/proc", Long.toString(enginePid()), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.substring(6).strip().split("\\s+")[0]) / 1024.0;
        }
      }
      return 0;
    }

    @Override
    public void close() throws IOException {
      ProcessBuilder kill = new ProcessBuilder("tmux", "-L", socket, "kill-server");
      kill.environment().putAll(env);
      try {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
        kill.redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start()
            .waitFor();
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
      try (var walk = Files.walk(dir)) {
        for (Path path : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(path);
        }
      }
    }
  }
}
