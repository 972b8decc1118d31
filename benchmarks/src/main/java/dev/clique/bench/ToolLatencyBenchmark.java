package dev.clique.bench;

import dev.clique.client.CliqueClient;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tools/call} of each tool, end to end through a spawned {@code clique mcp} and a real
 * engine, with 5 and with 50 sessions; beside a raw {@code GET /healthz} through the same client
 * library (the floor: what HTTP alone costs).
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
    try (BenchEngine engine = BenchEngine.start(java.util.Map.of())) {
      for (int sessions : new int[] {5, 50}) {
        engine.grow(settings.quick() ? Math.min(sessions, 3) : sessions, "shell");
        String id = engine.sessions.get(0);
        try (McpProcess mcp =
            McpProcess.start(List.of(settings.launcher().toString(), "mcp"), engine.mcpEnv())) {
          mcp.roundTrip(McpProcess.initialize(1));
          String[][] tools = {
            {"list_sessions", "{}"},
            {"get_session", "{\"id\":\"" + id + "\"}"},
            {"wait", "{\"id\":\"" + id + "\",\"timeout\":0}"},
            {"preview_pane", "{\"id\":\"" + id + "\",\"lines\":40}"},
            {"conversation", "{\"id\":\"" + id + "\"}"}
          };
          for (String[] tool : tools) {
            Samples samples = new Samples();
            for (int i = 0; i < warmup + calls; i++) {
              long start = System.nanoTime();
              String answer = mcp.callTool(tool[0], tool[1]);
              double ms = (System.nanoTime() - start) / 1e6;
              if (!answer.contains("\"isError\":false")) {
                throw new IllegalStateException(tool[0] + " failed: " + answer);
              }
              if (i >= warmup) {
                samples.add(ms);
              }
            }
            String name = "`" + tool[0] + "` with " + sessions + " sessions";
            String note = calls + " calls after " + warmup + " to warm up";
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
    }
    return figures;
  }
}
