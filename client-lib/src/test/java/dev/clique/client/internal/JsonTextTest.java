package dev.clique.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
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
    assertThat(answer.textOf(answer.tree().get("rows").get(1))).isEqualTo("{\"id\":\"b\"}");
    assertThatThrownBy(() -> answer.textOf(answer.tree().get("rows")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theTextIsKeptTwoLevelsDownAndNoDeeper() throws Exception {
    String sent = "{\"u\": {\"v\": {\"w\": {}}}, \"rows\": [{\"n\": {\"x\": 1}}]}";
    JsonText answer = JsonText.read(sent);
    JsonNode tree = answer.tree();

    assertThat(answer.textOf(tree.get("u"))).isEqualTo("{\"v\": {\"w\": {}}}");
    assertThat(answer.textOf(tree.get("u").get("v"))).isEqualTo("{\"w\": {}}");
    assertThat(answer.textOf(tree.get("rows").get(0))).isEqualTo("{\"n\": {\"x\": 1}}");
    // A row's own objects (a session's usage) are read in every row and never asked for.
    assertThatThrownBy(() -> answer.textOf(tree.get("u").get("v").get("w")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> answer.textOf(tree.get("rows").get(0).get("n")))
        .isInstanceOf(IllegalArgumentException.class);
    JsonText made = JsonText.of(tree);
    assertThat(made.textOf(tree.get("u").get("v"))).isEqualTo("{\"w\":{}}");
    assertThatThrownBy(() -> made.textOf(tree.get("rows").get(0).get("n")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aTreeMadeHereHasTheTextAndSpansItsTextReadBackWouldHave() throws Exception {
    // Long enough that the generator hands its buffer to the writer more than once.
    String tail = "x".repeat(9_000);
    String sent =
        "{\"rows\":[{\"id\":\"a\",\"say\":\"caf\u00e9 \\\"}\\\" \\n🙂\",\"n\":{\"x\":1.50,\"e\":{}}},"
            + "{\"id\":\"b\",\"long\":\""
            + tail
            + "\",\"list\":[{\"k\":null},[],true,-7,12345678901234567890]}],"
            + "\"t\":1767171234.80}";
    JsonText read = JsonText.read(sent);

    JsonText made = JsonText.of(read.tree());

    assertThat(made.tree()).isSameAs(read.tree());
    assertThat(made.textOf(made.tree())).isEqualTo(sent);
    JsonNode rows = made.tree().get("rows");
    for (JsonNode object : List.of(rows.get(0), rows.get(1))) {
      assertThat(made.textOf(object)).isEqualTo(read.textOf(object));
    }
    assertThatThrownBy(() -> made.textOf(rows)).isInstanceOf(IllegalArgumentException.class);
  }
}
