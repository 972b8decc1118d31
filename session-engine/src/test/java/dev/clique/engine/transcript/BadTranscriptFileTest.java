package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transcript in a state no CLI leaves it in on purpose gives the turns that can be read, never an
 * error and never a read that waits.
 */
class BadTranscriptFileTest {

  private static final String ID = "5f0c9a2e-1111-4c3b-9d1e-222233334444";

  @TempDir Path home;
  private Path file;
  private Transcripts transcripts;

  @BeforeEach
  void setUp() {
    file = home.resolve(".claude/projects/-home-dev-project/" + ID + ".jsonl");
    transcripts = new Transcripts(TestRoots.under(home));
  }

  private List<Turn> turns() {
    return transcripts.turns(
        new TranscriptRequest(
            "claude",
            ID,
            null,
            Path.of("/home/dev/project"),
            Instant.parse("2026-08-01T10:00:00Z")));
  }

  @Test
  void aFileCutInTheMiddleOfALineGivesTheLinesBeforeTheCut() throws IOException {
    String whole = Lines.claudeAssistant("msg_1", "a complete answer");
    Lines.write(file, List.of(Lines.claudeUser("a question")));
    Lines.append(file, whole.substring(0, whole.length() / 2));

    assertThat(turns()).containsExactly(new Turn("user", "a question"));
  }

  @Test
  void aFileRewrittenShorterWhileCachedIsReadAgain() throws IOException {
    Lines.write(
        file,
        List.of(
            Lines.claudeUser("one"), Lines.claudeAssistant("m1", "two"), Lines.claudeUser("3")));
    assertThat(turns()).hasSize(3);

    Lines.write(file, List.of(Lines.claudeUser("rewritten")));

    assertThat(turns()).containsExactly(new Turn("user", "rewritten"));
  }

  @Test
  void aSymbolicLinkInTheTranscriptsPlaceIsNotFollowed() throws IOException {
    Path outside =
        Lines.write(home.resolve("elsewhere/secret.jsonl"), List.of(Lines.claudeUser("x")));
    Files.createDirectories(file.getParent());
    Files.createSymbolicLink(file, outside);

    assertThat(turns()).isEmpty();
  }

  @Test
  void aTranscriptReplacedByASymbolicLinkWhileCachedIsNoLongerRead() throws IOException {
    Lines.write(file, List.of(Lines.claudeUser("ours")));
    assertThat(turns()).containsExactly(new Turn("user", "ours"));
    Path outside =
        Lines.write(home.resolve("elsewhere/other.jsonl"), List.of(Lines.claudeUser("x")));
    Files.delete(file);
    Files.createSymbolicLink(file, outside);

    assertThat(turns()).isEmpty();
  }

  @Test
  void aFifoInTheTranscriptsPlaceIsNeverOpened() throws Exception {
    Files.createDirectories(file.getParent());
    mkfifo(file);

    // Opening a FIFO for reading would wait for a writer: the read must not.
    List<Turn> turns = assertTimeoutPreemptively(Duration.ofSeconds(5), this::turns);

    assertThat(turns).isEmpty();
  }

  @Test
  void aFileThatGrowsWhileReadGivesWhatWasCompleteWhenRead() throws Exception {
    Lines.write(file, List.of(Lines.claudeUser("first")));
    Thread writer =
        new Thread(
            () -> {
              try {
                for (int i = 0; i < 2_000; i++) {
                  Lines.append(file, Lines.claudeAssistant("m" + i, "answer " + i) + "\n");
                }
              } catch (IOException e) {
                throw new IllegalStateException(e);
              }
            });
    writer.start();
    while (writer.isAlive()) {
      List<Turn> turns = turns();
      assertThat(turns).isNotEmpty();
      assertThat(turns.get(turns.size() - 1).role()).isIn("user", "assistant");
    }
    writer.join();

    List<Turn> turns = turns();
    assertThat(turns).hasSize(2);
    assertThat(turns.get(1).text()).endsWith("answer 1999");
  }

  static void mkfifo(Path path) throws IOException, InterruptedException {
    Process mkfifo = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertThat(mkfifo.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(mkfifo.exitValue()).isZero();
  }
}
