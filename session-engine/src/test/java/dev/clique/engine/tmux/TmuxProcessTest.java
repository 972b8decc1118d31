package dev.clique.engine.tmux;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TmuxProcessTest {
  private static final String F = "\u001f";

  @Test
  void listPanesRowsBecomePanesTheFirstPaneOfASessionSpeaking() {
    String listing =
        String.join(
                F,
                "abc",
                "bash",
                "1700000000",
                "200",
                "50",
                "1",
                "42",
                "0",
                "7",
                "3",
                "4",
                "title " + F + " with separator")
            + "\n"
            + String.join(F, "abc", "vim", "1", "80", "24", "0", "43", "0", "0", "0", "0", "")
            + "\n"
            + "garbage\n";
    assertThat(TmuxProcess.parsePanes(listing))
        .containsExactly(
            new PaneInfo(
                "abc",
                "bash",
                1_700_000_000L,
                200,
                50,
                true,
                42,
                false,
                7,
                3,
                4,
                "title " + F + " with separator"));
  }

  @Test
  void anArgumentEndingInASemicolonStaysTextForTmux() {
    assertThat(TmuxProcess.escape("ls;")).isEqualTo("ls\\;");
    assertThat(TmuxProcess.escape(";")).isEqualTo("\\;");
    assertThat(TmuxProcess.escape("a ; b")).isEqualTo("a ; b");
  }

  @Test
  void theOutputMarkIsWhatOutputChanges() {
    PaneInfo pane = PaneInfo.of("s", "bash", 10, 1);
    assertThat(pane.mark()).isEqualTo(PaneInfo.of("s", "vim", 10, 2).mark());
    assertThat(pane.mark()).isNotEqualTo(PaneInfo.of("s", "bash", 11, 1).mark());
  }
}
