package dev.clique.client;

import static dev.clique.client.Fixtures.contract;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A session that runs outside tmux, and a peek of it that is its conversation, not a screen. */
class OutsideTmuxTest {
  @Test
  void aSessionOutsideTmuxSaysSoAndTheOthersDoNot() {
    Session outside = Session.fromJson(contract("session-outside.json"));
    assertThat(outside.outsideTmux()).isTrue();
    assertThat(outside.state()).isEqualTo(SessionState.WAITING);
    assertThat(outside.json()).contains("\"tty\": \"/dev/pts/3\"");
    assertThat(Session.fromJson(contract("session-codex.json")).outsideTmux()).isFalse();
    assertThat(
            Session.fromJson(
                    "{\"id\": \"s\", \"source\": {\"socket\": \"/tmp/tmux-1000/default\","
                        + " \"session\": \"w\", \"window\": 0, \"pane\": \"%3\"}}")
                .outsideTmux())
        .isFalse();
  }

  @Test
  void aPeekOfAConversationIsNoScreenAndAnEngineThatDoesNotSayMeansAScreen() {
    Pane conversation = Pane.fromJson(contract("peek-conversation.json"));
    assertThat(conversation.screen()).isFalse();
    assertThat(conversation.lines()).startsWith("> Where is the login test?");
    assertThat(Pane.fromJson(contract("peek.json")).screen()).isTrue();
    assertThat(Pane.fromJson("{\"lines\": [], \"alive\": false}").screen()).isTrue();
  }
}
