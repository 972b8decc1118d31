package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeminiTranscriptLocatorTest {

  private static final Instant CREATED = Instant.parse("2026-08-01T10:00:00Z");
  private static final Clock NOW =
      Clock.fixed(Instant.parse("2026-08-01T12:00:00Z"), ZoneOffset.UTC);
  private static final String ID = "6f1c2d3e-aaaa-4bbb-8ccc-ddddeeeeffff";

  @TempDir Path home;
  @TempDir Path project;

  private List<Turn> turns(String cliSessionId) {
    return new Transcripts(TestRoots.under(home), NOW)
        .turns(new TranscriptRequest("gemini", "clique-1", cliSessionId, project, CREATED));
  }

  private Path chat(String projectDir, String name, String sessionId, String started, String text)
      throws IOException {
    return Lines.write(
        home.resolve(".gemini/tmp").resolve(projectDir).resolve("chats").resolve(name),
        List.of(Lines.geminiMeta(sessionId, started), Lines.geminiMessage("m1", "user", text)));
  }

  private String hashDir() {
    return GeminiTranscriptLocator.sha256(project.toAbsolutePath().normalize().toString());
  }

  @Test
  void theProjectDirectoryIsTheSha256OfTheCwd() {
    assertThat(GeminiTranscriptLocator.sha256("/home/dev/app"))
        .isEqualTo("720d8948da0bcc78a2caee13f1ca58a1ffd37756430e9700be128c797528407b");
  }

  @Test
  void aSessionIsFoundByItsIdInTheHashedProjectDirectory() throws IOException {
    chat(hashDir(), "session-2026-08-01T10-00-6f1c2d3e.jsonl", ID, "2026-08-01T10:00:01Z", "ours");
    chat(
        hashDir(),
        "session-2026-08-01T10-01-11111111.jsonl",
        "11111111-0000",
        "2026-08-01T10:01:00Z",
        "newer");

    assertThat(turns(ID)).containsExactly(new Turn("user", "ours"));
  }

  @Test
  void aSessionIsFoundInTheShortProjectDirectoryThatNamesTheCwd() throws IOException {
    chat("app", "session-2026-08-01T10-00-6f1c2d3e.jsonl", ID, "2026-08-01T10:00:01Z", "short");
    Files.writeString(home.resolve(".gemini/tmp/app/.project_root"), project.toString());
    chat(
        "app-1",
        "session-2026-08-01T10-00-22222222.jsonl",
        "22222222",
        "2026-08-01T10:00:01Z",
        "x");
    Files.writeString(home.resolve(".gemini/tmp/app-1/.project_root"), "/some/other/app");

    assertThat(turns(null)).containsExactly(new Turn("user", "short"));
  }

  @Test
  void withoutAnIdTheNewestSessionStartedAfterCreationIsRead() throws IOException {
    chat(
        hashDir(),
        "session-2026-08-01T09-00-aaaaaaaa.jsonl",
        "aaaaaaaa",
        "2026-08-01T09:00:00Z",
        "before");
    chat(
        hashDir(),
        "session-2026-08-01T10-00-bbbbbbbb.jsonl",
        "bbbbbbbb",
        "2026-08-01T10:00:01Z",
        "first");
    chat(
        hashDir(),
        "session-2026-08-01T10-20-cccccccc.jsonl",
        "cccccccc",
        "2026-08-01T10:20:00Z",
        "after /clear");

    assertThat(turns(null)).containsExactly(new Turn("user", "after /clear"));
  }

  @Test
  void anOlderJsonDocumentIsReadWhenItIsTheSession() throws IOException {
    Path chats = home.resolve(".gemini/tmp").resolve(hashDir()).resolve("chats");
    Files.createDirectories(chats);
    Files.writeString(
        chats.resolve("session-2026-08-01T10-00-6f1c2d3e.json"),
        "{\n  \"sessionId\": \""
            + ID
            + "\",\n  \"projectHash\": \"x\",\n"
            + "  \"startTime\": \"2026-08-01T10:00:01Z\",\n  \"messages\": [\n"
            + "    {\"id\": \"m1\", \"type\": \"user\", \"content\": \"from a document\"}\n  ]\n}\n");

    assertThat(turns(ID)).containsExactly(new Turn("user", "from a document"));
  }

  @Test
  void noChatYetIsNoTurns() throws IOException {
    assertThat(turns(ID)).isEmpty();
    chat(
        hashDir(),
        "session-2026-08-01T09-00-aaaaaaaa.jsonl",
        "aaaaaaaa",
        "2026-08-01T09:00:00Z",
        "before");
    assertThat(turns(null)).isEmpty();
  }
}
