package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CodexTranscriptLocatorTest {

  private static final Instant CREATED = Instant.parse("2026-08-01T10:00:00Z");
  private static final Clock NOW =
      Clock.fixed(Instant.parse("2026-08-01T12:00:00Z"), ZoneOffset.UTC);

  @TempDir Path home;

  private Transcripts transcripts() {
    return new Transcripts(TestRoots.under(home), NOW);
  }

  private List<Turn> turns(Transcripts transcripts, String cliSessionId, String cwd) {
    return transcripts.turns(
        new TranscriptRequest("codex", "clique-1", cliSessionId, Path.of(cwd), CREATED));
  }

  private Path rollout(String day, String name, String id, String cwd, String started, String text)
      throws IOException {
    return Lines.write(
        home.resolve(".codex/sessions").resolve(day).resolve(name),
        List.of(Lines.codexMeta(id, cwd, started), Lines.codexMessage("user", text)));
  }

  @Test
  void aSessionIsFoundByTheIdInItsFirstLine() throws IOException {
    rollout(
        "2026/08/01",
        "rollout-2026-08-01T10-00-01-aaaa.jsonl",
        "id-a",
        "/work",
        "2026-08-01T10:00:01Z",
        "a");
    rollout(
        "2026/08/01",
        "rollout-2026-08-01T10-00-02-bbbb.jsonl",
        "id-b",
        "/work",
        "2026-08-01T10:00:02Z",
        "b");

    assertThat(turns(transcripts(), "id-b", "/work")).containsExactly(new Turn("user", "b"));
  }

  @Test
  void withoutAnIdTheSessionInTheSameCwdThatStartedClosestAfterCreationIsRead() throws IOException {
    rollout(
        "2026/08/01",
        "rollout-2026-08-01T09-00-00-old.jsonl",
        "old",
        "/work",
        "2026-08-01T09:00:00Z",
        "before");
    rollout(
        "2026/08/01",
        "rollout-2026-08-01T10-00-30-later.jsonl",
        "later",
        "/work",
        "2026-08-01T10:00:30Z",
        "later");
    rollout(
        "2026/08/01",
        "rollout-2026-08-01T10-00-02-ours.jsonl",
        "ours",
        "/work",
        "2026-08-01T10:00:02Z",
        "ours");
    rollout(
        "2026/08/01",
        "rollout-2026-08-01T10-00-01-other.jsonl",
        "other",
        "/elsewhere",
        "2026-08-01T10:00:01Z",
        "other cwd");

    assertThat(turns(transcripts(), null, "/work")).containsExactly(new Turn("user", "ours"));
  }

  @Test
  void onlyTheDaysAroundCreationAndTodayAreLooked() throws IOException {
    // Same cwd, started after creation, but filed under a day nobody would write it to.
    rollout(
        "2026/09/15",
        "rollout-2026-09-15T10-00-00-far.jsonl",
        "far",
        "/work",
        "2026-08-01T10:00:05Z",
        "far");
    Transcripts transcripts = transcripts();

    assertThat(turns(transcripts, null, "/work")).isEmpty();
    assertThat(transcripts.bytesRead()).isZero();
  }

  @Test
  void aResumedSessionFromAnOlderDayIsFoundByTheIdInItsName() throws IOException {
    rollout(
        "2026/03/02",
        "rollout-2026-03-02T08-00-00-0198-old-id.jsonl",
        "0198-old-id",
        "/work",
        "2026-03-02T08:00:00Z",
        "resumed");

    assertThat(turns(transcripts(), "0198-old-id", "/work"))
        .containsExactly(new Turn("user", "resumed"));
  }

  @Test
  void noRolloutYetIsNoTurns() throws IOException {
    assertThat(turns(transcripts(), null, "/work")).isEmpty();
    rollout(
        "2026/08/01",
        "rollout-2026-08-01T09-00-00-old.jsonl",
        "old",
        "/work",
        "2026-08-01T09:00:00Z",
        "before");
    assertThat(turns(transcripts(), "missing", "/work")).isEmpty();
  }

  @Test
  void headsAreReadOnceAndAnUnchangedRolloutNotAtAll() throws IOException {
    rollout(
        "2026/08/01",
        "rollout-2026-08-01T09-00-00-old.jsonl",
        "old",
        "/work",
        "2026-08-01T09:00:00Z",
        "before");
    rollout(
        "2026/08/01",
        "rollout-2026-08-01T10-00-02-ours.jsonl",
        "ours",
        "/work",
        "2026-08-01T10:00:02Z",
        "ours");
    Transcripts transcripts = transcripts();
    turns(transcripts, null, "/work");
    long read = transcripts.bytesRead();

    assertThat(turns(transcripts, null, "/work")).containsExactly(new Turn("user", "ours"));
    assertThat(transcripts.bytesRead()).isEqualTo(read);
  }
}
