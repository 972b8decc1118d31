package dev.clique.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark runner works, on its quick setting: every benchmark runs once and BENCHMARKS.md
 * gets a row per figure. (Its figures mean nothing; the real run is {@code bin/benchmark}.)
 */
class BenchmarkRunnerIT {
  @TempDir Path dir;

  @Test
  void theQuickSettingRunsEveryBenchmarkAndWritesTheReport() throws Exception {
    Path launcher = Path.of(System.getProperty("clique.launcher", "../bin/clique"));
    String echo =
        Path.of(Echo.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    Path out = dir.resolve("BENCHMARKS.md");
    int code =
        BenchmarkRunner.run(
            new Settings(true, launcher.toAbsolutePath(), echo), out, List.of(), System.err);
    assertThat(code).isZero();
    String report = Files.readString(out);
    assertThat(report)
        .contains("| cores | " + Runtime.getRuntime().availableProcessors() + " |")
        .contains("cold start of `clique mcp`")
        .contains("`CLIQUE_CDS=0`")
        .contains("`clique mcp` exit on SIGINT")
        .contains("`clique mcp` exit on SIGTERM")
        .contains("`list_sessions` with 50 sessions")
        .contains("`preview_pane` (40 lines)")
        .contains("`list_sessions` over 3 engines of 2 sessions")
        .contains("`list_sessions` with 6 sessions on one engine")
        .contains("RSS of `clique mcp`")
        .contains("`wait` lag")
        .contains("`wait` answers before the command's exit")
        .contains("engine threads with")
        .contains("16 keep-alive connections")
        .contains("first read")
        .contains("JMH `jsonOfFiftySessions`")
        .contains("release tarball")
        .contains("cold start of `clique mcp --embedded` from the release")
        .contains("Claude Code permission prompt on the pane -> `wait` answers `waiting`")
        .contains("Codex permission prompt")
        .contains("Gemini CLI permission prompt")
        .contains("CPU of `clique serve` with 3 real-CLI sessions idle, counted whole")
        .contains("real-CLI sessions streaming an answer, counted whole")
        .contains("quick setting");
    long rows =
        report.lines().filter(line -> line.startsWith("| ") && line.contains(" ms |")).count();
    assertThat(rows).isGreaterThanOrEqualTo(10);
  }
}
