package dev.clique.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.state.StateSource;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The evidence of a state says when the screen was read with patterns proven on another version.
 */
class SessionViewsTest {
  private static final Optional<CliDefinition> CLAUDE =
      CliCatalogue.load(null, "", Path.of("/nonexistent")).find("claude");

  @Test
  void aScreenOfAVersionThePatternsWereNotProvenOnSaysSo() {
    StateSource screen = new StateSource(StateSource.PANE, "Do you want to proceed?");
    String proven = CLAUDE.orElseThrow().proven().get(0);

    assertThat(SessionViews.evidence(screen, CLAUDE, "99.0.0"))
        .isEqualTo(
            "Do you want to proceed? (patterns proven on Claude Code "
                + proven
                + "; this is 99.0.0)");
    assertThat(SessionViews.evidence(screen, CLAUDE, proven)).isEqualTo("Do you want to proceed?");
    assertThat(SessionViews.evidence(screen, CLAUDE, null)).isEqualTo("Do you want to proceed?");
  }

  @Test
  void theCliqueOwnSignalsAndACliWithoutProvenVersionsNeedNoWord() {
    StateSource hook = new StateSource(StateSource.HOOK, "Stop");
    assertThat(SessionViews.evidence(hook, CLAUDE, "99.0.0")).isEqualTo("Stop");
    Optional<CliDefinition> shell =
        CliCatalogue.load(null, "", Path.of("/nonexistent")).find("shell");
    StateSource prompt = new StateSource(StateSource.PANE, "$ ");
    assertThat(SessionViews.evidence(prompt, shell, "5.2.15")).isEqualTo("$ ");
  }

  @Test
  void aLongLineIsCutSoThatTheWordStaysWhole() {
    StateSource screen = new StateSource(StateSource.PANE, "x".repeat(200));
    String evidence = SessionViews.evidence(screen, CLAUDE, "99.0.0");
    assertThat(evidence).hasSizeLessThanOrEqualTo(200).endsWith("; this is 99.0.0)");
  }
}
