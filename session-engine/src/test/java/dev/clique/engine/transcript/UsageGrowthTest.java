package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Usage is a running tally: a file that grows costs the bytes it grew by, an unchanged one nothing,
 * a rewritten one a fresh tally, and a huge one its last {@link UsageFile#BUDGET_BYTES} at most.
 */
class UsageGrowthTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path home;

  /** Answers {@code from} to {@code from + count - 1}, each beside a 4 KB tool result. */
  private static String answers(int from, int count) {
    StringBuilder text = new StringBuilder();
    for (int i = from; i < from + count; i++) {
      text.append(Lines.claudeToolResult("x".repeat(4000))).append('\n');
      text.append(Lines.claudeAnswer("msg_" + i, 100, 10)).append('\n');
    }
    return text.toString();
  }

  private Path transcript(String text) throws IOException {
    Path file = home.resolve("projects/-home-dev-app/session.jsonl");
    Files.createDirectories(file.getParent());
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  @Test
  void anAppendedFileIsReadFromWhereTheLastReadStoppedWithItsSumsRight() throws IOException {
    Path file = transcript(answers(0, 1000)); // about 4 MiB: several steps
    Transcripts transcripts = new Transcripts(TestRoots.under(home));
    Usage first = transcripts.usageOf("claude", file).usage();
    assertThat(first.turns()).isEqualTo(1000);
    assertThat(first.inputTokens()).isEqualTo(100_000);
    long before = transcripts.bytesRead();

    String more = answers(1000, 5);
    Lines.append(file, more);
    Usage second = transcripts.usageOf("claude", file).usage();

    assertThat(second.turns()).isEqualTo(1005);
    assertThat(second.inputTokens()).isEqualTo(100_500);
    assertThat(second.outputTokens()).isEqualTo(10_050);
    assertThat(second.contextTokens()).isEqualTo(100);
    assertThat(second.partial()).isNull();
    assertThat(transcripts.bytesRead() - before)
        .as("the appended bytes, and the few before them that show the file was not rewritten")
        .isLessThanOrEqualTo(more.length() + 2L * UsageFile.ANCHOR_BYTES);
  }

  @Test
  void anUnchangedFileIsNotReadAgain() throws IOException {
    Path file = transcript(answers(0, 3));
    Transcripts transcripts = new Transcripts(TestRoots.under(home));
    UsageReport first = transcripts.usageOf("claude", file);
    long before = transcripts.bytesRead();

    UsageReport again = transcripts.usageOf("claude", file);

    assertThat(again).isEqualTo(first);
    assertThat(transcripts.bytesRead()).isEqualTo(before);
  }

  @Test
  void aLineStillBeingWrittenCountsOnceItIsWhole() throws IOException {
    String whole = Lines.claudeAnswer("msg_late", 7, 3);
    Path file = transcript(answers(0, 2) + whole.substring(0, 40));
    Transcripts transcripts = new Transcripts(TestRoots.under(home));
    Usage before = transcripts.usageOf("claude", file).usage();
    assertThat(before.turns()).isEqualTo(2);
    assertThat(before.source())
        .as("a last line without its end waits")
        .isEqualTo("claude transcript");

    Lines.append(file, whole.substring(40) + "\n");

    Usage usage = transcripts.usageOf("claude", file).usage();
    assertThat(usage.turns()).isEqualTo(3);
    assertThat(usage.inputTokens()).isEqualTo(207);
    assertThat(usage.source()).isEqualTo("claude transcript");
  }

  @Test
  void aLineCutInTheMiddleIsLeftOutOnceAndSaidSo() throws IOException {
    String cut = Lines.claudeAnswer("msg_cut", 7, 3).substring(0, 60);
    Path file = transcript(answers(0, 2) + cut + "\n" + answers(2, 1));
    Transcripts transcripts = new Transcripts(TestRoots.under(home));

    Usage usage = transcripts.usageOf("claude", file).usage();
    assertThat(usage.turns()).isEqualTo(3);
    assertThat(usage.inputTokens()).isEqualTo(300);
    assertThat(usage.source()).isEqualTo("claude transcript; left out: 1 record cut short");

    Lines.append(file, answers(3, 1));
    Usage grown = transcripts.usageOf("claude", file).usage();
    assertThat(grown.turns()).isEqualTo(4);
    assertThat(grown.source())
        .as("the line before the resume point is not counted again")
        .isEqualTo("claude transcript; left out: 1 record cut short");
  }

  @Test
  void aRewrittenOrTruncatedFileIsTalliedAfresh() throws IOException {
    Path file = transcript(answers(0, 4));
    Transcripts transcripts = new Transcripts(TestRoots.under(home));
    assertThat(transcripts.usageOf("claude", file).usage().turns()).isEqualTo(4);

    // Longer than before, with other bytes where the last read stopped: not an append.
    transcript(answers(100, 5).replace("\"x", "\"y"));
    assertThat(transcripts.usageOf("claude", file).usage().turns()).isEqualTo(5);

    transcript(answers(200, 1));
    Usage shorter = transcripts.usageOf("claude", file).usage();
    assertThat(shorter.turns()).isEqualTo(1);
    assertThat(shorter.inputTokens()).isEqualTo(100);
  }

  @Test
  void aFileLargerThanTheBudgetIsSummedFromItsEndAndSaysSo() throws IOException {
    Path file = home.resolve("projects/-home-dev-app/huge.jsonl");
    Files.createDirectories(file.getParent());
    String padding = Lines.claudeToolResult("x".repeat(40_000)) + "\n";
    int answers = 0;
    long pairBytes = 0;
    try (FileChannel out =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      while (out.size() < UsageFile.BUDGET_BYTES + (8L << 20)) {
        String pair = padding + Lines.claudeAnswer("msg_" + answers++, 100, 10) + "\n";
        pairBytes = pair.length();
        out.write(ByteBuffer.wrap(pair.getBytes(StandardCharsets.UTF_8)));
      }
    }
    Transcripts transcripts = new Transcripts(TestRoots.under(home));

    Usage usage = transcripts.usageOf("claude", file).usage();

    long inBudget = UsageFile.BUDGET_BYTES / pairBytes;
    assertThat(usage.partial()).isTrue();
    assertThat(usage.turns()).isBetween(inBudget - 1, inBudget + 1).isLessThan(answers);
    assertThat(usage.inputTokens()).isEqualTo(100 * usage.turns());
    assertThat(transcripts.bytesRead())
        .as("the budget, the step in which its first line was looked for, the resume point's bytes")
        .isLessThanOrEqualTo(
            UsageFile.BUDGET_BYTES + UsageFile.CHUNK_BYTES + UsageFile.ANCHOR_BYTES);

    long before = transcripts.bytesRead();
    String more = Lines.claudeAnswer("msg_new", 100, 10) + "\n";
    Lines.append(file, more);
    Usage grown = transcripts.usageOf("claude", file).usage();

    assertThat(grown.turns()).isEqualTo(usage.turns() + 1);
    assertThat(grown.partial()).isTrue();
    assertThat(transcripts.bytesRead() - before)
        .isLessThanOrEqualTo(more.length() + 2L * UsageFile.ANCHOR_BYTES);
  }

  @Test
  void aLineLongerThanAStepIsParsedAsItStreamsFromTheFile() throws IOException {
    ObjectNode set = JSON.createObjectNode();
    ArrayNode messages = set.putObject("$set").putArray("messages");
    messages.addObject().put("id", "u1").put("type", "user").put("content", "z".repeat(3 << 20));
    ObjectNode answer = messages.addObject().put("id", "g1").put("type", "gemini");
    answer.put("content", "done").put("model", "gemini-3.8-pro");
    answer.putObject("tokens").put("input", 40).put("output", 4).put("cached", 0);
    Path file =
        Lines.write(
            home.resolve(".gemini/tmp/app/chats/session-2026-08-06T08-00-7a2b3c4d.jsonl"),
            List.of(Lines.geminiMeta("7a2b3c4d", "2026-08-06T08:00:00.000Z"), set.toString()));
    Transcripts transcripts = new Transcripts(TestRoots.under(home));

    Usage usage = transcripts.usageOf("gemini", file).usage();

    assertThat(usage.turns()).isEqualTo(1);
    assertThat(usage.inputTokens()).isEqualTo(40);
    assertThat(usage.model()).isEqualTo("gemini-3.8-pro");
  }
}
