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
                "",
                "",
                "7",
                "3",
                "4",
                "0b1e5a7c-3d4f-4e21-9a8b-6c5d4e3f2a10",
                "title " + F + " with separator")
            + "\n"
            + String.join(
                F, "abc", "vim", "1", "80", "24", "0", "43", "0", "", "", "0", "0", "0", "", "")
            + "\n"
            + "garbage\n";
    assertThat(PaneListing.parsePanes(listing))
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
                -1,
                -1,
                7,
                3,
                4,
                "title " + F + " with separator",
                "0b1e5a7c-3d4f-4e21-9a8b-6c5d4e3f2a10"));
  }

  @Test
  void aDeadPaneSaysHowItsProcessEnded() {
    PaneInfo pane = PaneListing.parsePanes(deadPane("2", "1796140000")).get(0);
    assertThat(pane.dead()).isTrue();
    assertThat(pane.exitStatus()).isEqualTo(2);
    assertThat(pane.exitSignal()).isEqualTo(-1);

    // Reaped (a time of death) without a status: a signal ended it, its number not in the listing.
    PaneInfo killed = PaneListing.parsePanes(deadPane("", "1796140000")).get(0);
    assertThat(killed.exitStatus()).isEqualTo(-1);
    assertThat(killed.exitSignal()).isEqualTo(0);

    // Not reaped yet (no time of death): neither is known.
    PaneInfo ending = PaneListing.parsePanes(deadPane("", "")).get(0);
    assertThat(ending.exitStatus()).isEqualTo(-1);
    assertThat(ending.exitSignal()).isEqualTo(-1);
  }

  /** A listing row of a dead pane with this {@code #{pane_dead_status}} and time of death. */
  private static String deadPane(String status, String deadTime) {
    return String.join(
        F, "abc", "claude", "1", "200", "50", "0", "43", "1", status, deadTime, "9", "0", "3", "",
        "");
  }

  @Test
  void anArgumentEndingInASemicolonStaysTextForTmux() {
    assertThat(TmuxRunner.escape("ls;")).isEqualTo("ls\\;");
    assertThat(TmuxRunner.escape(";")).isEqualTo("\\;");
    assertThat(TmuxRunner.escape("a ; b")).isEqualTo("a ; b");
  }

  @Test
  void aFolderTmuxFormatsKeepsEveryHashAsText() {
    // What tmux's format expansion gives back for each is the input (checked against tmux 3.3a).
    assertThat(TmuxProcess.escapeFormat("/w/#(id)")).isEqualTo("/w/##(id)");
    assertThat(TmuxProcess.escapeFormat("/w/##{pane_pid}")).isEqualTo("/w/####{pane_pid}");
    assertThat(TmuxProcess.escapeFormat("/w/#[fg=red]")).isEqualTo("/w/#[fg=red]");
    assertThat(TmuxProcess.escapeFormat("/w/##[x]#(y)")).isEqualTo("/w/##[x]##(y)");
    assertThat(TmuxProcess.escapeFormat("/w/a#")).isEqualTo("/w/a##");
    assertThat(TmuxProcess.escapeFormat("/w/semi;")).isEqualTo("/w/semi\\;");
  }

  @Test
  void theOutputMarkIsWhatOutputChanges() {
    PaneInfo pane = PaneInfo.of("s", "bash", 10, 1);
    assertThat(pane.mark()).isEqualTo(PaneInfo.of("s", "vim", 10, 2).mark());
    assertThat(pane.mark()).isNotEqualTo(PaneInfo.of("s", "bash", 11, 1).mark());
  }
}
