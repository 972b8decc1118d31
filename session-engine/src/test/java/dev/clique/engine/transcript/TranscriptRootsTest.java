package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TranscriptRootsTest {

  private static final Path HOME = Path.of("/home/dev");

  @Test
  void withoutVariablesEachCliUsesItsDotDirectoryInTheHome() {
    TranscriptRoots roots = TranscriptRoots.fromEnvironment(Map.of(), HOME);

    assertThat(roots)
        .isEqualTo(
            new TranscriptRoots(
                HOME.resolve(".claude"), HOME.resolve(".codex"), HOME.resolve(".gemini")));
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
  }

  @Test
  void blankVariablesCountAsUnset() {
    TranscriptRoots roots =
        TranscriptRoots.fromEnvironment(
            Map.of("CLAUDE_CONFIG_DIR", " ", "CODEX_HOME", "", "GEMINI_CLI_HOME", ""), HOME);

    assertThat(roots).isEqualTo(TranscriptRoots.fromEnvironment(Map.of(), HOME));
  }
}
