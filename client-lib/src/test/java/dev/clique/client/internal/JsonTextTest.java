package dev.clique.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Each object of an answer keeps the text the engine sent for it. */
class JsonTextTest {
  @Test
  void eachObjectKeepsItsOwnText() throws Exception {
    String sent =
        " {\"rows\": [ {\"id\": \"a\", \"say\": \"caf\\u00e9 \\\"}\\\" 🙂\", \"n\": {\"x\": 1.50}} ,"
            + "{\"id\":\"b\"}\n], \"t\": 1767171234.80}\n";
    JsonText answer = JsonText.read(sent);

    assertThat(answer.textOf(answer.tree())).isEqualTo(sent.strip());
    assertThat(answer.textOf(answer.tree().get("rows").get(0)))
        .isEqualTo("{\"id\": \"a\", \"say\": \"caf\\u00e9 \\\"}\\\" 🙂\", \"n\": {\"x\": 1.50}}");
    assertThat(answer.textOf(answer.tree().get("rows").get(0).get("n"))).isEqualTo("{\"x\": 1.50}");
    assertThat(answer.textOf(answer.tree().get("rows").get(1))).isEqualTo("{\"id\":\"b\"}");
    assertThatThrownBy(() -> answer.textOf(answer.tree().get("rows")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
