package dev.clique.engine.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.testing.ApiClient;
import dev.clique.engine.testing.TmuxSandbox;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Measures the engine and prints the figures (no assertions: a benchmark, not a test):
 *
 * <ol>
 *   <li>wait lag: from a shell command's exit ({@code sleep 1}, then the shell records the time) to
 *       the answer of a {@code wait?for=idle} issued right after the command was sent; median, p95,
 *       max, and whether any answer came before the exit (target: at most 300 ms, never early);
 *   <li>{@code GET /api/state} requests per second with 50 sessions, on 1 and on 16 keep-alive
 *       connections (target: at least 5,000/s on 16);
 *   <li>1,000 pending waits: the engine's threads and CPU while they wait (target: at most 50
 *       threads, idle CPU), and how long one change takes to answer all of them.
 * </ol>
 *
 * <p>The engine runs in a child JVM ({@link BenchEngine}) on a throwaway home and tmux socket. Run
 * with the test class path: {@code java -cp target/classes:target/test-classes:<deps>
 * dev.clique.engine.bench.EngineBenchmark}.
 */
public final class EngineBenchmark {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int LAG_RUNS = 20;
  private static final int SESSIONS = 50;
  private static final int WAITS = 1_000;
  private static final long CLOCK_TICKS = 100; // USER_HZ on Linux

