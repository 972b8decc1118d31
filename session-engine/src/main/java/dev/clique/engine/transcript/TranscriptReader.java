package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.function.Predicate;

/**
 * One CLI's transcript format: what a line contributes, and how the contributions of the lines in
 * the tail window become turns. Implementations are stateless and thread-safe.
 */
interface TranscriptReader {

  /** The CLI that writes this format, as a person knows it ({@code Claude Code}). */
  String cli();

  /** The fields of a line that {@link #entry} looks at; the parser skips the rest. */
  Fields fields();

  /**
   * The entries of one line that parsed as a JSON object, in order; empty when it shows nothing.
   *
   * @throws UnknownRecordException when the line is a prompt or an answer whose content is of a
   *     kind this reader does not know, so that leaving it out would make the turns wrong
   */
  List<Entry> entries(JsonNode line);

  /**
   * JSON pointers into a file's first line to the version of the CLI that wrote it ({@code
   * /payload/cli_version}), for formats whose records do not each say; named in the error of a
   * record this reader does not know.
   */
  default List<String> versionInHead() {
    return List.of();
  }

  /**
   * Whether the line on {@code bytes[start, end)} may contribute an entry; a line that cannot is
   * skipped without being parsed. Never false for a line that contributes.
   */
  default boolean mayMatter(byte[] bytes, int start, int end) {
    return true;
  }

  /** The turns of the entries read, oldest first, merged; all of them, not yet cut to the last. */
  TurnList turns(List<Entry> entries);

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
