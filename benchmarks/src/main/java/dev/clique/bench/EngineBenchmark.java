package dev.clique.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine's own figures, on an engine in a JVM of its own ({@link EngineProcess}) with 50 idle
 * shell sessions: the lag of {@code wait} behind a command's exit, {@code GET /api/state} requests
 * per second, and what 1,000 pending waits cost it.
 */
final class EngineBenchmark implements Benchmark {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The most CPU an engine that only holds waits may use, in percent of one core. */
  private static final double IDLE_CPU = 5;

  @Override
  public String name() {
    return "engine";
  }

  @Override
  public List<Figure> run(Settings settings) throws Exception {
    List<Figure> figures = new ArrayList<>();
    try (EngineProcess engine = EngineProcess.start()) {
      engine.grow(settings.scale(50, 3));
      figures.addAll(waitLag(engine, settings));
      figures.addAll(pendingWaits(engine, settings));
      figures.add(stateThroughput(engine, 1, settings));
      figures.add(stateThroughput(engine, 16, settings));
    }
    return figures;
  }

  /**
   * From a shell command's exit ({@code sleep 1}, then the shell writes the time) to the answer of
   * a {@code wait?for=idle} sent right after the command. An answer before the exit is early.
   */
  private static List<Figure> waitLag(EngineProcess engine, Settings settings) throws Exception {
    int runs = settings.scale(20, 2);
    String id = engine.sessions.get(0);
    Samples lag = new Samples();
    int early = 0;
    for (int run = 0; run < runs; run++) {
      Path stamp = engine.home.resolve("exit-" + run);
      engine.api.send(id, "sleep 1; echo $EPOCHREALTIME > " + stamp);
      JsonNode answer = engine.api.get("/api/sessions/" + id + "/wait?for=idle&timeout=30");
      Instant answered = Instant.now();
      String exit = Files.exists(stamp) ? Files.readString(stamp).strip() : "";
      if (exit.isEmpty() || !answer.get("matched").asBoolean()) {
        early++;
        continue;
      }
      double exitSeconds = new BigDecimal(exit).doubleValue();
      double lagMillis =
          (answered.getEpochSecond() + answered.getNano() / 1e9 - exitSeconds) * 1000;
      if (lagMillis < 0) {
        early++;
      }
      lag.add(lagMillis);
    }
    String note = runs + " runs of `sleep 1` in a shell session";
    return List.of(
        Figure.atMost("`wait` lag, command exit -> `wait` answer", "ms", lag, 300, note),
        Figure.atMost(
            "`wait` answers before the command's exit", "answers", Samples.of(early), 0, note));
  }

  /**
   * The engine's threads and CPU while 1,000 waits are pending on idle sessions (none can end), and
   * how long one change takes to answer 1,000 waits on its session.
   */
  private static List<Figure> pendingWaits(EngineProcess engine, Settings settings)
      throws Exception {
    int waits = settings.scale(1_000, 20);
    int seconds = settings.scale(10, 1);
    List<String> ids = engine.sessions;
    int threadsBefore = engine.threads();
    Samples cpuBefore = cpuPercent(engine, seconds);

    List<RawHttp> pending = new ArrayList<>();
    Samples threads = new Samples();
    Samples cpu;
    try {
      for (int i = 0; i < waits; i++) {
        pending.add(wait(engine, ids.get(i % ids.size()), "error", 120));
      }
      Thread.sleep(settings.scale(5_000, 500)); // every wait reached the engine
      threads.add(engine.threads());
      cpu = cpuPercent(engine, seconds);
    } finally {
      closeAll(pending);
    }

    List<RawHttp> working = new ArrayList<>();
    double answeredMillis;
    int matched = 0;
    try {
      for (int i = 0; i < waits; i++) {
        working.add(wait(engine, ids.get(1), "working", 60));
      }
      Thread.sleep(settings.scale(2_000, 500));
      long start = System.nanoTime();
      engine.api.send(ids.get(1), "sleep 2");
      for (RawHttp http : working) {
        if (JSON.readTree(http.read()).get("matched").asBoolean()) {
          matched++;
        }
      }
      answeredMillis = (System.nanoTime() - start) / 1e6;
    } finally {
      closeAll(working);
    }

    String sessions = ids.size() + " idle sessions";
    String many = String.format("%,d", waits);
    return List.of(
        Figure.atMost(
            "engine threads with " + many + " pending waits",
            "threads",
            threads,
            50,
            sessions + "; " + threadsBefore + " before the waits"),
        Figure.reference(
            "engine CPU with no pending waits",
            "% of a core",
            cpuBefore,
            sessions + "; each second of " + seconds + ", its tmux calls included"),
        Figure.atMost(
            "engine CPU with " + many + " pending waits (idle)",
            "% of a core",
            cpu,
            IDLE_CPU,
            "the same, while the waits are pending"),
        Figure.reference(
            "one change answers " + many + " waits (send -> last answer)",
            "ms",
            Samples.of(answeredMillis),
            String.format("%,d", matched)
                + " of "
                + many
                + " waits for `working` on one session matched"));
  }

