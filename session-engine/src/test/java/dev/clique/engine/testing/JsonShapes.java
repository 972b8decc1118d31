package dev.clique.engine.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;

/**
 * Compares the shape of two JSON documents: the same keys, and for each key the same kind of value
 * (a number, a string, a boolean, an object, an array; null stands in for a missing string).
 */
public final class JsonShapes {
  /**
   * Keys only a CLIque panel sends in a session row: the contract shows them so that clients learn
   * to ignore them.
   */
  public static final Set<String> PANEL_ONLY = Set.of("color", "icon", "mode_seq", "worktree");

  private JsonShapes() {}

  public static void assertSameShape(String where, JsonNode expected, JsonNode actual) {
    if (expected.isNull() || actual.isNull()) {
      assertThat(expected.isNull() || expected.isTextual() || expected.isNumber())
          .as(where + ": null may only stand for a string or number, contract has " + expected)
          .isTrue();
      assertThat(actual.isNull() || actual.isTextual() || actual.isNumber())
          .as(where + ": null may only stand for a string or number, engine has " + actual)
          .isTrue();
      return;
    }
    assertThat(kind(actual)).as(where + " kind of " + actual).isEqualTo(kind(expected));
    if (expected.isObject()) {
      Set<String> wanted = keys(expected);
      if (where.contains("sessions[")) {
        wanted.removeAll(PANEL_ONLY);
      }
      Set<String> got = keys(actual);
      assertThat(got).as(where + " keys").isEqualTo(wanted);
      for (String key : wanted) {
        assertSameShape(where + "." + key, expected.get(key), actual.get(key));
      }
    } else if (expected.isArray() && expected.size() > 0 && actual.size() > 0) {
      assertSameShape(where + "[0]", expected.get(0), actual.get(0));
    }
  }

  private static String kind(JsonNode node) {
    if (node.isNumber()) {
      return "number";
    }
    return node.getNodeType().name();
  }

  private static Set<String> keys(JsonNode node) {
    Set<String> keys = new TreeSet<>();
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      keys.add(it.next());
    }
    return keys;
  }
}
