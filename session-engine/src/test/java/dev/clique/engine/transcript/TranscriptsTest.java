package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TranscriptsTest {

  private static final String ID = "5f0c9a2e-1111-4c3b-9d1e-222233334444";

  @TempDir Path home;

  private List<Turn> turns(String kind) {
    return new Transcripts(TestRoots.under(home))
        .turns(new TranscriptRequest(kind, ID, null, Path.of("/work"), Instant.now()));
  }

  @Test
  void theKindsWithAReaderAreClaudeCodexGeminiQwenCopilotPiAndOpencode() {
    assertThat(Transcripts.kinds())
        .containsExactly("claude", "codex", "gemini", "qwen", "copilot", "pi", "opencode");
  }

  @Test
  void aKindWithoutAReaderHasNoTurns() throws IOException {
    Lines.write(
        home.resolve(".claude/projects/-work/" + ID + ".jsonl"), List.of(Lines.claudeUser("x")));

    assertThat(turns("shell")).isEmpty();
    assertThat(turns("claude")).containsExactly(new Turn("user", "x"));
  }

  @Test
  void aTranscriptThatIsADirectoryHasNoTurns() throws IOException {
    Files.createDirectories(home.resolve(".claude/projects/-work/" + ID + ".jsonl"));

    assertThat(turns("claude")).isEmpty();
  }

  @Test
  void aFileOfGarbageHasNoTurnsAndDoesNotFail() throws IOException {
    Path file = home.resolve(".claude/projects/-work/" + ID + ".jsonl");
    Files.createDirectories(file.getParent());
    byte[] garbage = new byte[100_000];
    new java.util.Random(7).nextBytes(garbage);
    Files.write(file, garbage);

    assertThat(turns("claude")).isEmpty();
  }

  @Test
  void aBlankCliSessionIdMeansNone() {
    assertThat(new TranscriptRequest("claude", ID, " ", null, null).cliSessionId()).isNull();
  }
}
