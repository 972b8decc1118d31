package dev.clique.engine.tmux;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ControlNoticeTest {

  @Test
  void theNotificationsTheStampTellsApartAreTyped() {
    assertThat(ControlNotice.of("%sessions-changed"))
        .isEqualTo(new ControlNotice.SessionsChanged());
    assertThat(ControlNotice.of("%session-closed $3"))
        .isEqualTo(new ControlNotice.SessionClosed("$3"));
    assertThat(ControlNotice.of("%exit")).isEqualTo(new ControlNotice.Exit(""));
    assertThat(ControlNotice.of("%exit server exited"))
        .isEqualTo(new ControlNotice.Exit("server exited"));
  }

  @Test
  void anyOtherNotificationIsKeptAsTmuxWroteIt() {
    assertThat(ControlNotice.of("%window-add @4"))
        .isEqualTo(new ControlNotice.Other("%window-add @4"));
    assertThat(ControlNotice.of("%sessions-changed-soon"))
        .isEqualTo(new ControlNotice.Other("%sessions-changed-soon"));
  }
}
