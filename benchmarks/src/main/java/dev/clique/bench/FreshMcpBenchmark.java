package dev.clique.bench;

import dev.clique.client.CliqueClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a user meets in the first minutes of a {@code clique mcp} started as a user starts it
 * (bin/clique, its class-data archive made): {@code list_sessions} in calls 10 to 210 of a fresh
 * process, before its compiler has caught up, with 50 and with 200 sessions, and what a session's
 * row costs; then the resident memory of a {@code clique mcp --embedded} that hosts the home's
 * engine and of one that joins it, each after 100 calls.
 */
final class FreshMcpBenchmark implements Benchmark {
  /** The calls of a fresh process that are timed: 10 to 210, the first ones (its start) not. */
  private static final int FIRST_TIMED = 10;

  private static final int LAST_TIMED = 210;

  @Override
  public String name() {
    return "fresh-mcp";
  }

  @Override
  public List<Figure> run(Settings settings) throws Exception {
    int processes = settings.scale(5, 1);
    List<Figure> figures = new ArrayList<>();
    Map<Integer, Double> bySessions = new HashMap<>();
    try (BenchEngine engine = BenchEngine.start(Map.of(), BenchEngine.QUIET_SHELL)) {
      ClassDataArchive.await(settings.launcher(), engine.mcpEnv(), settings.scale(60, 10));
      for (int sessions : new int[] {50, 200}) {
        engine.grow(settings.quick() ? Math.min(sessions, 3) : sessions, "shell");
        warmUpEngine(engine, settings.scale(300, 2));
        // The median of each fresh process's calls 10 to 210, then the median of those.
        Samples medians = new Samples();
        for (int p = 0; p < processes; p++) {
          medians.add(freshCalls(settings, engine).median());
        }
        bySessions.put(sessions, medians.median());
        String name = "`list_sessions` with " + sessions + " sessions, calls 10-210 of a fresh";
        String note =
            processes
                + " fresh `clique mcp` through bin/clique, the median of each one's calls 10-210,"
                + " then the median of those (p95: of the processes' medians); the engine warmed"
                + " up before";
        figures.add(
            Figure.atMost(name + " `clique mcp`", "ms", medians, sessions == 50 ? 2 : 5, note));
      }
    }
    // More sessions answered quicker says only that the machine's load moved between the two:
    // no figure then, rather than one that meets its target by luck.
    double grew = bySessions.get(200) - bySessions.get(50);
    double perRow = grew < 0 ? Double.NaN : grew / 150 * 1000;
    figures.add(
        Figure.atMost(
            "a session's row in `list_sessions`, calls 10-210",
            "µs",
            Samples.of(perRow),
            20,
            "the two rows above: (200 sessions - 50 sessions) / 150; none when it is below 0 (the load moved)"));
    figures.addAll(embeddedMemory(settings));
    return figures;
  }

  /** The times of calls 10 to 210 of {@code list_sessions} of a fresh {@code clique mcp}. */
  private static Samples freshCalls(Settings settings, BenchEngine engine) throws Exception {
    Samples samples = new Samples();
    try (McpProcess mcp =
        McpProcess.start(List.of(settings.launcher().toString(), "mcp"), engine.mcpEnv())) {
      mcp.roundTrip(McpProcess.initialize(1));
      for (int call = 1; call <= LAST_TIMED; call++) {
        long start = System.nanoTime();
        listSessions(mcp);
        if (call >= FIRST_TIMED) {
          samples.add((System.nanoTime() - start) / 1e6);
        }
      }
    }
    return samples;
  }

  /** The engine a user's {@code clique mcp} talks to has been running: its code compiled. */
  private static void warmUpEngine(BenchEngine engine, int rounds) throws Exception {
    CliqueClient client = CliqueClient.builder().baseUrl(engine.url()).token(engine.reader).build();
    for (int i = 0; i < rounds; i++) {
      client.state();
    }
  }

  /**
   * VmRSS after 100 calls of a {@code clique mcp --embedded} that hosts the home's engine (the
   * first on a new home) and of one that joins it (a second on the same home, while the first
   * runs), each on a home of its own with no sessions.
   */
  private static List<Figure> embeddedMemory(Settings settings) throws Exception {
    int calls = settings.scale(100, 10);
    int rounds = settings.scale(3, 1);
    Samples hosts = new Samples();
    Samples joins = new Samples();
    List<String> command = List.of(settings.launcher().toString(), "mcp", "--embedded");
    for (int round = 0; round < rounds; round++) {
      Path work = Files.createTempDirectory("clique-bench-embedded-");
      String socket = "clique-bench-embedded-" + ProcessHandle.current().pid() + "-" + round;
      Map<String, String> env = new HashMap<>(System.getenv());
      env.put("CLIQUE_HOME", work.resolve("home").toString());
      env.put("CLIQUE_TMUX_SOCKET", socket);
      env.put("CLIQUE_DISCOVER", "off");
      try (McpProcess host = McpProcess.start(command, env)) {
        host.roundTrip(McpProcess.initialize(1));
        callsOf(host, calls);
        try (McpProcess joiner = McpProcess.start(command, env)) {
          joiner.roundTrip(McpProcess.initialize(1));
          callsOf(joiner, calls);
          hosts.add(resident(host.pid()));
          joins.add(resident(joiner.pid()));
        }
      } finally {
        new ProcessBuilder("tmux", "-L", socket, "kill-server")
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start()
            .waitFor();
        delete(work);
      }
    }
    String how =
        rounds
            + " homes of no sessions: the first process on each hosts its engine, a second"
            + " joins it; `list_sessions` each call";
    return List.of(
        Figure.atMost(
            "RSS of `clique mcp --embedded` that joins a running engine, after " + calls + " calls",
            "MiB",
            joins,
            48,
            "VmRSS; " + how),
        Figure.atMost(
            "RSS of `clique mcp --embedded` that hosts the engine, after " + calls + " calls",
            "MiB",
            hosts,
            64,
            "VmRSS; the same processes"));
  }

  private static void callsOf(McpProcess mcp, int calls) throws IOException {
    for (int i = 0; i < calls; i++) {
      listSessions(mcp);
    }
  }

  private static void listSessions(McpProcess mcp) throws IOException {
    String answer = mcp.callTool("list_sessions", "{}");
    if (!answer.contains("\"isError\":false")) {
      throw new IllegalStateException("list_sessions failed: " + answer);
    }
  }

  private static double resident(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Double.parseDouble(line.replaceAll("[^0-9]", "")) / 1024;
      }
    }
    throw new IllegalStateException("no VmRSS for " + pid);
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
