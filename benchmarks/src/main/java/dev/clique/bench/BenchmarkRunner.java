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
 *
 * <p>The names {@code --only} takes are those of {@link #all()}; an unknown one is refused with the
 * list of them.
 */
public final class BenchmarkRunner {
  private BenchmarkRunner() {}

  static List<Benchmark> all() {
    return List.of(
        new ColdStartBenchmark(),
        new SignalExitBenchmark(),
        new ToolLatencyBenchmark(),
        new FreshMcpBenchmark(),
        new SeveralEnginesBenchmark(),
        new EngineBenchmark(),
        new IdleCostBenchmark(),
        new ConversationBenchmark(),
        new OpencodeDatabaseBenchmark(),
        new UsageBenchmark(),
        new ReleaseBenchmark(),
        new RealCliBenchmark(),
        new JmhBenchmark());
  }

  /** The names {@code --only} takes, in the order the benchmarks run. */
  static List<String> names() {
    return all().stream().map(Benchmark::name).toList();
  }

  /**
   * The benchmarks {@code only} names (all of them when it is empty).
   *
   * @throws IllegalArgumentException naming what no benchmark is called, and the valid names
   */
  static List<Benchmark> chosen(List<String> only) {
    List<String> unknown = only.stream().filter(name -> !names().contains(name)).toList();
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          "no benchmark is called "
              + String.join(", ", unknown)
              + "; --only takes some of: "
              + String.join(", ", names()));
    }
    return all().stream().filter(b -> only.isEmpty() || only.contains(b.name())).toList();
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
        case "--only" -> {
          if (i + 1 >= args.length) {
            System.err.println("--only needs some of: " + String.join(", ", names()));
            System.exit(2);
          }
          only.addAll(List.of(args[++i].split(",")));
        }
        case "--launcher" -> launcher = Path.of(args[++i]);
        default -> {
          System.err.println(
              "unknown argument " + args[i] + "; use --quick, --out FILE, --only a,b");
          System.exit(2);
        }
      }
    }
    try {
      chosen(only);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
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
    List<Benchmark> chosen = chosen(only);
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
