package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;

/**
 * The counts of one CLI's usage record, and the check every such record passes before a tally takes
 * it: each count the CLI always writes must be there, and each count it names must be a whole
 * number from 0 to {@link #MOST}. A record that fails is left out whole, not summed in part: a
 * record is one request, and half of one would be a figure nobody recorded.
 */
final class Counts {

  /** The largest count taken: more tokens than any session could use is a broken record. */
  static final long MOST = 1_000_000_000_000L;

  private final String[][] required;
  private final String[][] optional;

  private Counts(String[][] required, String[][] optional) {
    this.required = required;
    this.optional = optional;
  }

  /** The counts every record holds, as paths under the record's usage object ({@code a.b}). */
  static Counts required(String... paths) {
    return new Counts(split(paths), new String[0][]);
  }

  /** These counts, and {@code paths} that a record may hold or leave out ({@code null} too). */
  Counts optional(String... paths) {
    return new Counts(required, split(paths));
  }

  /** What is wrong with the counts under {@code usage}, or {@code null} when all can be summed. */
  RecordsLeftOut.Why fault(JsonNode usage) {
    if (usage == null || !usage.isObject()) {
      return RecordsLeftOut.Why.MISSING;
    }
    for (String[] path : required) {
      JsonNode value = at(usage, path);
      if (value == null || value.isNull()) {
        return RecordsLeftOut.Why.MISSING;
      }
      RecordsLeftOut.Why fault = faultOf(value);
      if (fault != null) {
        return fault;
      }
    }
    for (String[] path : optional) {
      JsonNode value = at(usage, path);
      RecordsLeftOut.Why fault = value == null || value.isNull() ? null : faultOf(value);
      if (fault != null) {
        return fault;
      }
    }
    return null;
  }

  /** What is wrong with one count that is there, or {@code null}. */
  private static RecordsLeftOut.Why faultOf(JsonNode count) {
    if (!count.isNumber()
        || (count.isFloatingPointNumber() && count.doubleValue() != Math.rint(count.doubleValue()))
        || Double.isInfinite(count.doubleValue())) {
      return RecordsLeftOut.Why.NOT_A_NUMBER;
    }
    if (count.doubleValue() < 0) {
      return RecordsLeftOut.Why.NEGATIVE;
    }
    return count.doubleValue() > MOST ? RecordsLeftOut.Why.ABSURD : null;
  }

  private static JsonNode at(JsonNode usage, String[] path) {
    JsonNode node = usage;
    for (String name : path) {
      node = node.get(name);
      if (node == null) {
        return null;
      }
    }
    return node;
  }

  private static String[][] split(String[] paths) {
    return Arrays.stream(paths).map(path -> path.split("\\.")).toArray(String[][]::new);
  }
}
