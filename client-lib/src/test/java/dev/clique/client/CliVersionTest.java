package dev.clique.client;

import static dev.clique.client.Fixtures.CLAUDE_ID;
import static dev.clique.client.Fixtures.SHELL_ID;
import static dev.clique.client.Fixtures.contract;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The version of the program in a session's pane, as the engine sends it. */
class CliVersionTest {

  @Test
  void aLiveSessionSaysItsVersionAndAStoppedOneNone() {
    EngineState state = EngineState.fromJson(contract("state.json"));
    assertThat(state.session(CLAUDE_ID).orElseThrow().cliVersion()).hasValue("2.1.328");
    assertThat(state.session(SHELL_ID).orElseThrow().cliVersion()).isEmpty();
    assertThat(Session.fromJson(contract("session-codex.json")).cliVersion()).hasValue("0.169.0");
  }

  @Test
  void anEngineThatDoesNotSayLeavesItEmpty() {
    // A CLIque panel sends no cli_version.
    assertThat(Session.fromJson("{\"id\": \"s\", \"state\": \"idle\"}").cliVersion()).isEmpty();
  }

  @Test
  void aVersionThatIsNoStringIsAMalformedAnswerNamingTheSession() {
    assertThatThrownBy(() -> Session.fromJson("{\"id\": \"s\", \"cli_version\": 2}"))
        .hasMessageContaining("cli_version")
        .hasMessageContaining("session s");
  }
}
