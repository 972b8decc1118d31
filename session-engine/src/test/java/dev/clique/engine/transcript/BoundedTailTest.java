package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tail is read backwards until it holds enough turns, within a byte budget: files whose turns
 * are a small share of the bytes, and Gemini's one-line message lists of many MiB.
 */
class BoundedTailTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;

  /** A record of Claude Code 2.1.328 that holds no turn, of about {@code bytes} bytes. */
  private static String claudeRecord(String type, int bytes) {
    ObjectNode line = JSON.createObjectNode().put("type", type);
    // Nested objects typed like turns must not make a turn of the record.
    line.putObject("request").put("type", "user").put("body", "r".repeat(bytes));
    return line.toString();
  }

  @Test
  void claudeTurnsThatAreASmallShareOfTheBytesStillGiveTheLastTurns() throws IOException {
    Path file = home.resolve("claude.jsonl");
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int i = 0; i < 400; i++) {
        out.write(claudeRecord("mode", 200) + "\n");
        out.write(claudeRecord("attachment", 10_000) + "\n");
        out.write(Lines.claudeUser("question " + i) + "\n");
        out.write(claudeRecord("api-request-shape", 43_000) + "\n");
        out.write(Lines.claudeAssistant("msg_" + i, "answer " + i) + "\n");
        out.write(claudeRecord("cost-state", 300) + "\n");
      }
    }
    assertThat(Files.size(file)).isGreaterThan(TailWindow.BUDGET_BYTES);
    Transcripts transcripts = new Transcripts(TestRoots.under(home));

    List<Turn> turns = transcripts.turnsOf("claude", file);

    // One step of the tail holds about 20 prompts; 300 turns need about 8 of them.
    assertThat(turns).hasSize(TurnList.MAX_TURNS);
    assertThat(turns.get(0)).isEqualTo(new Turn("user", "question 250"));
    assertThat(turns.get(TurnList.MAX_TURNS - 1)).isEqualTo(new Turn("assistant", "answer 399"));
    assertThat(transcripts.bytesRead())
        .isGreaterThan(TailWindow.CHUNK_BYTES)
        .isLessThanOrEqualTo(TailWindow.BUDGET_BYTES + 2L * TailWindow.CHUNK_BYTES);
  }

  @Test
  void theNonTurnRecordsOfClaudeAreSkippedByTheirBytes() {
    ClaudeTranscriptReader reader = new ClaudeTranscriptReader();
    byte[] shape = claudeRecord("api-request-shape", 100).getBytes(StandardCharsets.UTF_8);
    byte[] spaced =
        "{\"type\" : \"user\", \"message\": {\"content\": \"hi\"}}"
            .getBytes(StandardCharsets.UTF_8);
    byte[] quoted =
        "{\"type\":\"mode\",\"text\":\"\\\"type\\\":\\\"user\\\"\"}"
            .getBytes(StandardCharsets.UTF_8);

    assertThat(reader.mayMatter(shape, 0, shape.length)).as("nested type: a false alarm").isTrue();
    assertThat(reader.mayMatter(spaced, 0, spaced.length)).isTrue();
    assertThat(reader.mayMatter(quoted, 0, quoted.length)).as("inside a string").isFalse();
    byte[] mode =
        "{\"type\":\"permission-mode\",\"mode\":\"plan\"}".getBytes(StandardCharsets.UTF_8);
    assertThat(reader.mayMatter(mode, 0, mode.length)).isFalse();
  }

  /** Gemini's {@code $set} of a message list of {@code count} prompts and answers. */
  private static String geminiSet(int count, int textBytes) {
    ObjectNode line = JSON.createObjectNode();
    ArrayNode messages = line.putObject("$set").putArray("messages");
    for (int i = 0; i < count; i++) {
      messages.addObject().put("id", "u" + i).put("type", "user").put("content", "prompt " + i);
      messages
          .addObject()
          .put("id", "g" + i)
          .put("type", "gemini")
          .put("content", "answer " + i + " " + "a".repeat(textBytes));
    }
    return line.toString();
  }

  @Test
  void aGeminiMessageListOfManyMebibytesOnOneLineIsReadAsItStreams() throws IOException {
    Path file = home.resolve("gemini.jsonl");
    String set = geminiSet(1_000, 5_000);
    assertThat(set.length()).isGreaterThan(4 * TailWindow.CHUNK_BYTES);
    Lines.write(
        file,
        List.of(
            Lines.geminiMeta("6f1c2d3e-aaaa-4bbb-8ccc-ddddeeeeffff", "2026-08-01T10:00:00Z"),
            Lines.geminiMessage("old", "user", "replaced by the list"),
            set,
            Lines.geminiMessage("u1000", "user", "after the list")));
    Transcripts transcripts = new Transcripts(TestRoots.under(home));

    List<Turn> turns = transcripts.turnsOf("gemini", file);

    assertThat(turns).hasSize(TurnList.MAX_TURNS);
    assertThat(turns.get(0).text()).startsWith("answer 850 ");
    assertThat(turns.get(TurnList.MAX_TURNS - 1)).isEqualTo(new Turn("user", "after the list"));
    assertThat(turns).noneMatch(turn -> turn.text().equals("replaced by the list"));
    // The list line is scanned once for its start and read once more as it streams; the lines
    // before it are not read at all.
    assertThat(transcripts.bytesRead()).isLessThanOrEqualTo(2L * set.length() + 1_000);
  }

  @Test
  void aGeminiMessageListLongerThanTheBudgetIsNotReadAndWhatFollowsIs() throws IOException {
    Path file = home.resolve("gemini.jsonl");
    String set = geminiSet(1_300, 10_000);
    assertThat(set.length()).isGreaterThan(TailWindow.BUDGET_BYTES);
    Lines.write(
        file,
        List.of(
            Lines.geminiMessage("old", "user", "before the list"),
            set,
            Lines.geminiMessage("u9", "user", "after the list"),
            Lines.geminiMessage("g9", "gemini", "its answer")));
    Transcripts transcripts = new Transcripts(TestRoots.under(home));

    // What the list held is out of reach, and what came before it was replaced by it: only the
    // messages written after it are shown.
    assertThat(transcripts.turnsOf("gemini", file))
        .containsExactly(new Turn("user", "after the list"), new Turn("assistant", "its answer"));
    assertThat(transcripts.bytesRead()).isLessThanOrEqualTo(TailWindow.BUDGET_BYTES + 1);
  }

  @Test
  void aMessageListWrittenWhileCachedReplacesWhatWasShown() throws IOException {
    Path file = home.resolve("gemini.jsonl");
    Lines.write(
        file,
        List.of(
            Lines.geminiMessage("u1", "user", "first"),
            Lines.geminiMessage("u2", "user", "failed prompt")));
    Transcripts transcripts = new Transcripts(TestRoots.under(home));
    assertThat(transcripts.turnsOf("gemini", file)).hasSize(1);

    Lines.append(
        file,
        "{\"$set\":{\"messages\":[{\"id\":\"u1\",\"type\":\"user\",\"content\":\"first\"}]}}\n");
    Lines.append(file, Lines.geminiMessage("g1", "gemini", "an answer") + "\n");

    List<Turn> expected = List.of(new Turn("user", "first"), new Turn("assistant", "an answer"));
    assertThat(transcripts.turnsOf("gemini", file)).isEqualTo(expected);
    assertThat(new Transcripts(TestRoots.under(home)).turnsOf("gemini", file)).isEqualTo(expected);
  }
}
