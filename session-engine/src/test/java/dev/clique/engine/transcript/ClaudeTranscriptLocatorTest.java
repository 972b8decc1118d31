package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClaudeTranscriptLocatorTest {

  private static final String ID = "5f0c9a2e-1111-4c3b-9d1e-222233334444";
  private static final Instant CREATED = Instant.parse("2026-08-01T10:00:00Z");

  @TempDir Path home;

  private List<Turn> turns(String sessionId, String cliSessionId, String cwd) {
    return new Transcripts(TestRoots.under(home))
        .turns(new TranscriptRequest("claude", sessionId, cliSessionId, Path.of(cwd), CREATED));
  }

  private void transcript(String projectDir, String id, String text) throws IOException {
    Lines.write(
        home.resolve(".claude/projects").resolve(projectDir).resolve(id + ".jsonl"),
        List.of(Lines.claudeUser(text)));
  }

  @Test
  void theSlugIsTheCwdWithEveryOtherCharacterADash() {
    assertThat(ClaudeTranscriptLocator.slug("/home/u/my_app.v2")).isEqualTo("-home-u-my-app-v2");
    assertThat(ClaudeTranscriptLocator.slug("/a//b")).isEqualTo("-a--b");
  }

  @Test
  void theFileIsFoundUnderTheCwdSlug() throws IOException {
    transcript("-home-dev-my-app", ID, "by slug");

    assertThat(turns(ID, null, "/home/dev/my_app")).containsExactly(new Turn("user", "by slug"));
  }

  @Test
  void theFileIsFoundInAnyProjectDirectoryWhenTheSlugDiffers() throws IOException {
    transcript("-home-dev-a-very-long-path-cut-and-hashed-1a2b3c", ID, "by glob");

    assertThat(turns(ID, null, "/elsewhere")).containsExactly(new Turn("user", "by glob"));
  }

  @Test
  void aResumedSessionIsReadUnderItsCliSessionId() throws IOException {
    transcript("-work", ID, "ours");
    transcript("-work", "0b1c2d3e-0000-4000-8000-000000000009", "resumed");

    assertThat(turns(ID, "0b1c2d3e-0000-4000-8000-000000000009", "/work"))
        .containsExactly(new Turn("user", "resumed"));
  }

  @Test
  void noFileYetIsNoTurns() throws IOException {
    transcript("-work", "another-session", "not ours");

    assertThat(turns(ID, null, "/work")).isEmpty();
    assertThat(
            new Transcripts(TestRoots.under(home.resolve("nothing-here")))
                .turns(new TranscriptRequest("claude", ID, null, Path.of("/work"), CREATED)))
        .isEmpty();
  }

  @Test
  void anIdThatCouldLeaveTheDirectoryFindsNothing() throws IOException {
    Lines.write(home.resolve(".claude/secret.jsonl"), List.of(Lines.claudeUser("secret")));

    assertThat(turns("../../secret", null, "/work")).isEmpty();
    assertThat(turns(ID, "../secret", "/work")).isEmpty();
  }

  @Test
  void subAgentTranscriptsAreNeverTheSessionsOwn() throws IOException {
    // Claude Code writes a sub-agent's conversation beside the session's, in its own folder.
    Path subagents = home.resolve(".claude/projects/-work/" + ID + "/subagents");
    Lines.write(subagents.resolve("agent-a1b2c3.jsonl"), List.of(Lines.claudeUser("sub-agent")));
    Lines.write(
        home.resolve(".claude/projects/" + ID + "/subagents/agent-d4e5.jsonl"),
        List.of(Lines.claudeUser("sub-agent elsewhere")));

    assertThat(turns(ID, null, "/work")).isEmpty();

    transcript("-work", ID, "main");
    Lines.append(subagents.resolve("agent-a1b2c3.jsonl"), Lines.claudeUser("newer") + "\n");

    assertThat(turns(ID, null, "/work")).containsExactly(new Turn("user", "main"));
    assertThat(turns(ID, null, "/elsewhere")).containsExactly(new Turn("user", "main"));
  }
}
