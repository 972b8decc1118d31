package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * opencode 1.18.33's database, trimmed to one session of the real program's (a shell call, two
 * failed prompts; paths made neutral), its later transactions still in the write-ahead log.
 */
class OpencodeConversationTest {
  private static final String SESSION = "ses_dc935c8e6ffe6FSo3ex0MmaPzA";
  private static final Path CWD = Path.of("/home/dev/project");

  @TempDir Path dir;

  private Path fixture(String name) throws Exception {
    Path from = Path.of(getClass().getResource("/transcripts/opencode/" + name).toURI());
    Path db = dir.resolve("opencode.db");
    Files.copy(from, db, StandardCopyOption.REPLACE_EXISTING);
    Path wal = from.resolveSibling(name + "-wal");
    if (Files.exists(wal)) {
      Files.copy(wal, dir.resolve("opencode.db-wal"), StandardCopyOption.REPLACE_EXISTING);
    }
    return db;
  }

  private static TranscriptRequest request(String cliSessionId, Path cwd, Instant created) {
    return new TranscriptRequest("opencode", "clique-id", cliSessionId, cwd, created);
  }

  @Test
  void theConversationIsReadFromTheDatabaseAndItsLog() throws Exception {
    Path db = fixture("conversation.db");
    List<Turn> expected =
        List.of(
            new Turn("user", "run the command"),
            new Turn("assistant", "Done: the command ran."),
            new Turn("user", "this will fail\n\nthis will fail hard"));
    assertThat(OpencodeConversation.turns(db, request(null, CWD, null)))
        .as("the newest session of the folder")
        .isEqualTo(expected);
    assertThat(OpencodeConversation.turns(db, request(SESSION, null, null)))
        .as("the session clique was told of")
        .isEqualTo(expected);
  }

  @Test
  void theRealOpencodesDatabaseWithToolOutputsOverAPageHasItsGoldenTurns() throws Exception {
    // Made by the real opencode 1.18.33: `opencode run "Print the long listings"` in a throwaway
    // HOME, against the scripted Anthropic server (AnthropicModelServer, as RealOpencodeIT runs
    // it) playing 24 ShellCall steps of `seq -f 'line %06g of a long tool output, call N' 1 2000`
    // (some 80 KB each) and a Text: interior and overflow pages, 8 MB with its log.
    Path db = fixture("long-outputs.db");
    Path golden =
        Path.of(getClass().getResource("/transcripts/opencode/long-outputs.turns.json").toURI());
    List<Turn> turns = List.of(new ObjectMapper().readValue(golden.toFile(), Turn[].class));
    assertThat(
            OpencodeConversation.turns(db, request(null, Path.of("/tmp/opencode-project"), null)))
        .isEqualTo(turns)
        .hasSize(2);
  }

  @Test
  void theUsageIsSummedOverTheAnswersTheFailedRequestsLeftOut() throws Exception {
    Path db = fixture("conversation.db");
    // The session's four assistant messages: two answers of 100 input and 20 output tokens (the
    // shell call and the answer after it, as the scripted server reported them), two failures.
    Usage expected =
        new Usage(
            "claude-scripted", 200L, 40L, 0L, 0L, 0L, 2L, 100L, null, "opencode database", false);
    assertThat(OpencodeConversation.usage(db, request(SESSION, null, null)).usage())
        .isEqualTo(expected);
    assertThat(OpencodeConversation.usage(db, request(null, CWD, null)).usage())
        .as("the newest session of the folder")
        .isEqualTo(expected);
    assertThat(OpencodeConversation.usage(db, request("ses_none", null, null)))
        .isEqualTo(UsageReport.NONE);
    assertThat(OpencodeConversation.usage(dir.resolve("none.db"), request(SESSION, null, null)))
        .isEqualTo(UsageReport.NONE);
  }

  @Test
  void aMessageThatIsNotJsonOrHasABadCountIsLeftOutOfTheDatabasesUsageAndSaidSo() throws Exception {
    // The recorded database, its log folded in, with the second answer's input made -100 and the
    // first failed request's data cut in the middle.
    Path db = fixture("bad-counts.db");

    assertThat(OpencodeConversation.usage(db, request(SESSION, null, null)).usage())
        .isEqualTo(
            new Usage(
                "claude-scripted",
                100L,
                20L,
                0L,
                0L,
                0L,
                1L,
                100L,
                null,
                "opencode database; left out: 1 record cut short, 1 record with a negative count",
                false));
  }

  @Test
  void anAnswerWithBadCountsIsLeftOutAndSaidSo() throws Exception {
    OpencodeUsage tally = new OpencodeUsage();
    for (String tokens :
        new String[] {
          "{'input': 100, 'output': 20, 'reasoning': 5, 'cache': {'read': 1000, 'write': 50}}",
          "{'input': 100, 'reasoning': 5, 'cache': {'read': 1000, 'write': 50}}",
          "{'input': -100, 'output': 20}",
          "{'input': 100, 'output': 'many'}",
          "{'input': 100, 'output': 20, 'cache': {'read': 5000000000000, 'write': 0}}",
          "{'input': 200, 'output': 30, 'reasoning': 0, 'cache': {'read': 2000, 'write': 0}}",
        }) {
      tally.add(
          new ObjectMapper()
              .readTree(
                  ("{'role': 'assistant', 'modelID': 'claude-sonnet-4-5', 'tokens': "
                          + tokens
                          + "}")
                      .replace('\'', '"')));
    }

    assertThat(tally.report(false).usage())
        .isEqualTo(
            new Usage(
                "claude-sonnet-4-5",
                300L,
                55L,
                3000L,
                50L,
                5L,
                2L,
                2200L,
                null,
                "opencode database; left out: 1 record missing a count, 1 record with a count that"
                    + " is not a whole number, 1 record with a negative count, 1 record with a count"
                    + " over 10^12",
                false));
  }

