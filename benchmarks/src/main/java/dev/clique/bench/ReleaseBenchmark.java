package dev.clique.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The release beside the clone: how big it is, and how fast and small {@code clique mcp} and {@code
 * clique mcp --embedded} are when run from it (its own runtime and the archive made at build time)
 * and from the clone (the machine's JDK and the archive the launcher trains).
 */
final class ReleaseBenchmark implements Benchmark {
  @Override
  public String name() {
    return "release";
  }

  @Override
  public List<Figure> run(Settings settings) throws Exception {
    int runs = settings.scale(10, 2);
    int calls = settings.scale(1_000, 50);
    Path root = settings.launcher().toAbsolutePath().getParent().getParent();
    Path work = Files.createTempDirectory("clique-bench-release-");
    try {
      Path tarball = build(root, work);
      Path release = unpack(tarball, work.resolve("unpacked"));
      List<String> fromRelease = List.of(release.resolve("bin/clique").toString(), "mcp");
      List<String> fromClone = List.of(settings.launcher().toString(), "mcp");
      Map<String, String> remote = new HashMap<>(System.getenv());
      // Not contacted at start-up: a token and a URL nobody answers are enough.
      remote.put("CLIQUE_TOKEN", "mxp_" + "c".repeat(43));
      remote.put("CLIQUE_URL", "http://127.0.0.1:9");
      Map<String, String> embedded = new HashMap<>(System.getenv());
      embedded.put("CLIQUE_HOME", work.resolve("home").toString());
      embedded.put("CLIQUE_TMUX_SOCKET", "clique-bench-release-" + ProcessHandle.current().pid());
      ClassDataArchive.await(settings.launcher(), remote, settings.scale(60, 10));

      Samples releaseStart = new Samples();
      Samples cloneStart = new Samples();
      Samples releaseEmbedded = new Samples();
      Samples cloneEmbedded = new Samples();
      coldStart(fromRelease, remote); // once each untimed: the page cache holds what they read
      coldStart(fromClone, remote);
      for (int i = 0; i < runs; i++) { // interleaved, so that the machine's moods hit all four
        releaseStart.add(coldStart(fromRelease, remote));
        cloneStart.add(coldStart(fromClone, remote));
        releaseEmbedded.add(coldStart(embedded(fromRelease), embedded));
        cloneEmbedded.add(coldStart(embedded(fromClone), embedded));
      }
      List<String> floor =
          LibraryFloor.command(
              ColdStartBenchmark.launcherFlags(settings.launcher(), true),
              true,
              work,
              settings,
              training -> rssAfter(training, embedded, Math.min(calls, 50)));
      Samples releaseRss = new Samples();
      Samples cloneRss = new Samples();
      Samples floorRss = new Samples();
      for (int p = 0; p < settings.scale(3, 1); p++) {
        releaseRss.add(rssAfter(embedded(fromRelease), embedded, calls));
        cloneRss.add(rssAfter(embedded(fromClone), embedded, calls));
        floorRss.add(rssAfter(floor, embedded, calls));
      }
      String many = String.format("%,d", calls);
      return List.of(
          Figure.reference(
              "release tarball",
              "MiB",
              Samples.of(mebibytes(Files.size(tarball))),
              tarball.getFileName().toString()),
          Figure.reference(
              "the release unpacked",
              "MiB",
              Samples.of(mebibytes(sizeOf(release))),
              "runtime "
                  + Report.number(mebibytes(sizeOf(release.resolve("runtime"))))
                  + " MiB, jar and archive the rest"),
          Figure.atMost(
              "cold start of `clique mcp` from the release",
              "ms",
              releaseStart,
              200,
              runs + " launches; its runtime and the archive made at build time"),
          Figure.reference(
              "cold start of `clique mcp` from the clone",
              "ms",
              cloneStart,
              runs + " launches; the machine's JDK"),
          Figure.atMost(
              "cold start of `clique mcp --embedded` from the release",
              "ms",
              releaseEmbedded,
              200,
              runs + " launches, spawn -> initialize reply"),
          Figure.reference(
              "cold start of `clique mcp --embedded` from the clone",
              "ms",
              cloneEmbedded,
              runs + " launches"),
          Figure.atMost(
              "RSS of `clique mcp --embedded` from the release after " + many + " calls",
              "MiB",
              releaseRss,
              64,
              "VmRSS; `list_sessions` each call"),
          Figure.reference(
              "RSS of `clique mcp --embedded` from the clone after " + many + " calls",
              "MiB",
              cloneRss,
              "VmRSS"),
          Figure.reference(
              "RSS of the least clique's libraries do with the engine's server inside, the same way",
              "MiB",
              floorRss,
              "VmRSS; Jetty set up as the engine sets up its own, OkHttp (plain HTTP) and Jackson's"
                  + " streaming API, no clique code: each call copies the server's state of no"
                  + " sessions into its answer; bin/clique's JVM options for `--embedded` and a"
                  + " class-data archive of its own"));
    } finally {
      delete(work);
    }
  }

  private static List<String> embedded(List<String> mcp) {
    return Stream.concat(mcp.stream(), Stream.of("--embedded")).toList();
  }

  /** bin/release on the jar bin/clique runs; the tarball it wrote. */
  private static Path build(Path root, Path work) throws Exception {
    Process release =
        new ProcessBuilder(
                root.resolve("bin/release").toString(),
                "--jar",
                root.resolve("cli/target/clique.jar").toString(),
                "--out",
                work.resolve("out").toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    String printed = new String(release.getInputStream().readAllBytes()).strip();
    if (!release.waitFor(10, TimeUnit.MINUTES) || release.exitValue() != 0) {
      throw new IllegalStateException("bin/release failed: " + printed);
    }
    return Path.of(printed);
  }

  private static Path unpack(Path tarball, Path into) throws Exception {
    Files.createDirectories(into);
    Process tar =
        new ProcessBuilder("tar", "-C", into.toString(), "-xzf", tarball.toString())
            .inheritIO()
            .start();
    if (tar.waitFor() != 0) {
      throw new IllegalStateException("tar could not unpack " + tarball);
    }
    String name = tarball.getFileName().toString().replace(".tar.gz", "");
    return into.resolve(name);
  }

  private static double coldStart(List<String> command, Map<String, String> env) throws Exception {
    long start = System.nanoTime();
    try (McpProcess process = McpProcess.start(command, env)) {
      process.roundTrip(McpProcess.initialize(1));
      return (System.nanoTime() - start) / 1e6;
    }
  }

  private static double rssAfter(List<String> command, Map<String, String> env, int calls)
      throws Exception {
    try (McpProcess mcp = McpProcess.start(command, env)) {
      mcp.roundTrip(McpProcess.initialize(1));
      for (int i = 0; i < calls; i++) {
        String answer = mcp.callTool("list_sessions", "{}");
        if (!answer.contains("\"isError\":false")) {
          throw new IllegalStateException("list_sessions failed: " + answer);
        }
      }
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(mcp.pid()), "status"))) {
        if (line.startsWith("VmRSS:")) {
          return Double.parseDouble(line.replaceAll("[^0-9]", "")) / 1024;
        }
      }
      throw new IllegalStateException("no VmRSS for " + mcp.pid());
    }
  }

  private static double mebibytes(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }

  private static long sizeOf(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    }
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted((a, b) -> b.compareTo(a)).forEach(path -> path.toFile().delete());
    }
  }
}
