package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where GitHub Copilot CLI's record of a session is: by its id, else by its folder. */
class CopilotTranscriptLocatorTest {
  private static final Instant CREATED = Instant.parse("2026-08-01T10:00:00Z");

  @TempDir Path home;

  private List<Turn> turns(String sessionId, String cliSessionId, String cwd) {
    return new Transcripts(TestRoots.under(home))
        .turns(new TranscriptRequest("copilot", sessionId, cliSessionId, Path.of(cwd), CREATED));
  }

  private void session(String id, String cwd, String said, Instant written) throws IOException {
    Path dir = Files.createDirectories(home.resolve(".copilot/session-state").resolve(id));
    Files.writeString(dir.resolve("workspace.yaml"), "id: " + id + "\ncwd: " + cwd + "\n");
    Path events =
        Files.writeString(
            dir.resolve("events.jsonl"),
            "{\"type\":\"user.message\",\"data\":{\"content\":\"" + said + "\"},\"id\":\"1\"}\n");
    Files.setLastModifiedTime(events, FileTime.from(written));
  }

  @Test
  void aSessionCliqueStartedIsFoundByItsOwnId() throws IOException {
    session("5f0c9a2e-1111-4c3b-9d1e-222233334444", "/work", "started by clique", CREATED);
    session("other", "/work", "another", CREATED.plusSeconds(60));

    assertThat(turns("5f0c9a2e-1111-4c3b-9d1e-222233334444", null, "/work"))
        .containsExactly(new Turn("user", "started by clique"));
  }

  @Test
  void withoutItsIdTheNewestSessionOfTheFolderSinceItBeganIsRead() throws IOException {
    session("old", "/work", "before the session", CREATED.minusSeconds(3600));
    session("elsewhere", "/elsewhere", "another folder", CREATED.plusSeconds(120));
    session("this", "/work", "this one", CREATED.plusSeconds(60));

    assertThat(turns("clique-1", null, "/work")).containsExactly(new Turn("user", "this one"));
    assertThat(turns("clique-1", null, "/nowhere")).isEmpty();
  }

  @Test
  void anIdThatCouldLeaveTheFolderIsNoFile() throws IOException {
    session("secret", "/work", "not this", CREATED);

    assertThat(turns("clique-1", "../session-state/secret", "/work")).isEmpty();
  }
}
