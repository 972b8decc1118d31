package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.function.Predicate;

/**
 * One CLI's transcript format: what a line contributes, and how the contributions of the lines in
 * the tail window become turns. Implementations are stateless and thread-safe.
 */
interface TranscriptReader {

  /** The fields of a line that {@link #entry} looks at; the parser skips the rest. */
  Fields fields();

  /** The entry of one line that parsed as a JSON object, or {@code null} when it shows nothing. */
  Entry entry(JsonNode line);

  /** The turns of the window's entries, oldest first, merged, at most the last 300. */
  List<Turn> turns(List<Entry> entries);

  /**
   * The entries of a transcript written as one JSON document rather than one object per line
   * (Gemini CLI's older {@code .json} files); empty for formats that have none.
   */
  default List<Entry> documentEntries(JsonNode document) {
    return List.of();
  }

  /** The fields of a whole document that {@link #documentEntries} looks at. */
  default Fields documentFields() {
    return Fields.of("messages");
  }

  /** Joins the kept {@code text} of an array of parts, each tidied, by a blank line. */
  static String joinTexts(JsonNode parts, String partType, Predicate<String> keep) {
    StringBuilder joined = new StringBuilder();
    for (JsonNode part : parts) {
      if (partType != null && !partType.equals(part.path("type").textValue())) {
        continue;
      }
      JsonNode text = part.get("text");
      if (text == null || !text.isTextual()) {
        continue;
      }
      String tidy = TurnList.tidy(text.textValue());
      if (tidy.isEmpty() || !keep.test(tidy)) {
        continue;
      }
      if (joined.length() > 0) {
        joined.append(TurnList.SEPARATOR);
      }
      joined.append(tidy);
    }
    return joined.toString();
  }
}
