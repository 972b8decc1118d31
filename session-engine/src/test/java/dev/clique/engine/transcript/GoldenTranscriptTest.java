package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden files: every {@code transcripts/<cli>/<case>.jsonl} (or Gemini's older {@code .json}) read
 * as a whole gives exactly the turns of {@code <case>.expected.json}.
 */
class GoldenTranscriptTest {

  private static final ObjectMapper JSON = new ObjectMapper();

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

  static Stream<Path> qwenCases() throws Exception {
    return cases("qwen");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("qwenCases")
  void qwenChatGivesTheExpectedTurns(Path transcript) throws IOException {
    assertGolden("qwen", transcript);
  }

  static Stream<Path> copilotCases() throws Exception {
    return cases("copilot");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("copilotCases")
  void copilotEventsGiveTheExpectedTurns(Path transcript) throws IOException {
    assertGolden("copilot", transcript);
  }

  static Stream<Path> piCases() throws Exception {
    return cases("pi");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("piCases")
  void piSessionGivesTheExpectedTurns(Path transcript) throws IOException {
    assertGolden("pi", transcript);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("claudeCases")
  void claudeTranscriptGivesTheExpectedTurns(Path transcript) throws IOException {
    assertGolden("claude", transcript);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("codexCases")
  void codexRolloutGivesTheExpectedTurns(Path transcript) throws IOException {
    assertGolden("codex", transcript);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("geminiCases")
  void geminiChatGivesTheExpectedTurns(Path transcript) throws IOException {
    assertGolden("gemini", transcript);
  }

  @Test
  void everyCliHasTheSpecExampleAndNastyCases() throws Exception {
    // opencode keeps a database, not a file a session: OpencodeConversationTest reads a recorded
    // one.
    for (String cli : Transcripts.kinds().stream().filter(k -> !k.equals("opencode")).toList()) {
      assertThat(cases(cli).map(path -> path.getFileName().toString()))
          .as(cli)
          .hasSizeGreaterThanOrEqualTo(2)
          .contains("01-spec-example.jsonl");
    }
  }

  private static void assertGolden(String cli, Path transcript) throws IOException {
    String name = transcript.getFileName().toString();
    Path expectedFile =
        transcript.resolveSibling(name.substring(0, name.lastIndexOf('.')) + ".expected.json");
    List<Turn> expected = JSON.readValue(expectedFile.toFile(), new TypeReference<List<Turn>>() {});
    Transcripts transcripts = new Transcripts(TestRoots.under(emptyHome));

    List<Turn> turns = transcripts.turnsOf(cli, transcript);

    assertThat(turns).isEqualTo(expected);
    assertThat(transcripts.bytesRead()).isEqualTo(Files.size(transcript));
  }

  private static Stream<Path> cases(String cli) throws IOException, URISyntaxException {
    Path dir = Path.of(GoldenTranscriptTest.class.getResource("/transcripts/" + cli).toURI());
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
