package dev.clique.bench;

import dev.clique.bench.RealCliBenchmark.Cli;
import dev.clique.bench.RealCliBenchmark.Driver;
import dev.clique.models.ScriptedModelServer.Step;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code clique serve} costs with real CLIs as its sessions, counted as {@link
 * IdleCostBenchmark} counts idle shells: the engine's own CPU, that of the processes it started and
 * reaped, and its tmux server's. The CLIs' own CPU is not the engine's and is not counted: they are
 * the tmux server's children, reaped only if they ended, and every pane's process is checked to run
 * on throughout. Two stretches on one engine: every session at its ready prompt, then a few of them
 * streaming a long answer from their scripted model at once.
 */
final class RealCliCost {
  /** How fast a streamed answer comes: about a model's 50 tokens a second. */
  private static final int CHARS_PER_SECOND = 200;

  private static final int PIECES_PER_SECOND = 10;

  /** How many sessions stream at once: two Claude Code, two Codex, one Gemini CLI. */
  private static final int STREAMS = 5;

  private static final String PROMPT = "Explain the design at length";

  private final Settings settings;
  private final List<Cli> clis;
  private final Path project;
  private final Map<String, String> env;

  /**
   * @param clis the CLIs the sessions are made of, in turn
   * @param env the environment the CLIs need (their PATH, home, keys and model servers' URLs)
   */
  RealCliCost(Settings settings, List<Cli> clis, Path project, Map<String, String> env) {
    this.settings = settings;
    this.clis = clis;
    this.project = project;
    this.env = env;
  }

