package dev.clique.bench;

import dev.clique.client.CliqueClient;
import dev.clique.client.CliqueException;
import dev.clique.client.SessionState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code tools/call} of each tool, end to end through a spawned {@code clique mcp} and a real
 * engine, with 5 and with 50 sessions; beside a raw {@code GET /healthz} through the same client
 * library (the floor: what HTTP alone costs). Then the resident memory of a {@code clique mcp}
 * after 1,000 calls.
 */
final class ToolLatencyBenchmark implements Benchmark {
  @Override
  public String name() {
    return "tool-latency";
  }

  @Override
  public List<Figure> run(Settings settings) throws Exception {
    int calls = settings.scale(300, 10);
    int warmup = settings.scale(200, 5);
    List<Figure> figures = new ArrayList<>();
    // Quiet shells: a shell's start-up files (a version manager re-indexing, say) would keep the
    // sessions and the machine busy while the calls are timed.
    try (BenchEngine engine = BenchEngine.start(Map.of(), BenchEngine.QUIET_SHELL)) {
      for (int sessions : new int[] {5, 50}) {
        engine.grow(settings.quick() ? Math.min(sessions, 3) : sessions, "shell");
        warmUp(engine, settings.scale(1_000, 2));
        try (McpProcess mcp = McpProcess.start(clique(settings), engine.mcpEnv())) {
          mcp.roundTrip(McpProcess.initialize(1));
          for (String[] tool : tools(engine.sessions.get(0))) {
            Samples samples = new Samples();
            for (int i = 0; i < warmup + calls; i++) {
              long start = System.nanoTime();
              call(mcp, tool);
              double ms = (System.nanoTime() - start) / 1e6;
              if (i >= warmup) {
                samples.add(ms);
              }
            }
            String name = "`" + tool[0] + "` with " + sessions + " sessions";
            String note =
                calls + " calls after " + warmup + " to warm up, the engine warmed up before";
            if (tool[0].equals("list_sessions") && sessions == 50) {
              figures.add(Figure.atMost(name, "ms", samples, 2, note));
            } else if (tool[0].equals("preview_pane")) {
              figures.add(
                  Figure.atMost(
                      name.replace("`preview_pane`", "`preview_pane` (40 lines)"),
                      "ms",
                      samples,
                      3,
                      note));
            } else {
              figures.add(Figure.reference(name, "ms", samples, note));
            }
          }
        }
      }
      CliqueClient client =
          CliqueClient.builder().baseUrl(engine.url()).token(engine.reader).build();
      Samples floor = new Samples();
      for (int i = 0; i < warmup + calls; i++) {
        long start = System.nanoTime();
        client.health();
        if (i >= warmup) {
          floor.add((System.nanoTime() - start) / 1e6);
        }
      }
      figures.add(
          Figure.reference(
              "raw `GET /healthz` through the client library (the floor)",
              "ms",
              floor,
              calls + " calls, in-process"));
      figures.addAll(memory(engine, settings));
    }
    return figures;
  }

  /**
   * Serves each route the tools use {@code rounds} times, through the client library: a user's
   * {@code clique mcp} talks to an engine that has been running, whose code is compiled by then, so
   * the figures are of the new {@code clique mcp}, not of a new engine's compiler.
   */
  private static void warmUp(BenchEngine engine, int rounds) throws CliqueException {
    CliqueClient client = CliqueClient.builder().baseUrl(engine.url()).token(engine.reader).build();
    String id = engine.sessions.get(0);
    for (int i = 0; i < rounds; i++) {
      client.state();
      client.peek(id, 40);
      client.waitFor(id, Duration.ZERO, SessionState.IDLE);
      client.conversation(id);
    }
  }

