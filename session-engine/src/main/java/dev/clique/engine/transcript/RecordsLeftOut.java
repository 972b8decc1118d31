package dev.clique.engine.transcript;

import java.util.ArrayList;
import java.util.List;

/**
 * The usage records a tally left out of its sums, by what was wrong with each, as {@code
 * usage.source} says them: a sum that silently took a bad count would be a wrong figure nobody can
 * question, and one that silently dropped a record would be a low one.
 *
 * @param cut lines that may hold usage but are not one whole JSON object (cut in the middle)
 * @param missing records without a count their CLI always writes
 * @param notANumber records with a count that is not a whole number
 * @param negative records with a count below 0
 * @param absurd records with a count over {@link Counts#MOST}
 */
record RecordsLeftOut(long cut, long missing, long notANumber, long negative, long absurd) {

  static final RecordsLeftOut NONE = new RecordsLeftOut(0, 0, 0, 0, 0);

  /** What can be wrong with a record, worded as {@code usage.source} says it. */
  enum Why {
    CUT("cut short"),
    MISSING("missing a count"),
    NOT_A_NUMBER("with a count that is not a whole number"),
    NEGATIVE("with a negative count"),
    ABSURD("with a count over 10^12");

    private final String words;

    Why(String words) {
      this.words = words;
    }
  }

  /** These and one more record left out for {@code why}. */
  RecordsLeftOut plus(Why why) {
    return new RecordsLeftOut(
        cut + (why == Why.CUT ? 1 : 0),
        missing + (why == Why.MISSING ? 1 : 0),
        notANumber + (why == Why.NOT_A_NUMBER ? 1 : 0),
        negative + (why == Why.NEGATIVE ? 1 : 0),
        absurd + (why == Why.ABSURD ? 1 : 0));
  }

  RecordsLeftOut plus(RecordsLeftOut other) {
    return new RecordsLeftOut(
        cut + other.cut,
        missing + other.missing,
        notANumber + other.notANumber,
        negative + other.negative,
        absurd + other.absurd);
  }

  boolean none() {
    return equals(NONE);
  }

  /**
   * The {@code source} of sums read from a file of {@code kind}: the kind alone when nothing was
   * left out, else e.g. {@code "claude transcript; left out: 1 record cut short, 2 records with a
   * negative count"}.
   */
  String describe(String kind) {
    if (none()) {
      return kind;
    }
    long[] counts = {cut, missing, notANumber, negative, absurd};
    List<String> parts = new ArrayList<>();
    for (Why why : Why.values()) {
      long count = counts[why.ordinal()];
      if (count > 0) {
        parts.add(count + (count == 1 ? " record " : " records ") + why.words);
      }
    }
    return kind + "; left out: " + String.join(", ", parts);
  }
}
