package dev.clique.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How soon {@code clique mcp} exits on SIGINT and SIGTERM, as a client stops it: Claude Code sends
 * SIGINT and, 100 ms later, SIGTERM (MCP.md: exit within 100 ms). Spawn, {@code initialize}, the
 * signal, the exit.
 */
final class SignalExitBenchmark implements Benchmark {
  @Override
  public String name() {
    return "signal-exit";
  }

  @Override
  public List<Figure> run(Settings settings) throws Exception {
    int runs = settings.scale(10, 2);
    Map<String, String> env = new HashMap<>(System.getenv());
    // Nothing here reaches an engine: a token and a URL nobody answers are enough.
    env.put("CLIQUE_TOKEN", "mxp_" + "c".repeat(43));
    env.put("CLIQUE_URL", "http://127.0.0.1:9");
    List<String> clique = List.of(settings.launcher().toString(), "mcp");
    time(clique, env, "INT"); // once untimed: the page cache holds what it reads
    Samples interrupt = new Samples();
    Samples terminate = new Samples();
    for (int i = 0; i < runs; i++) {
      interrupt.add(time(clique, env, "INT"));
      terminate.add(time(clique, env, "TERM"));
    }
    String how =
        runs + " launches of bin/clique: initialize, then `kill -%s`; from kill to the exit";
    return List.of(
        Figure.atMost(
            "`clique mcp` exit on SIGINT", "ms", interrupt, 100, String.format(how, "INT")),
        Figure.atMost(
            "`clique mcp` exit on SIGTERM", "ms", terminate, 100, String.format(how, "TERM")));
  }

  /** Milliseconds from the signal sent to the process gone; it must exit with 128 + the signal. */
  private static double time(List<String> command, Map<String, String> env, String signal)
      throws Exception {
    try (McpProcess process = McpProcess.start(command, env)) {
      process.roundTrip(McpProcess.initialize(1));
      Process kill =
          new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid()))
              .redirectErrorStream(true)
              .start();
      if (kill.waitFor() != 0) {
        throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
      }
      long sent = System.nanoTime();
      int code = process.awaitExit(5, TimeUnit.SECONDS);
      double took = (System.nanoTime() - sent) / 1e6;
      int expected = 128 + (signal.equals("INT") ? 2 : 15);
      if (code != expected) {
        throw new IllegalStateException(
            "clique mcp exited " + code + " on SIG" + signal + ", not " + expected);
      }
      return took;
    }
  }
}
