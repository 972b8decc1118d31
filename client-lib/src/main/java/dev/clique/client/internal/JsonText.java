package dev.clique.client.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * One answer: its text as the engine sent it, read once into a tree, and where in the text each
 * object of the tree stands, so that a value made of a part of the answer (a session row) keeps
 * exactly the text the engine sent for it.
 */
public final class JsonText {
  private final String text;
  private final JsonNode tree;
  private final Map<JsonNode, int[]> spans;

  private JsonText(String text, JsonNode tree, Map<JsonNode, int[]> spans) {
    this.text = text;
    this.tree = tree;
    this.spans = spans;
  }

  /**
   * Reads {@code text}.
   *
   * @param text one JSON value
   * @return the answer; its {@link #tree()} is a missing node when {@code text} holds no value
   * @throws JsonProcessingException when it is not JSON, or something follows the value
   */
  public static JsonText read(String text) throws JsonProcessingException {
    Map<JsonNode, int[]> spans = new IdentityHashMap<>();
    JsonNode tree = JsonTree.read(text, spans);
    return new JsonText(text, tree, spans);
  }

  /**
   * A tree made here, with its compact text: what {@link #read} of that text would give (each
   * number the same number, if not always in the same kind of node), without writing the text only
   * to read it back.
   *
   * @param tree objects, arrays, strings, numbers, booleans and nulls; not to be changed after
   * @return the answer, whose {@link #tree()} is {@code tree} itself
   */
  public static JsonText of(JsonNode tree) {
    Map<JsonNode, int[]> spans = new IdentityHashMap<>();
    String text = JsonTree.write(tree, spans);
    return new JsonText(text, tree, spans);
  }

  /**
   * The answer, read.
   *
   * @return the tree, not to be changed
   */
  public JsonNode tree() {
    return tree;
  }

  /**
   * The text the engine sent for {@code object}: the answer, or an object at most two levels below
   * it (a value of the answer's, an element of one of its arrays: a session row).
   *
   * @param object such an object node of {@link #tree()}
   * @return its text, from its opening brace to its closing one
   * @throws IllegalArgumentException if it is not such an object of this tree
   */
  public String textOf(JsonNode object) {
    int[] span = spans.get(object);
    if (span == null) {
      throw new IllegalArgumentException("not an object of this answer");
    }
    return text.substring(span[0], span[1]);
  }
}
