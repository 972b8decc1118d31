package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden files of records a reader does not know, every {@code transcripts/<cli>/unreadable/<case>
 * .jsonl}: read, it is an {@link UnreadableTranscriptException} whose message, after the file's
 * path, is exactly {@code <case>.error.txt} (the line, the record, what in it is not known, the CLI
 * and its version), never turns without the record. The same record caught half-written at the end
 * of the file is left out, and the turns before it, {@code <case>.before.expected.json}, are the
 * answer; once its newline is written, it is the error.
 */
class UnknownRecordTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> CLIS = List.of("claude", "codex", "gemini", "qwen", "copilot");
  private static final String COPILOT_ID = "5f0c9a2e-1111-4c3b-9d1e-222233334444";
  private static final Pattern LINE = Pattern.compile("^line (\\d+),");

  @TempDir Path home;

  static Stream<Path> cases() throws IOException, URISyntaxException {
    List<Path> all = new ArrayList<>();
    for (String cli : CLIS) {
      Path dir =
          Path.of(
              UnknownRecordTest.class.getResource("/transcripts/" + cli + "/unreadable").toURI());
      try (Stream<Path> files = Files.list(dir)) {
        files.filter(path -> path.toString().endsWith(".jsonl")).sorted().forEach(all::add);
      }
    }
    return all.stream();
  }

  static Stream<Path> casesWithTurnsBefore() throws IOException, URISyntaxException {
    return cases().filter(golden -> Files.exists(sibling(golden, ".before.expected.json")));
  }

  @Test
  void everyCliWithAFileOfItsOwnHasACase() throws Exception {
    assertThat(cases().map(UnknownRecordTest::cli).distinct()).containsExactlyElementsOf(CLIS);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aRecordItsReaderDoesNotKnowIsAnErrorNamingTheFileTheLineAndTheVersion(Path golden)
      throws IOException {
    Transcripts transcripts = new Transcripts(TestRoots.under(home));
    Path file = place(golden, Files.readString(golden));

    assertThatThrownBy(() -> turns(transcripts, golden, file))
        .isInstanceOf(UnreadableTranscriptException.class)
        .hasMessage(file + ": " + why(golden))
        .extracting(e -> ((UnreadableTranscriptException) e).file())
        .isEqualTo(file);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("casesWithTurnsBefore")
  void theSameRecordHalfWrittenAtTheEndIsLeftOutUntilItsNewlineIsWritten(Path golden)
      throws IOException {
    List<String> lines = Files.readAllLines(golden);
    Matcher line = LINE.matcher(why(golden));
    assertThat(line.find()).as("the line named in " + golden).isTrue();
    int unknown = Integer.parseInt(line.group(1)) - 1;
    String record = lines.get(unknown);
    StringBuilder before = new StringBuilder();
    for (String earlier : lines.subList(0, unknown)) {
      before.append(earlier).append('\n');
    }
    Transcripts transcripts = new Transcripts(TestRoots.under(home));
    Path file = place(golden, before + record.substring(0, record.length() / 2));

    List<Turn> expected =
        JSON.readValue(
            sibling(golden, ".before.expected.json").toFile(), new TypeReference<List<Turn>>() {});
    assertThat(turns(transcripts, golden, file)).isEqualTo(expected);

    Files.writeString(
        file, record.substring(record.length() / 2) + "\n", StandardOpenOption.APPEND);
    assertThatThrownBy(() -> turns(transcripts, golden, file))
        .isInstanceOf(UnreadableTranscriptException.class)
        .hasMessage(file + ": " + why(golden));
  }

  @Test
  void aCopilotEventBeingWrittenAtTheEndIsLeftOut() throws Exception {
    Path golden = golden("copilot/01-spec-example.jsonl");
    Transcripts transcripts = new Transcripts(TestRoots.under(home));
    Path file =
        place(
            golden("copilot/unreadable/01-events-of-a-newer-version.jsonl"),
            Files.readString(golden) + "{\"type\":\"user.message\",\"data\":{\"content\":\"And th");

    List<Turn> expected =
        JSON.readValue(
            golden("copilot/01-spec-example.expected.json").toFile(),
            new TypeReference<List<Turn>>() {});
    assertThat(turns(transcripts, golden, file)).isEqualTo(expected);
  }

  @Test
  void theErrorIsGivenAgainWithoutReadingTheFileUntilItChanges() throws Exception {
    Path golden = golden("claude/unreadable/01-text-in-a-block-of-another-type.jsonl");
    Transcripts transcripts = new Transcripts(TestRoots.under(home));
    String text = Files.readString(golden);
    Path file = place(golden, text);
    assertThatThrownBy(() -> turns(transcripts, golden, file))
        .isInstanceOf(UnreadableTranscriptException.class);
    long read = transcripts.bytesRead();

    assertThatThrownBy(() -> turns(transcripts, golden, file))
        .isInstanceOf(UnreadableTranscriptException.class)
        .hasMessage(file + ": " + why(golden));
    assertThat(transcripts.bytesRead()).as("an unchanged file is not read again").isEqualTo(read);

    Files.writeString(file, text.replace("\"spoken_text\"", "\"text\""));
    assertThat(turns(transcripts, golden, file))
        .containsExactly(
            new Turn(Turn.USER, "Why does LoginTest fail on CI?"),
            new Turn(Turn.ASSISTANT, "It depends on wall-clock time."),
            new Turn(Turn.USER, "And how do I fix it?"),
            new Turn(Turn.ASSISTANT, "Set TZ=UTC in the test."),
            new Turn(Turn.USER, "Thanks"));
  }

  @Test
  void aMessageGeminiCliWroteInItsOlderDocumentIsNamedInTheDocument() throws Exception {
    Path file = Files.createDirectories(home.resolve("gemini")).resolve("session-1.json");
    Files.writeString(
        file,
        "{\"sessionId\":\"s\",\"projectHash\":\"p\",\"messages\":["
            + "{\"id\":\"m1\",\"type\":\"user\",\"content\":\"Explain build.gradle\"},"
            + "{\"id\":\"m2\",\"type\":\"model\",\"content\":\"It applies a plugin.\"}]}");

    assertThatThrownBy(() -> new Transcripts(TestRoots.under(home)).turnsOf("gemini", file))
        .isInstanceOf(UnreadableTranscriptException.class)
        .hasMessage(
            file
                + ": in the document, a message of type \"model\", holds text, which this clique"
                + " does not read (the file was written by Gemini CLI, of a version the file does"
                + " not say); its turns are not given rather than given wrong");
  }

  /**
   * A copy of the case where its reader reads it: Copilot's through its locator (which checks the
   * first event), the others by their readers alone.
   */
  private Path place(Path golden, String text) throws IOException {
    Path file =
        cli(golden).equals("copilot")
            ? home.resolve(".copilot/session-state").resolve(COPILOT_ID).resolve("events.jsonl")
            : home.resolve(cli(golden)).resolve(golden.getFileName());
    Files.createDirectories(file.getParent());
    return Files.writeString(file, text);
  }

  private static List<Turn> turns(Transcripts transcripts, Path golden, Path file)
      throws IOException {
    String cli = cli(golden);
    if (cli.equals("copilot")) {
      return transcripts.turns(
          new TranscriptRequest(
              "copilot", COPILOT_ID, null, Path.of("/home/dev/project"), Instant.EPOCH));
    }
    return transcripts.turnsOf(cli, file);
  }

  private static String cli(Path golden) {
    Path dir = golden.getParent();
    return (dir.getFileName().toString().equals("unreadable") ? dir.getParent() : dir)
        .getFileName()
        .toString();
  }

  private static String why(Path golden) throws IOException {
    return Files.readString(sibling(golden, ".error.txt")).strip();
  }

  private static Path sibling(Path golden, String suffix) {
    String name = golden.getFileName().toString();
    return golden.resolveSibling(name.substring(0, name.lastIndexOf('.')) + suffix);
  }

  private static Path golden(String path) throws URISyntaxException {
    return Path.of(UnknownRecordTest.class.getResource("/transcripts/" + path).toURI());
  }
}
