package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.catalogue.CostEstimate;
import dev.clique.engine.catalogue.PriceTable;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden files: every transcript under {@code transcripts/<cli>/} gives exactly the usage and
 * limits of its {@code <case>.usage.expected.json}, priced with the bundled price table ({@code
 * cost_usd_estimate} where its model has a row); {@code {}} where the file records none (the spec
 * examples, and the nasty cases written before usage was read).
 */
class GoldenUsageTest {

  private static final ObjectMapper JSON =
      new ObjectMapper().setDefaultPropertyInclusion(JsonInclude.Include.NON_NULL);

  private static final PriceTable PRICES = PriceTable.bundled();

  @TempDir static Path emptyHome;

  static Stream<Path> claudeCases() throws Exception {
    return cases("claude");
  }

  static Stream<Path> codexCases() throws Exception {
    return cases("codex");
  }

  static Stream<Path> geminiCases() throws Exception {
    return cases("gemini");
  }

  static Stream<Path> copilotCases() throws Exception {
    return cases("copilot");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("copilotCases")
  void copilotEventsGiveTheExpectedUsage(Path transcript) throws IOException {
    assertGolden("copilot", transcript);
  }

  static Stream<Path> piCases() throws Exception {
    return cases("pi");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("piCases")
  void piSessionGivesTheExpectedUsage(Path transcript) throws IOException {
    assertGolden("pi", transcript);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("claudeCases")
  void claudeTranscriptGivesTheExpectedUsage(Path transcript) throws IOException {
    assertGolden("claude", transcript);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("codexCases")
  void codexRolloutGivesTheExpectedUsageAndLimits(Path transcript) throws IOException {
    assertGolden("codex", transcript);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("geminiCases")
  void geminiChatGivesTheExpectedUsage(Path transcript) throws IOException {
    assertGolden("gemini", transcript);
  }

  static Stream<Path> qwenCases() throws Exception {
    return cases("qwen");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("qwenCases")
  void qwenChatGivesTheExpectedUsage(Path transcript) throws IOException {
    assertGolden("qwen", transcript);
  }

  @Test
  void theRecordingsOfTheRealClisHaveUsage() throws Exception {
    // opencode keeps a database, not a file a session: OpencodeConversationTest reads a recorded
    // one.
    for (String cli : Transcripts.kinds().stream().filter(k -> !k.equals("opencode")).toList()) {
      assertThat(
              cases(cli)
                  .filter(path -> path.getFileName().toString().contains("-recorded-"))
                  .map(GoldenUsageTest::expected))
          .as(cli)
          .isNotEmpty()
          .allSatisfy(expected -> assertThat(expected).contains("\"usage\""));
    }
  }

  private static void assertGolden(String cli, Path transcript) throws IOException {
    Transcripts transcripts = new Transcripts(TestRoots.under(emptyHome));

    UsageReport report = CostEstimate.priced(transcripts.usageOf(cli, transcript), PRICES);

    assertThat(JSON.readTree(JSON.writeValueAsString(report)))
        .isEqualTo(JSON.readTree(expected(transcript)));
    List<Path> read = new ArrayList<>(List.of(transcript));
    read.addAll(subagentFiles(transcript));
    long bound = 0;
    for (Path file : read) {
      bound += Files.size(file) + UsageFile.ANCHOR_BYTES;
    }
    assertThat(transcripts.bytesRead())
        .as("each byte read once, and the few before where the next read resumes, in each file")
        .isLessThanOrEqualTo(bound);
  }

  /** Claude Code's sub-agents' files, in the folder named as the session's file. */
  private static List<Path> subagentFiles(Path transcript) throws IOException {
    String name = transcript.getFileName().toString();
    Path folder = transcript.resolveSibling(name.substring(0, name.lastIndexOf('.')));
    if (!Files.isDirectory(folder)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(folder)) {
      return files.filter(Files::isRegularFile).toList();
    }
  }

  private static String expected(Path transcript) {
    String name = transcript.getFileName().toString();
    Path file =
        transcript.resolveSibling(
            name.substring(0, name.lastIndexOf('.')) + ".usage.expected.json");
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new AssertionError("no " + file.getFileName() + " beside " + name, e);
    }
  }

  private static Stream<Path> cases(String cli) throws IOException, URISyntaxException {
    Path dir = Path.of(GoldenUsageTest.class.getResource("/transcripts/" + cli).toURI());
    try (Stream<Path> files = Files.list(dir)) {
      return files
          .filter(
              path -> {
                String name = path.getFileName().toString();
                return name.endsWith(".jsonl")
                    || (name.endsWith(".json") && !name.endsWith(".expected.json"));
              })
          .sorted()
          .toList()
          .stream();
    }
  }
}
