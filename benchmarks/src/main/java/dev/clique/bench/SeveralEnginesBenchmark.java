package dev.clique.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.client.CliqueClient;
import dev.clique.client.CliqueException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code list_sessions} end to end through a spawned {@code clique mcp} over three engines of 50
 * sessions each (named in an engines file, as a user names them), beside one engine of 150 through
 * the one-engine form: what the fan-out and the merge add to the same number of sessions.
 */
final class SeveralEnginesBenchmark implements Benchmark {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int ENGINES = 3;

  @Override
  public String name() {
    return "several-engines";
  }

  @Override
  public List<Figure> run(Settings settings) throws Exception {
    int each = settings.scale(50, 2);
    int calls = settings.scale(300, 10);
    int warmup = settings.scale(200, 5);
    int block = settings.scale(50, 5);
    List<BenchEngine> engines = new ArrayList<>();
    try {
      for (int i = 0; i <= ENGINES; i++) {
        engines.add(BenchEngine.start(Map.of(), BenchEngine.QUIET_SHELL));
      }
      List<BenchEngine> several = engines.subList(0, ENGINES);
      BenchEngine one = engines.get(ENGINES);
      for (BenchEngine engine : several) {
        engine.grow(each, "shell");
      }
      one.grow(each * ENGINES, "shell");
      for (BenchEngine engine : engines) {
        awaitIdle(engine);
      }
      for (BenchEngine engine : engines) {
        warmUp(engine, settings.scale(1_000, 2));
      }
      List<String> clique = List.of(settings.launcher().toString(), "mcp");
      Samples fanOut = new Samples();
      Samples single = new Samples();
      try (McpProcess overEngines = McpProcess.start(clique, enginesFileEnv(several));
          McpProcess overOne = McpProcess.start(clique, one.mcpEnv())) {
        overEngines.roundTrip(McpProcess.initialize(1));
        overOne.roundTrip(McpProcess.initialize(1));
        check(overEngines, each * ENGINES, ENGINES);
        check(overOne, each * ENGINES, 0);
        for (int i = 0; i < warmup; i++) {
          time(overEngines);
          time(overOne);
        }
        // Blocks taken in turn, each form first every other time, so that the load others put on
        // a shared machine falls on both alike.
        for (int done = 0, round = 0; done < calls; done += block, round++) {
          int n = Math.min(block, calls - done);
          if (round % 2 == 0) {
            measure(overEngines, n, fanOut);
            measure(overOne, n, single);
          } else {
            measure(overOne, n, single);
            measure(overEngines, n, fanOut);
          }
        }
      }
      String how =
          calls
              + " calls after "
              + warmup
              + " to warm up, in turns of "
              + block
              + " with the other form; the engines warmed up before";
      String severalName = "`list_sessions` over " + ENGINES + " engines of " + each + " sessions";
      String oneName = "`list_sessions` with " + each * ENGINES + " sessions on one engine";
      return List.of(
          Figure.reference(severalName, "ms", fanOut, how + "; named in an engines file"),
          Figure.reference(oneName, "ms", single, how + "; CLIQUE_URL and CLIQUE_TOKEN"),
          new Figure(
              "the same over " + ENGINES + " engines / on one engine",
              "x",
              fanOut.median() / single.median(),
              fanOut.p95() / single.p95(),
              "",
              true,
              "the two rows above: median by median, p95 by p95"));
    } finally {
      for (BenchEngine engine : engines) {
        engine.close();
      }
    }
  }

  /**
   * The environment of a {@code clique mcp} over {@code engines}: neither CLIQUE_URL nor
   * CLIQUE_TOKEN, a home of its own whose engines file names them, each token in a variable.
   */
  private static Map<String, String> enginesFileEnv(List<BenchEngine> engines) throws IOException {
    Path home = engines.get(0).home.resolve("engines-home");
    Files.createDirectory(
        home, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    Map<String, String> env = new HashMap<>(System.getenv());
    env.remove("CLIQUE_URL");
    env.remove("CLIQUE_TOKEN");
    env.put("CLIQUE_HOME", home.toString());
    StringBuilder toml = new StringBuilder();
    for (int i = 0; i < engines.size(); i++) {
      String variable = "CLIQUE_TOKEN_BENCH_" + (i + 1);
      toml.append("[engines.engine-")
          .append(i + 1)
          .append("]\nurl = \"")
          .append(engines.get(i).url())
          .append("\"\ntoken_env = \"")
          .append(variable)
          .append("\"\n\n");
      env.put(variable, engines.get(i).reader);
    }
    Path file =
        Files.createFile(
            home.resolve("engines.toml"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, toml, StandardCharsets.UTF_8);
    return env;
  }

  /** The answer lists every session, and over several engines says each of them answered. */
  private static void check(McpProcess mcp, int sessions, int engines) throws IOException {
    JsonNode answer = JSON.readTree(call(mcp));
    JsonNode structured = answer.at("/result/structuredContent");
    if (structured.path("sessions").size() != sessions
        || structured.path("engines").size() != engines) {
      throw new IllegalStateException(
          "list_sessions named "
              + structured.path("sessions").size()
              + " sessions of "
              + structured.path("engines").size()
              + " engines, not "
              + sessions
              + " of "
              + engines);
    }
    for (JsonNode engine : structured.path("engines")) {
      if (!engine.path("ok").asBoolean()) {
        throw new IllegalStateException("an engine did not answer: " + engine);
      }
    }
  }

  private static void measure(McpProcess mcp, int calls, Samples into) throws IOException {
    for (int i = 0; i < calls; i++) {
      into.add(time(mcp));
    }
  }

  private static double time(McpProcess mcp) throws IOException {
    long start = System.nanoTime();
    call(mcp);
    return (System.nanoTime() - start) / 1e6;
  }

  private static String call(McpProcess mcp) throws IOException {
    String answer = mcp.callTool("list_sessions", "{}");
    if (!answer.contains("\"isError\":false")) {
      throw new IllegalStateException("list_sessions failed: " + answer);
    }
    return answer;
  }

  /** Every session idle: a shell still starting would change state while the calls are timed. */
  private static void awaitIdle(BenchEngine engine) throws IOException, InterruptedException {
    for (String id : engine.sessions) {
      engine.api.get("/api/sessions/" + id + "/wait?for=idle&timeout=30");
    }
  }

  /** As a user's engine has been running: its state route compiled before the calls are timed. */
  private static void warmUp(BenchEngine engine, int rounds) throws IOException {
    CliqueClient client = CliqueClient.builder().baseUrl(engine.url()).token(engine.reader).build();
    try {
      for (int i = 0; i < rounds; i++) {
        client.state();
      }
    } catch (CliqueException e) {
      throw new IOException("warming the engine up failed: " + e.getMessage(), e);
    }
  }
}
