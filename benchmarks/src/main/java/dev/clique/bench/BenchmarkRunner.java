package dev.clique.bench;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs every benchmark and writes BENCHMARKS.md. Progress goes to stderr.
 *
 * <pre>
 * java -cp ... dev.clique.bench.BenchmarkRunner [--quick] [--out BENCHMARKS.md] [--only name,...]
 * </pre>
 */
public final class BenchmarkRunner {
  private BenchmarkRunner() {}

  static List<Benchmark> all() {
    return List.of(
        new ColdStartBenchmark(),
        new SignalExitBenchmark(),
        new ToolLatencyBenchmark(),
        new SeveralEnginesBenchmark(),
        new EngineBenchmark(),
        new IdleCostBenchmark(),
        new ConversationBenchmark(),
        new UsageBenchmark(),
        new ReleaseBenchmark(),
        new RealCliBenchmark(),
        new JmhBenchmark());
  }

  public static void main(String[] args) throws Exception {
    boolean quick = false;
    Path out = Path.of("BENCHMARKS.md");
    List<String> only = new ArrayList<>();
    Path launcher = Path.of("bin", "clique");
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--quick" -> quick = true;
        case "--out" -> out = Path.of(args[++i]);
        case "--only" -> only.addAll(List.of(args[++i].split(",")));
        case "--launcher" -> launcher = Path.of(args[++i]);
        default -> {
          System.err.println(
              "unknown argument " + args[i] + "; use --quick, --out FILE, --only a,b");
          System.exit(2);
        }
      }
    }
    System.exit(
        run(
            new Settings(quick, launcher.toAbsolutePath(), echoClassPath()),
            out,
            only,
            System.err));
  }

  static int run(Settings settings, Path out, List<String> only, PrintStream progress)
      throws Exception {
    List<Benchmark> chosen =
        all().stream().filter(b -> only.isEmpty() || only.contains(b.name())).toList();
    List<Figure> figures = new ArrayList<>();
    long started = System.nanoTime();
    for (int i = 0; i < chosen.size(); i++) {
      Benchmark benchmark = chosen.get(i);
      progress.printf("[%d/%d] %s ...%n", i + 1, chosen.size(), benchmark.name());
      long t = System.nanoTime();
      List<Figure> measured = benchmark.run(settings);
      figures.addAll(measured);
      for (Figure figure : measured) {
        progress.printf(
            "      %s: %s %s%s%n",
            figure.name(),
            Report.number(figure.median()),
            figure.unit(),
            figure.target().isEmpty()
                ? ""
                : " (target " + figure.target() + (figure.met() ? ", met)" : ", NOT met)"));
      }
      progress.printf("      (%.0f s)%n", (System.nanoTime() - t) / 1e9);
    }
    // A run of some benchmarks only keeps the other rows of the file as it was.
    String previous = !only.isEmpty() && Files.exists(out) ? Files.readString(out) : "";
    Files.writeString(
        out,
        Report.markdown(
            Machine.current(),
            figures,
            "bin/benchmark"
                + (settings.quick() ? " --quick" : "")
                + (only.isEmpty() ? "" : " --only " + String.join(",", only)),
            settings.quick(),
            previous));
    progress.printf("wrote %s in %.0f s%n", out, (System.nanoTime() - started) / 1e9);
    return 0;
  }

  private static String echoClassPath() throws Exception {
    return Path.of(Echo.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .toString();
  }
}