  private EngineBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("clique-bench-");
    Path home = Files.createDirectories(dir.resolve("home"));
    Files.writeString(
        home.resolve("clis.toml"),
        "[cli.shell]\ncommand = \"bash\"\nargs = [\"--norc\", \"--noprofile\"]\n");
    try (TmuxSandbox tmux = new TmuxSandbox()) {
      String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      Process engine =
          new ProcessBuilder(
                  java,
                  "-cp",
                  System.getProperty("java.class.path"),
                  BenchEngine.class.getName(),
                  home.toString(),
                  tmux.socket())
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      try {
        BufferedReader out =
            new BufferedReader(
                new InputStreamReader(engine.getInputStream(), StandardCharsets.UTF_8));
        String[] hello = out.readLine().split(" ");
        Bench bench = new Bench(hello[0], hello[1], Long.parseLong(hello[2]), dir, tmux.socket());
        System.out.printf(
            Locale.ROOT,
            "engine pid %d on %s, %d cores, Java %s%n",
            bench.pid,
            bench.url,
            Runtime.getRuntime().availableProcessors(),
            System.getProperty("java.version"));
        bench.run();
      } finally {
        OutputStream stdin = engine.getOutputStream();
        stdin.close();
        if (!engine.waitFor(10, TimeUnit.SECONDS)) {
          engine.destroyForcibly();
        }
      }
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static final class Bench {
    final String url;
    final String token;
    final long pid;
    final Path dir;
    final ApiClient api;
    final String host;
    final int port;
    final String socket;

    Bench(String url, String token, long pid, Path dir, String socket) {
      this.socket = socket;
      this.url = url;
      this.token = token;
      this.pid = pid;
      this.dir = dir;
      this.api = new ApiClient(url, token);
      URI uri = URI.create(url);
      this.host = uri.getHost();
      this.port = uri.getPort();
    }

    void run() throws Exception {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < SESSIONS; i++) {
        ids.add(create());
      }
      for (String id : ids) {
        api.get("/api/sessions/" + id + "/wait?for=idle&timeout=30");
      }
      System.out.printf(Locale.ROOT, "%d shell sessions up%n", ids.size());
      waitLag(ids.get(0));
      idleCpu("no pending waits, 50 idle sessions");
      pendingWaits(ids);
      stateThroughput(1);
      stateThroughput(16);
      System.out.printf(
          Locale.ROOT, "after the load: engine threads %d (%s)%n", threads(), threadNames());
    }

    private String create() throws Exception {
      ApiClient.Answer created =
          api.post("/api/sessions", "{\"cli\": \"shell\", \"cwd\": \"" + dir.toString() + "\"}");
      if (created.status() != 201) {
        throw new IllegalStateException("create failed: " + created.body());
      }
      return created.body().get("id").asText();
    }

    void waitLag(String id) throws Exception {
      List<Double> lags = new ArrayList<>();
      int early = 0;
      for (int run = 0; run < LAG_RUNS; run++) {
        Path stamp = dir.resolve("exit-" + run);
        String command = "sleep 1; echo $EPOCHREALTIME > " + stamp;
        api.post("/api/sessions/" + id + "/send", JSON.writeValueAsString(new Send(command)));
        JsonNode answer = api.get("/api/sessions/" + id + "/wait?for=idle&timeout=30").body();
        Instant answered = Instant.now();
        if (!Files.exists(stamp)) {
          early++;
          continue;
        }
        BigDecimal exit = new BigDecimal(Files.readString(stamp).strip());
        double lagMillis =
            (answered.getEpochSecond() + answered.getNano() / 1e9 - exit.doubleValue()) * 1000;
        if (lagMillis < 0 || !answer.get("matched").asBoolean()) {
          early++;
        }
        lags.add(lagMillis);
      }
      lags.sort(Double::compare);
      System.out.printf(
          Locale.ROOT,
          "wait lag, command exit -> wait answer, %d runs of `sleep 1`: median %.0f ms, p95 %.0f"
              + " ms, min %.0f ms, max %.0f ms, early answers %d%n",
          LAG_RUNS,
          percentile(lags, 50),
          percentile(lags, 95),
          lags.get(0),
          lags.get(lags.size() - 1),
          early);
    }

    record Send(String text) {}

    void stateThroughput(int connections) throws Exception {
      byte[] request = RawHttp.get("/api/state", token);
      // warm-up
      try (RawHttp http = new RawHttp(host, port)) {
        for (int i = 0; i < 2_000; i++) {
          http.send(request);
          http.read();
        }
      }
      AtomicBoolean stop = new AtomicBoolean();
      AtomicLong done = new AtomicLong();
      AtomicLong bytes = new AtomicLong();
      CountDownLatch ready = new CountDownLatch(connections);
      CountDownLatch go = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int c = 0; c < connections; c++) {
        Thread thread =
            new Thread(
                () -> {
                  try (RawHttp http = new RawHttp(host, port)) {
                    ready.countDown();
                    go.await();
                    while (!stop.get()) {
                      http.send(request);
                      bytes.addAndGet(http.read().length());
                      done.incrementAndGet();
                    }
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                });
        thread.start();
        threads.add(thread);
      }
      ready.await();
      long cpu0 = cpuTicks();
      long start = System.nanoTime();
      go.countDown();
      Thread.sleep(5_000);
      stop.set(true);
      long elapsed = System.nanoTime() - start;
      long cpu1 = cpuTicks();
      for (Thread thread : threads) {
        thread.join();
      }
      double seconds = elapsed / 1e9;
      System.out.printf(
          Locale.ROOT,
          "GET /api/state, %d sessions, %2d keep-alive connection(s): %,.0f requests/s"
              + " (%,d bytes per answer; engine CPU %.0f%% of one core)%n",
          SESSIONS,
          connections,
          done.get() / seconds,
          bytes.get() / Math.max(1, done.get()),
          100.0 * (cpu1 - cpu0) / CLOCK_TICKS / seconds);
    }

    void pendingWaits(List<String> ids) throws Exception {
      int threadsBefore = threads();
      List<RawHttp> waits = new ArrayList<>();
      for (int i = 0; i < WAITS; i++) {
        String id = ids.get(i % ids.size());
        RawHttp http = new RawHttp(host, port);
        http.send(RawHttp.get("/api/sessions/" + id + "/wait?for=error&timeout=300", token));
        waits.add(http);
      }
      Thread.sleep(5_000);
      System.out.printf(
          Locale.ROOT,
          "%,d pending waits: engine threads %d (before: %d): %s%n",
          WAITS,
          threads(),
          threadsBefore,
          threadNames());
      idleCpu(WAITS + " pending waits, 50 idle sessions");

      // One change ends them all: each wait for "working" on one session, then a command.
      List<RawHttp> working = new ArrayList<>();
      for (int i = 0; i < WAITS; i++) {
        RawHttp http = new RawHttp(host, port);
        http.send(
            RawHttp.get("/api/sessions/" + ids.get(1) + "/wait?for=working&timeout=60", token));
        working.add(http);
      }
      Thread.sleep(1_000);
      long start = System.nanoTime();
      api.post("/api/sessions/" + ids.get(1) + "/send", "{\"text\": \"sleep 2\"}");
      int matched = 0;
      for (RawHttp http : working) {
        if (JSON.readTree(http.read()).get("matched").asBoolean()) {
          matched++;
        }
        http.close();
      }
      System.out.printf(
          Locale.ROOT,
          "one change answers %,d waits on one session: all answered %.0f ms after the send"
              + " (%d matched)%n",
          WAITS,
          (System.nanoTime() - start) / 1e6,
          matched);
      for (RawHttp http : waits) {
        http.close();
      }
      Thread.sleep(1_000);
      System.out.printf(Locale.ROOT, "after the waits: engine threads %d%n", threads());
    }

    void idleCpu(String what) throws Exception {
      long cpu0 = cpuTicks();
      long jit0 = compilerTicks();
      long tmux0 = tmuxServerTicks();
      long start = System.nanoTime();
      Thread.sleep(10_000);
      double seconds = (System.nanoTime() - start) / 1e9;
      long cpu = cpuTicks() - cpu0;
      long jit = compilerTicks() - jit0;
      System.out.printf(
          Locale.ROOT,
          "idle CPU, %s: engine %.1f%% of one core with its tmux calls (%.1f%% without the JIT"
              + " compiler), tmux server %.1f%%, engine threads %d%n",
          what,
          100.0 * cpu / CLOCK_TICKS / seconds,
          100.0 * (cpu - jit) / CLOCK_TICKS / seconds,
          100.0 * (tmuxServerTicks() - tmux0) / CLOCK_TICKS / seconds,
          threads());
    }

    /** CPU of the JIT compiler threads, which only warm-up keeps busy. */
    long compilerTicks() throws IOException {
      long ticks = 0;
      try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
        for (Path task : tasks.toList()) {
          if (Files.readString(task.resolve("comm")).contains("CompilerThre")) {
            String stat = Files.readString(task.resolve("stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
          }
        }
      }
      return ticks;
    }

    /** The engine's CPU so far, its reaped children (tmux clients) included, in clock ticks. */
    long cpuTicks() throws IOException {
      String[] f = stat(pid);
      return Long.parseLong(f[11])
          + Long.parseLong(f[12])
          + Long.parseLong(f[13])
          + Long.parseLong(f[14]);
    }

    long tmuxServerTicks() throws IOException, InterruptedException {
      long server = tmuxServerPid();
      if (server <= 0) {
        return 0;
      }
      String[] f = stat(server);
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    long tmuxServerPid() throws IOException, InterruptedException {
      Process p = new ProcessBuilder("tmux", "-L", socket, "list-sessions", "-F", "#{pid}").start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      p.waitFor();
      return out.isEmpty() ? -1 : Long.parseLong(out.split("\\s+")[0]);
    }

    static String[] stat(long pid) throws IOException {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    /** The engine's threads by name, numbers dropped: what the thread count is made of. */
    String threadNames() throws IOException {
      java.util.Map<String, Integer> counts = new java.util.TreeMap<>();
      try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
        for (Path task : tasks.toList()) {
          String name =
              Files.readString(task.resolve("comm")).strip().replaceAll("[-#]?[0-9]+$", "");
          counts.merge(name.replaceAll("[-#][0-9]+-?$", ""), 1, Integer::sum);
        }
      }
      return counts.toString();
    }

    int threads() throws IOException {
      for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
        if (line.startsWith("Threads:")) {
          return Integer.parseInt(line.substring(8).strip());
        }
      }
      return -1;
    }
  }

  private static double percentile(List<Double> sorted, int p) {
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }
}
