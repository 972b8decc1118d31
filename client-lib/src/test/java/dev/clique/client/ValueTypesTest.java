package dev.clique.client;

import static dev.clique.client.Fixtures.CLAUDE_ID;
import static dev.clique.client.Fixtures.contract;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The values can gain fields: no public constructor freezes them, and a test makes them from JSON.
 */
class ValueTypesTest {
  private static final List<Class<?>> VALUES =
      List.of(
          Session.class,
          EngineState.class,
          Cli.class,
          Pane.class,
          WaitResult.class,
          Conversation.class,
          Turn.class,
          Health.class,
          Usage.class,
          Limits.class,
          Limits.Window.class);

  @Test
  void noValueHasAPublicConstructorOrIsARecord() {
    for (Class<?> type : VALUES) {
      assertThat(type.isRecord()).as(type.getSimpleName()).isFalse();
      assertThat(Modifier.isFinal(type.getModifiers())).as(type.getSimpleName()).isTrue();
      for (Constructor<?> constructor : type.getDeclaredConstructors()) {
        assertThat(
                Modifier.isPublic(constructor.getModifiers())
                    || Modifier.isProtected(constructor.getModifiers()))
            .as(constructor.toString())
            .isFalse();
      }
    }
  }

  @Test
  void fromJsonReadsAnAnswerAsTheClientDoes() {
    EngineState state = EngineState.fromJson(contract("state.json"));
    assertThat(state.sessions()).hasSize(2);
    Session claude = state.session(CLAUDE_ID).orElseThrow();
    assertThat(Session.fromJson(claude.json())).isEqualTo(claude);
    assertThat(Pane.fromJson(contract("peek.json")).lines()).isNotEmpty();
    WaitResult w = WaitResult.fromJson(contract("wait-matched.json"));
    assertThat(w.id()).isEqualTo(CLAUDE_ID);
    assertThat(w.state()).isEqualTo(SessionState.WAITING);
    assertThat(WaitResult.fromJson("{\"state\": \"idle\", \"matched\": false}").id()).isEmpty();
    assertThat(Conversation.fromJson(contract("transcript.json")).turns()).isNotEmpty();
    assertThat(Health.fromJson(contract("healthz.json")).detailed()).isTrue();
  }

  @Test
  void equalAnswersMakeEqualValues() {
    EngineState one = EngineState.fromJson(contract("state.json"));
    EngineState two = EngineState.fromJson(contract("state.json"));
    assertThat(one).isEqualTo(two).hasSameHashCodeAs(two);
    assertThat(one.sessions()).isEqualTo(two.sessions());
    assertThat(one.sessions().get(0)).isNotEqualTo(one.sessions().get(1));
    assertThat(one.toString()).startsWith("EngineState[version=");
    assertThat(one.sessions().get(0).toString()).startsWith("Session[id=" + CLAUDE_ID);
  }

  @Test
  void fromJsonRefusesWhatIsNotThatAnswer() {
    assertThatThrownBy(() -> Pane.fromJson("not json"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("not JSON");
    assertThatThrownBy(() -> Pane.fromJson(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("not JSON: the text is empty");
    assertThatThrownBy(() -> EngineState.fromJson("{\"version\": \"1\"}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("\"sessions\" is missing in the answer");
    assertThatThrownBy(() -> Health.fromJson("[]"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the answer is not a JSON object");
  }
}
