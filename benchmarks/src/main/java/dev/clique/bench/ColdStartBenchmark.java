package dev.clique.bench;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cold start of {@code clique mcp}: spawn to the {@code initialize} answer, beside a trivial JVM
 * program started the same way (the difference is what clique adds).
 */
final class ColdStartBenchmark implements Benchmark {
  @Override
  public String name() {
    return "cold-start";
  }

  @Override
  public List<Figure> run(Settings settings) throws Exception {
    int runs = settings.scale(10, 2);
    Map<String, String> env = new HashMap<>(System.getenv());
    // The engine is not contacted at start-up: a token and a URL nobody answers are enough.
    env.put("CLIQUE_TOKEN", "mxp_" + "c".repeat(43));
    env.put("CLIQUE_URL", "http://127.0.0.1:9");
    List<String> clique = List.of(settings.launcher().toString(), "mcp");
    List<String> trivial =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-Xlog:disable",
            "-cp",
            settings.echoClassPath(),
            Echo.class.getName());
    time(clique, env, 1); // a first launch may build or write a class-data archive
    Samples cliqueMs = time(clique, env, runs);
    Samples trivialMs = time(trivial, env, runs);
    return List.of(
        Figure.atMost(
            "cold start of `clique mcp` (spawn -> initialize reply)",
            "ms",
            cliqueMs,
            200,
            runs + " launches of bin/clique"),
        Figure.reference(
            "cold start of a trivial JVM program, the same way",
            "ms",
            trivialMs,
            String.format("clique / trivial = %.2f", cliqueMs.median() / trivialMs.median())));
  }

  private static Samples time(List<String> command, Map<String, String> env, int runs)
      throws Exception {
    Samples samples = new Samples();
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      try (McpProcess process = McpProcess.start(command, env)) {
        process.roundTrip(McpProcess.initialize(1));
        samples.add((System.nanoTime() - start) / 1e6);
      }
    }
    return samples;
  }
}