  @Test
  void theUsageIsReadAgainOnlyAfterTheDatabaseChanged() throws Exception {
    Path db = fixture("conversation.db");
    OpencodeConversation.Kept usages = new OpencodeConversation.Kept();
    UsageReport first = usages.usage(db, request(SESSION, null, null));
    assertThat(first.usage().inputTokens()).isEqualTo(200L);
    assertThat(usages.usage(db, request(SESSION, null, null))).isSameAs(first);
    Files.delete(dir.resolve("opencode.db-wal"));
    Files.delete(db);
    assertThat(usages.usage(db, request(SESSION, null, null))).isEqualTo(UsageReport.NONE);
  }

  @Test
  void aDatabaseCutShortHasNoUsageAndIsNotReadAgainUntilItChanges() throws Exception {
    Path db = fixture("conversation.db");
    Path wal = dir.resolve("opencode.db-wal");
    byte[] whole = Files.readAllBytes(db);
    byte[] log = Files.readAllBytes(wal);
    Files.delete(wal);
    Files.write(db, Arrays.copyOf(whole, 4096 * 2));
    OpencodeConversation.Kept usages = new OpencodeConversation.Kept();
    assertThat(usages.usage(db, request(SESSION, null, null))).isEqualTo(UsageReport.NONE);
    assertThat(usages.usage(db, request(SESSION, null, null))).isEqualTo(UsageReport.NONE);
    Files.write(db, whole);
    Files.write(wal, log);
    assertThat(usages.usage(db, request(SESSION, null, null)).usage().turns()).isEqualTo(2L);
  }

  @Test
  void anotherFolderAnotherIdOrASessionOlderThanCliquesIsNotThisOne() throws Exception {
    Path db = fixture("conversation.db");
    assertThat(OpencodeConversation.turns(db, request(null, Path.of("/home/dev/other"), null)))
        .isEmpty();
    assertThat(OpencodeConversation.turns(db, request("ses_someoneelse", CWD, null))).isEmpty();
    assertThat(
            OpencodeConversation.turns(
                db, request(null, CWD, Instant.parse("2027-01-01T00:00:00Z"))))
        .isEmpty();
    assertThat(OpencodeConversation.turns(dir.resolve("none.db"), request(null, CWD, null)))
        .as("no database yet")
        .isEmpty();
  }

  @Test
  void aTransactionTheLogHoldsOnlyPartOfDoesNotCount() throws Exception {
    Path db = fixture("conversation.db");
    Path wal = dir.resolve("opencode.db-wal");
    byte[] log = Files.readAllBytes(wal);
    Files.write(wal, Arrays.copyOf(log, log.length - 100));
    // The last transaction wrote the parts of the later messages: without it, their prompts have
    // no text yet, as opencode itself would read the database now.
    assertThat(OpencodeConversation.turns(db, request(null, CWD, null)))
        .containsExactly(
            new Turn("user", "run the command"), new Turn("assistant", "Done: the command ran."));
  }

  @Test
  void aDatabaseCutShortIsAnErrorNamingTheFile() throws Exception {
    Path db = fixture("conversation.db");
    Files.delete(dir.resolve("opencode.db-wal"));
    byte[] bytes = Files.readAllBytes(db);
    Files.write(db, Arrays.copyOf(bytes, 4096 * 2));
    assertThatThrownBy(() -> OpencodeConversation.turns(db, request(null, CWD, null)))
        .isInstanceOf(UnreadableTranscriptException.class)
        .hasMessageContaining(db.toString());

    Files.writeString(db, "{\"not\": \"a database\"}");
    assertThatThrownBy(() -> OpencodeConversation.turns(db, request(null, CWD, null)))
        .isInstanceOf(UnreadableTranscriptException.class)
        .hasMessageContaining(db.toString())
        .hasMessageContaining("not an SQLite database");
  }

  @Test
  void aNewerFormIsAnErrorNamingTheFileAndTheVersionThatWroteIt() throws Exception {
    Path db = fixture("newer-schema.db");
    assertThatThrownBy(() -> OpencodeConversation.turns(db, request(null, CWD, null)))
        .isInstanceOf(UnreadableTranscriptException.class)
        .hasMessageContaining(db.toString())
        .hasMessageContaining("opencode 1.18.33")
        .hasMessageContaining("no column message.data");
  }

  @Test
  void theDatabaseIsWhereTheSessionsEnvironmentSays() {
    Path home = Path.of("/home/dev");
    assertThat(TranscriptRoots.opencodeDatabase(Map.of(), home))
        .isEqualTo(Path.of("/home/dev/.local/share/opencode/opencode.db"));
    assertThat(TranscriptRoots.opencodeDatabase(Map.of("XDG_DATA_HOME", "/data"), home))
        .isEqualTo(Path.of("/data/opencode/opencode.db"));
    assertThat(TranscriptRoots.opencodeDatabase(Map.of("OPENCODE_DB", "/x/my.db"), home))
        .isEqualTo(Path.of("/x/my.db"));
  }

  @Test
  void aTablesColumnsAreReadFromItsDefinition() {
    assertThat(
            SqliteSnapshot.columns(
                "CREATE TABLE `part` (\n `id` text PRIMARY KEY,\n `message_id` text NOT NULL,\n"
                    + " `data` text NOT NULL,\n CONSTRAINT `fk` FOREIGN KEY (`message_id`)"
                    + " REFERENCES `message`(`id`) ON DELETE CASCADE\n)"))
        .containsExactly("id", "message_id", "data");
  }
}
