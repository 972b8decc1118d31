package dev.clique.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
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
        settings.launcher(),
        () -> ServeProcess.start(settings.launcher()),
        settings.scale(180, 60))) {
      System.err.println("idle-cost: clique serve's class-data archive was not made; without it");
    }
    for (int sessions : settings.quick() ? List.of(0, 2) : List.of(0, 20, 200)) {
      try (ServeProcess serve = ServeProcess.start(settings.launcher())) {
        System.err.printf("idle-cost: %d shell sessions...%n", sessions);
        for (int i = 0; i < sessions; i++) {
          serve.createShell("idle-" + i);
        }
        Thread.sleep(TimeUnit.SECONDS.toMillis(settle));
        ServeProcess.Cost cost = serve.cost(quiet);
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
  private static List<Figure> afterLongIdle(ServeProcess serve, Settings settings, int quiet)
      throws IOException, InterruptedException {
    int runFor = settings.scale(LONG_IDLE_SECONDS, 60);
    long left = TimeUnit.SECONDS.toNanos(runFor) - (System.nanoTime() - serve.startedAt());
    System.err.printf("idle-cost: the 20 sessions' engine until it has run %d s...%n", runFor);
    if (left > 0) {
      TimeUnit.NANOSECONDS.sleep(left);
    }
    ServeProcess.Cost cost = serve.cost(quiet);
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
    try (ServeProcess serve = ServeProcess.start(settings.launcher())) {
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
          before[i] = ServeProcess.ticks(assistants.get(i).pid());
        }
        before[3] = ServeProcess.ticks(tmux);
        long t0 = System.nanoTime();
        Thread.sleep(TimeUnit.SECONDS.toMillis(quiet));
        double wall = (System.nanoTime() - t0) / 1e9;
        double total = 0;
        List<String> each = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          long[] after = ServeProcess.ticks(i < 3 ? assistants.get(i).pid() : tmux);
          double ms = (after[0] + after[1] - before[i][0] - before[i][1]) / TICKS * 1000 / wall;
          total += ms;
          each.add(String.format("%.3f", ms));
        }
        int listening = 0;
        for (Process assistant : assistants) {
          listening += ServeProcess.listens(assistant.pid()) ? 1 : 0;
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
}
