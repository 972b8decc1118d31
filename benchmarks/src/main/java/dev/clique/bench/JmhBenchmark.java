package dev.clique.bench;

import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

/** Runs {@link MicroBenchmarks} with JMH and turns its results into figures. */
final class JmhBenchmark implements Benchmark {
  @Override
  public String name() {
    return "micro";
  }

  @Override
  public List<Figure> run(Settings settings) throws Exception {
    Options options =
        new OptionsBuilder()
            .include(MicroBenchmarks.class.getName())
            .forks(settings.quick() ? 0 : 1)
            .warmupIterations(settings.scale(3, 1))
            .warmupTime(TimeValue.seconds(settings.scale(2, 1)))
            .measurementIterations(settings.scale(5, 1))
            .measurementTime(TimeValue.seconds(settings.scale(2, 1)))
            .shouldDoGC(true)
            .verbosity(org.openjdk.jmh.runner.options.VerboseMode.SILENT)
            .build();
    List<Figure> figures = new ArrayList<>();
    for (RunResult run : new Runner(options).run()) {
      Result<?> result = run.getPrimaryResult();
      Statistics stats = result.getStatistics();
      String method = run.getParams().getBenchmark();
      method = method.substring(method.lastIndexOf('.') + 1);
      double toMs = 1e-3; // JMH reports microseconds here
      figures.add(
          new Figure(
              "JMH `" + method + "`",
              "ms",
              stats.getPercentile(50) * toMs,
              stats.getPercentile(95) * toMs,
              "",
              true,
              "sample time, " + stats.getN() + " samples"));
    }
    return figures;
  }
}
