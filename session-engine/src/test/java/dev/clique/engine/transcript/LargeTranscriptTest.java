package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LargeTranscriptTest {

  private static final long TWO_HUNDRED_MB = 200L * 1000 * 1000;
  private static final String ID = "5f0c9a2e-1111-4c3b-9d1e-222233334444";

  @Test
  void aTwoHundredMegabyteTranscriptIsAnsweredFromItsLastMebibyte(@TempDir Path home)
      throws IOException {
    Path file = home.resolve(".claude/projects/-home-dev-app/" + ID + ".jsonl");
    Files.createDirectories(file.getParent());
    try (FileChannel out =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      ByteBuffer block = ByteBuffer.wrap(filler().getBytes(StandardCharsets.UTF_8));
      while (out.size() < TWO_HUNDRED_MB) {
        block.rewind();
        while (block.hasRemaining()) {
          out.write(block);
        }
      }
      StringBuilder last = new StringBuilder();
      for (int i = 0; i < 400; i++) {
        last.append(Lines.claudeUser("question " + i)).append('\n');
        last.append(Lines.claudeAssistant("msg_" + i, "answer " + i)).append('\n');
      }
      out.write(ByteBuffer.wrap(last.toString().getBytes(StandardCharsets.UTF_8)));
    }
    assertThat(Files.size(file)).isGreaterThan(TWO_HUNDRED_MB);
    Transcripts transcripts = new Transcripts(TestRoots.under(home));

    List<Turn> turns =
        transcripts.turns(
            new TranscriptRequest("claude", ID, null, Path.of("/home/dev/app"), Instant.now()));

    assertThat(transcripts.bytesRead()).isLessThanOrEqualTo(TailWindow.CHUNK_BYTES);
    assertThat(turns).hasSize(TurnList.MAX_TURNS);
    assertThat(turns.get(0)).isEqualTo(new Turn("user", "question 250"));
    assertThat(turns.get(TurnList.MAX_TURNS - 1)).isEqualTo(new Turn("assistant", "answer 399"));
  }

  /** About 64 KiB of a working session: prompts, answers and a large tool result. */
  private static String filler() {
    StringBuilder block = new StringBuilder();
    int n = 0;
    while (block.length() < 64 * 1024) {
      block.append(Lines.claudeUser("old question " + n)).append('\n');
      block.append(Lines.claudeToolResult("x".repeat(4000))).append('\n');
      block.append(Lines.claudeAssistant("old_" + n, "old answer " + n)).append('\n');
      n++;
    }
    return block.toString();
  }
}