  /**
   * VmRSS (target) and VmHWM (its peak) of fresh {@code clique mcp} processes after 1,000 calls,
   * the five tools in turn, as a user runs it: through bin/clique, with its class-data archive;
   * beside them, the same of {@link LibraryFloor}, clique's libraries doing the least a call needs.
   */
  private static List<Figure> memory(BenchEngine engine, Settings settings) throws Exception {
    int calls = settings.scale(1_000, 50);
    int processes = settings.scale(3, 1);
    boolean archive =
        ClassDataArchive.await(settings.launcher(), engine.mcpEnv(), settings.scale(60, 10));
    String[][] tools = tools(engine.sessions.get(0));
    Samples[] clique = residentAfter(clique(settings), engine, calls, processes, tools);
    Samples[] floor =
        residentAfter(
            LibraryFloor.command(
                ColdStartBenchmark.launcherFlags(settings.launcher(), false),
                false,
                engine.home,
                settings,
                training ->
                    residentAfter(
                        training, engine, Math.min(calls, 50), 1, tools(engine.sessions.get(0)))),
            engine,
            calls,
            processes,
            tools);
    String many = String.format("%,d", calls);
    String how =
        processes
            + (processes == 1 ? " process, " : " processes, ")
            + engine.sessions.size()
            + " sessions, the five tools in turn"
            + (archive ? "" : ", **without** the class-data archive");
    return List.of(
        Figure.atMost(
            "RSS of `clique mcp` after " + many + " calls", "MiB", clique[0], 48, "VmRSS; " + how),
        Figure.reference("its peak RSS", "MiB", clique[1], "VmHWM of the same processes"),
        Figure.reference(
            "RSS of the least clique's libraries do, the same way",
            "MiB",
            floor[0],
            "VmRSS; OkHttp (plain HTTP) and Jackson's streaming API, no clique code: each call"
                + " copies `/api/state` into its answer; bin/clique's JVM options and a"
                + " class-data archive of its own; "
                + how));
  }

  /** VmRSS and VmHWM of fresh processes of {@code command} after {@code calls} calls. */
  private static Samples[] residentAfter(
      List<String> command, BenchEngine engine, int calls, int processes, String[][] tools)
      throws Exception {
    Samples rss = new Samples();
    Samples peak = new Samples();
    for (int p = 0; p < processes; p++) {
      try (McpProcess mcp = McpProcess.start(command, engine.mcpEnv())) {
        mcp.roundTrip(McpProcess.initialize(1));
        for (int i = 0; i < calls; i++) {
          call(mcp, tools[i % tools.length]);
        }
        Map<String, String> status = status(mcp.pid());
        rss.add(mebibytes(status.get("VmRSS")));
        peak.add(mebibytes(status.get("VmHWM")));
      }
    }
    return new Samples[] {rss, peak};
  }

  private static List<String> clique(Settings settings) {
    return List.of(settings.launcher().toString(), "mcp");
  }

  /** Each tool with its arguments, on session {@code id}. */
  private static String[][] tools(String id) {
    return new String[][] {
      {"list_sessions", "{}"},
      {"get_session", "{\"id\":\"" + id + "\"}"},
      {"wait", "{\"id\":\"" + id + "\",\"timeout\":0}"},
      {"preview_pane", "{\"id\":\"" + id + "\",\"lines\":40}"},
      {"conversation", "{\"id\":\"" + id + "\"}"}
    };
  }

  private static void call(McpProcess mcp, String[] tool) throws IOException {
    String answer = mcp.callTool(tool[0], tool[1]);
    if (!answer.contains("\"isError\":false")) {
      throw new IllegalStateException(tool[0] + " failed: " + answer);
    }
  }

  private static Map<String, String> status(long pid) throws IOException {
    Map<String, String> status = new HashMap<>();
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      int colon = line.indexOf(':');
      if (colon > 0) {
        status.put(line.substring(0, colon), line.substring(colon + 1).strip());
      }
    }
    return status;
  }

  private static double mebibytes(String kib) {
    return kib == null ? Double.NaN : Double.parseDouble(kib.replace("kB", "").strip()) / 1024;
  }
}