  List<Figure> measure() throws Exception {
    Path launcher = settings.launcher();
    // Measured as it runs every day after its first: with the class-data archive of its own.
    if (!ClassDataArchive.awaitServe(
        launcher, () -> ServeProcess.start(launcher), settings.scale(180, 60))) {
      System.err.println("real-clis: clique serve's class-data archive was not made; without it");
    }
    int count = settings.scale(20, 3);
    int window = settings.scale(60, 5);
    List<Figure> figures = new ArrayList<>();
    try (ServeProcess serve = ServeProcess.start(launcher, env)) {
      Driver engine = new Driver(serve.api, serve.tmux);
      System.err.printf("real-clis: %d sessions on clique serve...%n", count);
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        ids.add(engine.api().create(cli(i).id(), project, cli(i).id() + "-" + i, cli(i).mode()));
      }
      for (int i = 0; i < count; i++) {
        RealCliBenchmark.awaitReady(engine, ids.get(i), cli(i));
      }
      Thread.sleep(settings.scale(5_000, 500)); // past their start-up work
      ServeProcess.Cost idle = costWhilePanesRun(serve, window);
      figures.add(
          Figure.reference(
              "CPU of `clique serve` with " + count + " real-CLI sessions idle, counted whole",
              "ms/s",
              Samples.of(idle.total()),
              String.format(
                  "bin/clique serve, %s at their ready prompt, %.1f s past their start-up; over %d"
                      + " s: %s",
                  mix(count), settings.scale(5_000, 500) / 1000.0, window, parts(idle))));
      figures.addAll(streaming(serve, engine, ids, idle, window));
    }
    return figures;
  }

  /**
   * The same engine while {@value #STREAMS} of its sessions (fewer if it has fewer) stream an
   * answer at once, the others idle: its CPU, and the bytes its tmux server read meanwhile, the
   * panes' output (the lines they print cannot be told: the CLIs repaint their answers in place).
   */
  private List<Figure> streaming(
      ServeProcess serve, Driver engine, List<String> ids, ServeProcess.Cost idle, int window)
      throws Exception {
    int streams = Math.min(STREAMS, ids.size());
    // Every answer lasts this much longer than the window: the time all of them have to start.
    int slack = settings.scale(30, 15);
    int seconds = window + slack;
    String answer = answer(CHARS_PER_SECOND * seconds);
    System.err.printf("real-clis: %d of them streaming an answer...%n", streams);
    long start = System.nanoTime();
    for (int i = 0; i < streams; i++) {
      cli(i)
          .model()
          .then(
              new Step.SlowText(answer, PIECES_PER_SECOND * seconds, Duration.ofSeconds(seconds)));
      ask(engine, ids.get(i), cli(i));
    }
    double started = (System.nanoTime() - start) / 1e9;
    if (started > slack) {
      throw new IOException(
          "the answers took " + started + " s to start; the first may end within the window");
    }
    long read = bytesRead(serve.tmuxPid());
    ServeProcess.Cost cost = costWhilePanesRun(serve, window);
    double kib = (bytesRead(serve.tmuxPid()) - read) / 1024.0;
    String who = mix(streams) + " of " + ids.size() + " real-CLI sessions";
    return List.of(
        Figure.reference(
            "CPU of `clique serve` with "
                + streams
                + " of "
                + ids.size()
                + " real-CLI sessions"
                + " streaming an answer, counted whole",
            "ms/s",
            Samples.of(cost.total()),
            String.format(
                "%s each streaming a %d-line answer, %d chars/s in %d pieces a second, from its"
                    + " scripted model, the others idle; over %d s: %s; %.2f ms of CPU per KiB"
                    + " the tmux server read, above idle",
                who,
                answer.lines().count(),
                CHARS_PER_SECOND,
                PIECES_PER_SECOND,
                window,
                parts(cost),
                (cost.total() - idle.total()) * window / Math.max(kib, 1e-9))),
        Figure.reference(
            "output read by the tmux server of " + streams + " streaming real-CLI sessions",
            "KiB",
            Samples.of(kib),
            "over the "
                + window
                + " s above: /proc/<tmux server>/io rchar, the panes' output and"
                + " its clients' commands"));
  }

  /**
   * Sends {@link #PROMPT} as a person types it, and waits until the CLI has asked its model: a
   * Gemini CLI busy painting may take the Enter as a newline, so it is pressed again while the
   * prompt is still in the input box.
   */
  private static void ask(Driver engine, String id, Cli cli) throws Exception {
    int asked = cli.turns().getAsInt();
    engine.api().type(id, PROMPT);
    Thread.sleep(RealCliBenchmark.SUBMIT_GAP_MILLIS);
    engine.api().key(id, "Enter");
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    long nextEnter = System.nanoTime() + Duration.ofSeconds(2).toNanos();
    while (cli.turns().getAsInt() <= asked) {
      long now = System.nanoTime();
      if (now > deadline) {
        throw new IOException(
            cli.label() + " never asked its model; pane:\n" + engine.tmux().capture(id));
      }
      if (cli.id().equals("gemini")
          && now > nextEnter
          && RealCliBenchmark.inInputBox(engine.tmux().capture(id), PROMPT)) {
        engine.api().key(id, "Enter");
        nextEnter = now + Duration.ofSeconds(2).toNanos();
      }
      Thread.sleep(100);
    }
  }

  /**
   * The engine's cost over {@code seconds}, with every pane's process running on throughout: one
   * that ended would have its CPU counted as its tmux server's.
   */
  private static ServeProcess.Cost costWhilePanesRun(ServeProcess serve, int seconds)
      throws IOException, InterruptedException {
    String before = panePids(serve.tmux);
    ServeProcess.Cost cost = serve.cost(seconds);
    String after = panePids(serve.tmux);
    if (!before.equals(after)) {
      throw new IOException("a pane's process ended while measured: " + before + " -> " + after);
    }
    return cost;
  }

  private static String panePids(TmuxSocket tmux) throws IOException, InterruptedException {
    return tmux.run("list-panes", "-a", "-F", "#{pane_pid}").strip();
  }

  /** The bytes {@code pid} has read so far, from files, pipes, terminals and sockets. */
  private static long bytesRead(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "io"))) {
      if (line.startsWith("rchar:")) {
        return Long.parseLong(line.substring(6).strip());
      }
    }
    throw new IOException("no rchar in /proc/" + pid + "/io");
  }

  private static String parts(ServeProcess.Cost cost) {
    return String.format(
        "engine %.3f, processes it started %.3f, its tmux server %.3f ms/s (its tmux control"
            + " client, still running, %.3f ms/s besides; the CLIs' own CPU not counted)",
        cost.engine(), cost.spawned(), cost.tmux(), cost.running());
  }

  /** The CLI of the {@code i}th session: each in turn. */
  private Cli cli(int i) {
    return clis.get(i % clis.size());
  }

  /** How many of the first {@code count} sessions each CLI has. */
  private Map<String, Integer> mix(int count) {
    Map<String, Integer> mix = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      mix.merge(cli(i).id(), 1, Integer::sum);
    }
    return mix;
  }

  /** An answer of about {@code chars} characters, a point a line, as a model's list reads. */
  private static String answer(int chars) {
    StringBuilder text = new StringBuilder();
    for (int point = 1; text.length() < chars; point++) {
      text.append("- Point ")
          .append(point)
          .append(": each pane is read only when its tmux server says that it printed.\n");
    }
    return text.toString();
  }
}
