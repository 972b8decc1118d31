package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pi's session file is found by the id the engine started pi with, under the agent directory the
 * session's environment names; a file that is there but would be read wrong is an error naming it.
 */
class PiTranscriptLocatorTest {
  private static final String ID = "5f0c9a2e-1111-4c3b-9d1e-222233334444";
  private static final Path CWD = Path.of("/home/dev/my:app");
  private static final String HEADER =
      "{\"type\":\"session\",\"version\":3,\"id\":\"" + ID + "\",\"cwd\":\"/home/dev/my:app\"}\n";
  private static final String TURN =
      "{\"type\":\"message\",\"id\":\"u1\",\"parentId\":null,\"message\":{\"role\":\"user\","
          + "\"content\":\"Hello\"}}\n";

  @TempDir Path home;
  private Transcripts transcripts;
  private Path folder;

  @BeforeEach
  void setUp() throws Exception {
    transcripts = new Transcripts(TestRoots.under(home));
    folder = home.resolve(".pi/agent/sessions/--home-dev-my-app--");
    Files.createDirectories(folder);
  }

  private List<Turn> turns(String id) {
    return transcripts.turns(
        new TranscriptRequest("pi", id, null, CWD, Instant.parse("2026-08-01T10:00:00Z")));
  }

  @Test
  void theSessionStartedWithOurIdIsReadFromItsFoldersFile() throws Exception {
    Files.writeString(folder.resolve("2026-08-01T10-00-00-000Z_" + ID + ".jsonl"), HEADER + TURN);
    Files.writeString(
        folder.resolve("2026-08-01T10-05-00-000Z_0000aaaa-1111-4c3b-9d1e-222233334444.jsonl"),
        HEADER.replace(ID, "other") + TURN.replace("Hello", "Not this one"));

    assertThat(turns(ID)).containsExactly(new Turn(Turn.USER, "Hello"));
    assertThat(turns("no-such-session")).isEmpty();
    assertThat(turns("../../etc/passwd")).isEmpty();
  }

  @Test
  void aResumedSessionIsFoundInAnyFolderByItsCliId() throws Exception {
    Path elsewhere = home.resolve(".pi/agent/sessions/--srv-other--");
    Files.createDirectories(elsewhere);
    Files.writeString(
        elsewhere.resolve("2026-08-01T10-00-00-000Z_" + ID + ".jsonl"), HEADER + TURN);

    assertThat(transcripts.turns(new TranscriptRequest("pi", "clique-id", ID, CWD, Instant.EPOCH)))
        .containsExactly(new Turn(Turn.USER, "Hello"));
  }

  @Test
  void aFileOfANewerVersionIsAnErrorNamingItNeverTurns() throws Exception {
    Path file = folder.resolve("2026-08-01T10-00-00-000Z_" + ID + ".jsonl");
    Files.writeString(file, HEADER.replace("\"version\":3", "\"version\":4") + TURN);

    assertThatThrownBy(() -> turns(ID))
        .isInstanceOf(UnreadableTranscriptException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("version 4");
  }

  @Test
  void aHalfWrittenHeaderIsAnErrorNamingTheFileAndAnEmptyFileIsNoTurnsYet() throws Exception {
    Path file = folder.resolve("2026-08-01T10-00-00-000Z_" + ID + ".jsonl");
    Files.writeString(file, "");
    assertThat(turns(ID)).isEmpty();

    Files.writeString(file, "{\"type\":\"message\",\"id\":\"u1\"}\n" + TURN);
    assertThatThrownBy(() -> turns(ID))
        .isInstanceOf(UnreadableTranscriptException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("header");
  }

  @Test
  void theFolderOfAWorkingDirectoryIsNamedAsPiNamesIt() {
    assertThat(PiTranscriptLocator.folderName("/home/dev/my:app")).isEqualTo("--home-dev-my-app--");
    assertThat(TestRoots.under(home).piSessionDir("/srv/app"))
        .isEqualTo(home.resolve(".pi/agent/sessions/--srv-app--"));
  }
}
