package dev.clique.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** BENCHMARKS.md as a run of some benchmarks only leaves it. */
class ReportTest {
  private static final Machine MACHINE = Machine.current();

  private static Figure figure(String name, double median) {
    return Figure.reference(name, "ms", Samples.of(median), "how");
  }

  @Test
  void aRunOfSomeBenchmarksKeepsTheOtherRowsAndReplacesItsOwn() {
    String before =
        Report.markdown(
            MACHINE,
            List.of(figure("cold start", 126), figure("prompt lag", 900), figure("rss", 57)),
            "bin/benchmark",
            false);
    String after =
        Report.markdown(
            MACHINE,
            List.of(figure("prompt lag", 40), figure("idle CPU", 3)),
            "bin/benchmark --only real-clis",
            false,
            before);
    List<String> rows =
        after.lines().filter(l -> l.startsWith("| ") && l.contains(" ms |")).toList();
    assertThat(rows).hasSize(4);
    assertThat(rows.get(0)).startsWith("| cold start | 126 ms |");
    assertThat(rows.get(1)).startsWith("| prompt lag | 40 ms |");
    assertThat(rows.get(2)).startsWith("| rss | 57 ms |");
    assertThat(rows.get(3)).startsWith("| idle CPU | 3 ms |");
    assertThat(after).contains("--only real-clis").contains("kept from the file's earlier run");
    assertThat(after.lines().filter(l -> l.startsWith("| cores |"))).hasSize(1);
  }

  @Test
  void theNotesBelowTheTableAreKeptByEveryRun() {
    String notes =
        "## What a change gave\n\n| figure | before | after |\n|---|---|---|\n| x | 2 | 1 |\n";
    String before =
        Report.markdown(MACHINE, List.of(figure("cold start", 126)), "bin/benchmark", false)
            + "\n"
            + notes;
    String after =
        Report.markdown(
            MACHINE, List.of(figure("cold start", 120)), "bin/benchmark", false, before);
    assertThat(after).contains("| cold start | 120 ms |").endsWith("\n" + notes);
    assertThat(after.lines().filter(l -> l.startsWith("| x |"))).hasSize(1);
    assertThat(after.lines().filter(l -> l.startsWith("| cold start |"))).hasSize(1);
  }

  @Test
  void aWholeRunWritesOnlyWhatItMeasured() {
    String report =
        Report.markdown(MACHINE, List.of(figure("cold start", 126)), "bin/benchmark", false);
    assertThat(report).contains("| cold start | 126 ms |").doesNotContain("kept from");
  }
}