  /** {@code GET /api/state} on keep-alive connections, each as fast as it is answered. */
  private static Figure stateThroughput(EngineProcess engine, int connections, Settings settings)
      throws Exception {
    byte[] request = RawHttp.get("/api/state", engine.api.token);
    int bytes;
    try (RawHttp http = new RawHttp(engine.host, engine.port)) {
      http.send(request);
      bytes = http.read().length();
      for (int i = 0; i < settings.scale(2_000, 100); i++) { // warm-up
        http.send(request);
        http.read();
      }
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong done = new AtomicLong();
    CountDownLatch ready = new CountDownLatch(connections);
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    List<Exception> failures = new ArrayList<>();
    for (int c = 0; c < connections; c++) {
      Thread thread =
          new Thread(
              () -> {
                try (RawHttp http = new RawHttp(engine.host, engine.port)) {
                  ready.countDown();
                  go.await();
                  while (!stop.get()) {
                    http.send(request);
                    http.read();
                    done.incrementAndGet();
                  }
                } catch (Exception e) {
                  synchronized (failures) {
                    failures.add(e);
                  }
                  ready.countDown();
                }
              },
              "load-" + c);
      thread.start();
      threads.add(thread);
    }
    ready.await();
    double cpu0 = engine.cpuSeconds();
    long start = System.nanoTime();
    go.countDown();
    Thread.sleep(settings.scale(5_000, 1_000));
    stop.set(true);
    double seconds = (System.nanoTime() - start) / 1e9;
    double cpu = (engine.cpuSeconds() - cpu0) / seconds * 100;
    for (Thread thread : threads) {
      thread.join();
    }
    if (!failures.isEmpty()) {
      throw failures.get(0);
    }
    String name =
        "`GET /api/state`, "
            + engine.sessions.size()
            + " sessions, "
            + connections
            + " keep-alive connection"
            + (connections == 1 ? "" : "s");
    String note =
        String.format(
            "%.0f s, a load generator in the runner's JVM; %,d bytes an answer, engine CPU %.0f %% of"
                + " a core",
            seconds, bytes, cpu);
    Samples rate = Samples.of(done.get() / seconds);
    return connections == 16
        ? Figure.atLeast(name, "requests/s", rate, 5_000, note)
        : Figure.reference(name, "requests/s", rate, note);
  }

  private static RawHttp wait(EngineProcess engine, String id, String state, int timeout)
      throws Exception {
    RawHttp http = new RawHttp(engine.host, engine.port);
    http.send(
        RawHttp.get(
            "/api/sessions/" + id + "/wait?for=" + state + "&timeout=" + timeout,
            engine.api.token));
    return http;
  }

  /** The engine's CPU in each of the next {@code seconds}, in percent of one core. */
  private static Samples cpuPercent(EngineProcess engine, int seconds) throws Exception {
    Samples percent = new Samples();
    double cpu = engine.cpuSeconds();
    long time = System.nanoTime();
    for (int i = 0; i < seconds; i++) {
      Thread.sleep(1_000);
      double cpuNow = engine.cpuSeconds();
      long timeNow = System.nanoTime();
      percent.add((cpuNow - cpu) / ((timeNow - time) / 1e9) * 100);
      cpu = cpuNow;
      time = timeNow;
    }
    return percent;
  }

  private static void closeAll(List<RawHttp> connections) throws IOException {
    for (RawHttp http : connections) {
      http.close();
    }
  }
}
