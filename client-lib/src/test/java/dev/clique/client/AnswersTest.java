package dev.clique.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clique.client.internal.JsonText;
import dev.clique.client.internal.MalformedAnswer;
import org.junit.jupiter.api.Test;

/** What an answer must have, and what it may leave out. */
class AnswersTest {
  private static JsonText json(String text) throws Exception {
    return JsonText.read(text);
  }

  @Test
  void aStateWithoutSessionsIsMalformed() {
    assertThatThrownBy(() -> Answers.READER.state(json("{\"version\": \"1\"}")))
        .isInstanceOf(MalformedAnswer.class)
        .hasMessage("\"sessions\" is missing in the answer");
  }

  @Test
  void aSessionWithoutAnIdIsMalformed() {
    assertThatThrownBy(() -> Answers.READER.state(json("{\"sessions\": [{\"name\": \"x\"}]}")))
        .isInstanceOf(MalformedAnswer.class)
        .hasMessage("\"id\" is missing in a session");
    assertThatThrownBy(() -> Answers.READER.state(json("{\"sessions\": [{\"id\": \" \"}]}")))
        .hasMessage("a session has a blank \"id\"");
    assertThatThrownBy(() -> Answers.READER.state(json("{\"sessions\": [7]}")))
        .hasMessage("a session is not a JSON object");
  }

  @Test
  void aKeyOfTheWrongTypeIsMalformedAndNamed() {
    assertThatThrownBy(
            () -> Answers.READER.state(json("{\"sessions\": [{\"id\": \"a\", \"alive\": 1}]}")))
        .hasMessage("\"alive\" is not true or false in session a");
    assertThatThrownBy(
            () ->
                Answers.READER.state(
                    json("{\"sessions\": [{\"id\": \"a\", \"created\": \"today\"}]}")))
        .hasMessage("\"created\" is not a number in session a");
    assertThatThrownBy(() -> Answers.READER.pane(json("{\"lines\": [\"a\", 2]}")))
        .hasMessage("\"lines\" holds something that is not a string");
    assertThatThrownBy(
            () -> Answers.READER.conversation(json("{\"turns\": [{\"role\": \"user\"}]}")))
        .hasMessage("\"text\" is missing in a turn");
  }

  @Test
  void aWaitMustSayItsStateAndWhetherItMatched() throws Exception {
    assertThatThrownBy(() -> Answers.READER.waitResult(json("{\"matched\": true}"), "a"))
        .hasMessage("\"state\" is missing in the answer");
    assertThatThrownBy(() -> Answers.READER.waitResult(json("{\"state\": \"idle\"}"), "a"))
        .hasMessage("\"matched\" is missing in the answer");
    assertThat(
            Answers.READER.waitResult(json("{\"state\": \"idle\", \"matched\": true}"), "a").id())
        .isEqualTo("a");
    assertThat(
            Answers.READER
                .waitResult(json("{\"state\": \"idle\", \"matched\": true}"), "a")
                .state())
        .isEqualTo(SessionState.IDLE);
  }

  @Test
  void healthMustSayOk() {
    assertThatThrownBy(() -> Answers.READER.health(json("{\"version\": \"1\"}")))
        .hasMessage("\"ok\" is missing in the answer");
  }
}
