package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TranscriptRootsTest {

  private static final Path HOME = Path.of("/home/dev");

  @Test
  void withoutVariablesEachCliUsesItsDotDirectoryInTheHome() {
    TranscriptRoots roots = TranscriptRoots.fromEnvironment(Map.of(), HOME);

    assertThat(roots)
        .isEqualTo(
            new TranscriptRoots(
                HOME.resolve(".claude"),
                HOME.resolve(".codex"),
                HOME.resolve(".gemini"),
                HOME.resolve(".qwen"),
                HOME.resolve(".copilot"),
                HOME.resolve(".pi/agent"),
                HOME.resolve(".local/share/opencode/opencode.db")));
  }

  @Test
  void eachCliHonoursItsOwnVariable() {
    TranscriptRoots roots =
        TranscriptRoots.fromEnvironment(
            Map.of(
                "CLAUDE_CONFIG_DIR", "/cfg/claude",
                "CODEX_HOME", "/cfg/codex",
                "GEMINI_CLI_HOME", "/cfg/gemini-home"),
            HOME);

    assertThat(roots.claudeConfigDir()).isEqualTo(Path.of("/cfg/claude"));
    assertThat(roots.codexHome()).isEqualTo(Path.of("/cfg/codex"));
    assertThat(roots.geminiHome()).isEqualTo(Path.of("/cfg/gemini-home/.gemini"));
    assertThat(
            TranscriptRoots.fromEnvironment(Map.of("XDG_DATA_HOME", "/cfg/data"), HOME)
                .opencodeDatabase())
        .isEqualTo(Path.of("/cfg/data/opencode/opencode.db"));
  }

  @Test
  void blankVariablesCountAsUnset() {
    TranscriptRoots roots =
        TranscriptRoots.fromEnvironment(
            Map.of("CLAUDE_CONFIG_DIR", " ", "CODEX_HOME", "", "GEMINI_CLI_HOME", ""), HOME);

    assertThat(roots).isEqualTo(TranscriptRoots.fromEnvironment(Map.of(), HOME));
  }

  @Test
  void aSessionsOwnVariablesWinOverTheEngines() {
    TranscriptRoots engine =
        TranscriptRoots.fromEnvironment(Map.of("CODEX_HOME", "/e/codex"), HOME);

    TranscriptRoots session =
        engine.forSession(
            Map.of(
                "HOME", "/home/pane",
                "CLAUDE_CONFIG_DIR", "/pane/claude",
                "GEMINI_CLI_HOME", "/pane/gemini-home"));

    assertThat(session.claudeConfigDir()).isEqualTo(Path.of("/pane/claude"));
    // The session's environment is the whole of it: CODEX_HOME unset there means its own HOME.
    assertThat(session.codexHome()).isEqualTo(Path.of("/home/pane/.codex"));
    assertThat(session.geminiHome()).isEqualTo(Path.of("/pane/gemini-home/.gemini"));
  }

  @Test
  void aSessionWithoutHomeKeepsTheEnginesRootsForWhatItDoesNotSet() {
    TranscriptRoots engine = TranscriptRoots.fromEnvironment(Map.of(), HOME);

    TranscriptRoots session = engine.forSession(Map.of("CODEX_HOME", "/pane/codex"));

    assertThat(session)
        .isEqualTo(
            new TranscriptRoots(
                HOME.resolve(".claude"),
                Path.of("/pane/codex"),
                HOME.resolve(".gemini"),
                HOME.resolve(".qwen"),
                HOME.resolve(".copilot"),
                HOME.resolve(".pi/agent"),
                HOME.resolve(".local/share/opencode/opencode.db")));
    assertThat(engine.forSession(Map.of())).isEqualTo(engine);
  }

  @Test
  void aRequestWithTheSessionsEnvironmentIsLookedUpThere(@TempDir Path dir) throws Exception {
    String id = "5f0c9a2e-1111-4c3b-9d1e-222233334444";
    Lines.write(
        dir.resolve("pane-claude/projects/-home-dev-project/" + id + ".jsonl"),
        List.of(Lines.claudeUser("written where the pane said")));
    Transcripts transcripts = new Transcripts(TestRoots.under(dir.resolve("engine-home")));
    Path cwd = Path.of("/home/dev/project");

    assertThat(transcripts.turns(new TranscriptRequest("claude", id, null, cwd, null))).isEmpty();
    assertThat(
            transcripts.turns(
                new TranscriptRequest(
                    "claude",
                    id,
                    null,
                    cwd,
                    null,
                    Map.of("CLAUDE_CONFIG_DIR", dir.resolve("pane-claude").toString()))))
        .containsExactly(new Turn("user", "written where the pane said"));
  }
}
