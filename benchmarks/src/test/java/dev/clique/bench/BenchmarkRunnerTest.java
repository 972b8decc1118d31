package dev.clique.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code bin/benchmark --only} accepts. */
class BenchmarkRunnerTest {
  @Test
  void everyBenchmarkHasANameOfItsOwn() {
    assertThat(BenchmarkRunner.names())
        .hasSize(BenchmarkRunner.all().size())
        .doesNotHaveDuplicates()
        .contains("cold-start", "conversation", "real-clis", "micro");
  }

  @Test
  void someNamesChooseThoseBenchmarksAndNoneChoosesAll() {
    assertThat(BenchmarkRunner.chosen(List.of("conversation", "cold-start")))
        .extracting(Benchmark::name)
        .containsExactly("cold-start", "conversation");
    assertThat(BenchmarkRunner.chosen(List.of())).hasSameSizeAs(BenchmarkRunner.all());
  }

  @Test
  void anUnknownNameIsRefusedWithEveryValidName() {
    assertThatThrownBy(() -> BenchmarkRunner.chosen(List.of("engine", "egnine")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("no benchmark is called egnine; --only takes some of: ")
        .hasMessageContaining(String.join(", ", BenchmarkRunner.names()));
  }
}
