package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TranscriptCacheTest {

  @TempDir Path home;
  private Path file;
  private Transcripts transcripts;

  @BeforeEach
  void setUp() {
    file = home.resolve("session.jsonl");
    transcripts = new Transcripts(TestRoots.under(home));
  }

  @Test
  void anUnchangedFileIsNotReadAgain() throws IOException {
    Lines.write(file, List.of(Lines.claudeUser("hello"), Lines.claudeAssistant("m1", "hi")));
    List<Turn> first = transcripts.turnsOf("claude", file);
    long read = transcripts.bytesRead();

    List<Turn> second = transcripts.turnsOf("claude", file);

    assertThat(transcripts.bytesRead()).isEqualTo(read);
    assertThat(second).isSameAs(first).hasSize(2);
  }

  @Test
  void aGrownFileShowsTheNewTurnsAndReadsOnlyTheNewBytes() throws IOException {
    Lines.write(file, List.of(Lines.claudeUser("hello"), Lines.claudeAssistant("m1", "hi")));
    transcripts.turnsOf("claude", file);
    long before = transcripts.bytesRead();
    String appended = Lines.claudeUser("next") + "\n" + Lines.claudeAssistant("m2", "sure") + "\n";

    Lines.append(file, appended);
    List<Turn> turns = transcripts.turnsOf("claude", file);

    assertThat(turns)
        .containsExactly(
            new Turn("user", "hello"),
            new Turn("assistant", "hi"),
            new Turn("user", "next"),
            new Turn("assistant", "sure"));
    assertThat(transcripts.bytesRead() - before)
        .isEqualTo(appended.getBytes(StandardCharsets.UTF_8).length + TailWindow.ANCHOR_BYTES);
  }

  @Test
  void aLineWrittenInTwoPartsCountsOnceItEnds() throws IOException {
    Lines.write(file, List.of(Lines.claudeUser("hello")));
    String line = Lines.claudeAssistant("m1", "a reply written in two parts");
    Lines.append(file, line.substring(0, 20));

    assertThat(transcripts.turnsOf("claude", file)).containsExactly(new Turn("user", "hello"));

    Lines.append(file, line.substring(20) + "\n");

    assertThat(transcripts.turnsOf("claude", file))
        .containsExactly(
            new Turn("user", "hello"), new Turn("assistant", "a reply written in two parts"));
  }

  @Test
  void aRewrittenFileOfTheSameSizeIsReadAfresh() throws IOException {
    Lines.write(file, List.of(Lines.claudeUser("first version")));
    transcripts.turnsOf("claude", file);

    Lines.write(file, List.of(Lines.claudeUser("other version")));
    Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 5_000));

    assertThat(transcripts.turnsOf("claude", file))
        .containsExactly(new Turn("user", "other version"));
  }

  @Test
  void aFileRewrittenLongerIsNotMistakenForAGrownOne() throws IOException {
    Lines.write(file, List.of(Lines.claudeUser("one"), Lines.claudeUser("two")));
    transcripts.turnsOf("claude", file);

    Lines.write(
        file, List.of(Lines.claudeUser("uno"), Lines.claudeUser("dos"), Lines.claudeUser("tres")));

    assertThat(transcripts.turnsOf("claude", file))
        .containsExactly(new Turn("user", "uno\n\ndos\n\ntres"));
  }

  @Test
  void aShrunkFileIsReadAfresh() throws IOException {
    Lines.write(file, List.of(Lines.claudeUser("one"), Lines.claudeAssistant("m", "two")));
    transcripts.turnsOf("claude", file);

    Lines.write(file, List.of(Lines.claudeUser("x")));

    assertThat(transcripts.turnsOf("claude", file)).containsExactly(new Turn("user", "x"));
  }

  @Test
  void aLineLongerThanOneStepIsReadAsItStreamsAndWhatComesBeforeItToo() throws IOException {
    Lines.write(file, List.of(Lines.claudeUser("before")));
    Lines.append(file, Lines.claudeUser("long " + "y".repeat(TailWindow.CHUNK_BYTES + 10)));

    assertThat(transcripts.turnsOf("claude", file)).containsExactly(new Turn("user", "before"));

    Lines.append(file, "\n" + Lines.claudeUser("after") + "\n");

    List<Turn> grown = transcripts.turnsOf("claude", file);
    assertThat(grown).hasSize(1);
    assertThat(grown.get(0).text()).startsWith("before\n\nlong yyy").endsWith("y\n\nafter");
    assertThat(new Transcripts(TestRoots.under(home)).turnsOf("claude", file)).isEqualTo(grown);
  }

  @Test
  void aLineThatStartsBeforeTheBudgetIsNotReadAndWhatFollowsIs() throws IOException {
    Lines.write(file, List.of(Lines.claudeUser("before")));
    Lines.append(file, Lines.claudeToolResult("y".repeat(TailWindow.BUDGET_BYTES + 10)));

    assertThat(transcripts.turnsOf("claude", file)).isEmpty();

    Lines.append(file, "\n" + Lines.claudeUser("after") + "\n");

    assertThat(transcripts.turnsOf("claude", file)).containsExactly(new Turn("user", "after"));
    Transcripts fresh = new Transcripts(TestRoots.under(home));
    assertThat(fresh.turnsOf("claude", file)).containsExactly(new Turn("user", "after"));
    assertThat(fresh.bytesRead()).isLessThanOrEqualTo(TailWindow.BUDGET_BYTES + 1);
  }

  @Test
  void aFileWithFarMoreTurnsThanShownStillGrowsByItsNewBytesOnly() throws IOException {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      lines.add(Lines.claudeUser("q" + i));
      lines.add(Lines.claudeAssistant("m" + i, "a" + i));
    }
    Lines.write(file, lines);
    assertThat(transcripts.turnsOf("claude", file)).hasSize(TurnList.MAX_TURNS);

    for (int i = 0; i < 20; i++) {
      String appended = Lines.claudeUser("new " + i) + "\n";
      long before = transcripts.bytesRead();
      Lines.append(file, appended);

      List<Turn> turns = transcripts.turnsOf("claude", file);

      assertThat(turns.get(turns.size() - 1).text()).endsWith("new " + i);
      assertThat(transcripts.bytesRead() - before)
          .as("append %d", i)
          .isEqualTo(appended.length() + TailWindow.ANCHOR_BYTES);
    }
    assertThat(transcripts.turnsOf("claude", file))
        .isEqualTo(new Transcripts(TestRoots.under(home)).turnsOf("claude", file));
  }

  @Test
  void growingStepByStepGivesWhatAFreshReadGives() throws IOException {
    // The answer depends only on the file as it is, however it was reached.
    Random random = new Random(42);
    Files.createFile(file);
    List<String> pending = new ArrayList<>();
    long longest = 0;
    int smallReads = 0;
    for (int step = 0; step < 120; step++) {
      StringBuilder chunk = new StringBuilder();
      int lines = 1 + random.nextInt(30);
      for (int i = 0; i < lines; i++) {
        chunk.append(randomLine(random, step, i)).append('\n');
      }
      String text = String.join("", pending) + chunk;
      pending.clear();
      int cut = random.nextInt(4) == 0 ? random.nextInt(text.length()) : text.length();
      pending.add(text.substring(cut));
      long before = transcripts.bytesRead();
      Lines.append(file, text.substring(0, cut));

      List<Turn> grown = transcripts.turnsOf("claude", file);
      List<Turn> fresh = new Transcripts(TestRoots.under(home)).turnsOf("claude", file);

      assertThat(grown).as("step %d", step).isEqualTo(fresh);
      long read = transcripts.bytesRead() - before;
      longest = Math.max(longest, read);
      smallReads += read < text.length() + TailWindow.ANCHOR_BYTES + 1 ? 1 : 0;
    }
    assertThat(smallReads).as("steps that read only the new bytes").isGreaterThan(100);
    assertThat(Files.size(file)).isGreaterThan(3L * TailWindow.CHUNK_BYTES);
    assertThat(longest).isLessThanOrEqualTo(2L * TailWindow.BUDGET_BYTES);
  }

  @Test
  void readersOnManyThreadsWhileTheFileGrowsNeverFailAndEndOnTheFreshAnswer() throws Exception {
    Lines.write(file, List.of(Lines.claudeUser("start")));
    ExecutorService pool = Executors.newFixedThreadPool(4);
    AtomicBoolean writing = new AtomicBoolean(true);
    CountDownLatch started = new CountDownLatch(4);
    try {
      List<Future<Integer>> readers = new ArrayList<>();
      for (int r = 0; r < 4; r++) {
        readers.add(
            pool.submit(
                () -> {
                  started.countDown();
                  int calls = 0;
                  do {
                    assertThat(transcripts.turnsOf("claude", file)).isNotEmpty();
                    calls++;
                  } while (writing.get());
                  return calls;
                }));
      }
      // Every reader reads while the file grows, however slowly a loaded machine starts them.
      assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
      for (int i = 0; i < 300; i++) {
        Lines.append(
            file,
            Lines.claudeAssistant("m" + i, "answer " + i)
                + "\n"
                + Lines.claudeUser("q" + i)
                + "\n");
      }
      writing.set(false);
      for (Future<Integer> reader : readers) {
        assertThat(reader.get(30, TimeUnit.SECONDS)).isPositive();
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(transcripts.turnsOf("claude", file))
        .isEqualTo(new Transcripts(TestRoots.under(home)).turnsOf("claude", file))
        .hasSize(TurnList.MAX_TURNS)
        .last()
        .isEqualTo(new Turn("user", "q299"));
  }

  private static String randomLine(Random random, int step, int i) {
    return switch (random.nextInt(6)) {
      case 0 -> Lines.claudeUser("question " + step + "." + i);
      case 1 -> Lines.claudeToolResult("z".repeat(random.nextInt(100_000)));
      case 2 -> "{not json";
      default -> Lines.claudeAssistant("msg_" + step, "answer " + step + "." + random.nextInt(3));
    };
  }
}
