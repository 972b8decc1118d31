package dev.clique.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Cold start of {@code clique mcp}: spawn to the {@code initialize} answer, with the launcher's
 * class-data archive and without it, beside a trivial JVM program started the same way (the
 * difference is what clique adds).
 */
final class ColdStartBenchmark implements Benchmark {
  /**
   * The JVM options bin/clique gives {@code clique mcp}, or with {@code embedded} {@code clique mcp
   * --embedded}: read from the launcher itself (its {@code flags=(...)} and {@code flags+=(...)},
   * and its {@code remote_flags} or {@code embedded_flags}), so the two never drift.
   */
  static List<String> launcherFlags(Path launcher, boolean embedded) throws IOException {
    List<String> flags = new ArrayList<>();
    String mode = embedded ? "embedded_" : "remote_";
    Matcher block =
        Pattern.compile("(?<![\\w])(?:" + mode + ")?flags\\+?=\\(([^)]*)\\)")
            .matcher(Files.readString(launcher));
    while (block.find()) {
      for (String word : block.group(1).split("\\s+")) {
        if (word.startsWith("-X") && !word.contains("$")) {
          flags.add(word);
        }
      }
    }
    if (!flags.contains("-XX:+UseSerialGC")) {
      throw new IllegalStateException("no JVM options found in " + launcher + ": " + flags);
    }
    return flags;
  }

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
    trivial.addAll(launcherFlags(settings.launcher(), false));
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
