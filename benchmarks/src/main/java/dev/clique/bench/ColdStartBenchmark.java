package dev.clique.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Cold start of {@code clique mcp}: spawn to the {@code initialize} answer, with the launcher's
 * class-data archive and without it, beside a trivial JVM program started the same way (the
 * difference is what clique adds).
 */
final class ColdStartBenchmark implements Benchmark {
  /** The JVM options bin/clique gives {@code clique mcp}, for the trivial program. */
  private static final List<String> LAUNCHER_FLAGS =
      List.of(
          "-Xlog:disable",
          "-Xlog:all=warning:stderr",
          "-XX:+UseSerialGC",
          "-Xss512k",
          "-XX:-UsePerfData",
          "-XX:TieredStopAtLevel=1",
          "-Xms16m",
          "-Xmx96m",
          "-XX:ReservedCodeCacheSize=32m",
          "-XX:MaxMetaspaceSize=96m",
          "-XX:CICompilerCount=1");

  @Override
  public String name() {
    return "cold-start";
  }

  @Override
  public List<Figure> run(Settings settings) throws Exception {
    int runs = settings.scale(10, 2);
    int archiveSeconds = settings.scale(60, 10);
    Map<String, String> env = new HashMap<>(System.getenv());
    // The engine is not contacted at start-up: a token and a URL nobody answers are enough.
    env.put("CLIQUE_TOKEN", "mxp_" + "c".repeat(43));
    env.put("CLIQUE_URL", "http://127.0.0.1:9");
    Map<String, String> withoutArchive = new HashMap<>(env);
    withoutArchive.put("CLIQUE_CDS", "0");
    List<String> clique = List.of(settings.launcher().toString(), "mcp");
    List<String> trivial = new ArrayList<>();
    trivial.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    trivial.addAll(LAUNCHER_FLAGS);
    trivial.addAll(List.of("-cp", settings.echoClassPath(), Echo.class.getName()));

    boolean archive = ClassDataArchive.await(settings.launcher(), env, archiveSeconds);
    time(trivial, env); // once each untimed: the page cache holds what they read
    time(clique, withoutArchive);
    time(clique, env);
    Samples cliqueMs = new Samples();
    Samples withoutArchiveMs = new Samples();
    Samples trivialMs = new Samples();
    for (int i = 0; i < runs; i++) { // interleaved, so that the machine's moods hit all three
      trivialMs.add(time(trivial, env));
      cliqueMs.add(time(clique, env));
      withoutArchiveMs.add(time(clique, withoutArchive));
    }
    return List.of(
        Figure.atMost(
            "cold start of `clique mcp` (spawn -> initialize reply)",
            "ms",
            cliqueMs,
            200,
            runs
                + " launches of bin/clique, "
                + (archive
                    ? "with its class-data archive"
                    : "**without** its class-data archive (not made within "
                        + archiveSeconds
                        + " s)")),
        Figure.reference(
            "the same with `CLIQUE_CDS=0` (no class-data archive)",
            "ms",
            withoutArchiveMs,
            runs + " launches"),
        Figure.reference(
            "cold start of a trivial JVM program, the same way",
            "ms",
            trivialMs,
            String.format(
                "the JVM options bin/clique gives `clique mcp`; clique / trivial = %.2f",
                cliqueMs.median() / trivialMs.median())));
  }

  private static double time(List<String> command, Map<String, String> env) throws Exception {
    long start = System.nanoTime();
    try (McpProcess process = McpProcess.start(command, env)) {
      process.roundTrip(McpProcess.initialize(1));
      return (System.nanoTime() - start) / 1e6;
    }
  }
}
