package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;

/**
 * One CLI's records of what its requests used: which lines hold them, and a running tally that
 * takes the lines of one file in order, as they are appended. Readers are stateless; each file has
 * its own tally.
 */
abstract class UsageReader {

  private final String source;
  private final Fields fields;
  private final RawJson.StringField[] markers;

  /**
   * @param source the kind of file, as {@code source} names it: {@code "claude transcript"}, ...
   * @param fields the fields of a line that a tally looks at; the parser skips the rest
   * @param markers the fields of which a line that holds usage has one; the others are skipped
   *     without being parsed
   */
  UsageReader(String source, Fields fields, RawJson.StringField... markers) {
    this.source = source;
    this.fields = fields;
    this.markers = markers.clone();
  }

  /** The kind of file, as {@code source} names it: {@code "claude transcript"}, ... */
  final String source() {
    return source;
  }

  /** The fields of a line that a tally looks at; the parser skips the rest. */
  final Fields fields() {
    return fields;
  }

  /**
   * Whether the line on {@code bytes[start, end)} may hold usage; a line that cannot is skipped
   * without being parsed. Never false for a line that does.
   */
  final boolean mayMatter(byte[] bytes, int start, int end) {
    for (RawJson.StringField marker : markers) {
      if (marker.in(bytes, start, end)) {
        return true;
      }
    }
    return false;
  }

  /** A tally of a file read from its start (or, for a huge file, from a line near its end). */
  abstract Tally tally();

  /**
   * The files where the sub-agents of the session whose transcript is {@code sessionFile} record
   * their own requests, billed to the session: their sums count to its usage. None for a CLI whose
   * sub-agents write into the session's own file, or that has none.
   */
  SubagentFiles subagentFiles(Path sessionFile) throws IOException {
    return SubagentFiles.NONE;
  }

  /** The usage of the lines of one file so far. Not thread-safe: its file reads one at a time. */
  interface Tally {

    /** Takes the next line that parsed as a JSON object. */
    void add(JsonNode line);

    /** A line that may hold usage but is not one JSON object, or a record that cannot be summed. */
    void leftOut(RecordsLeftOut.Why why);

    /** What the lines taken so far say. */
    UsageReport report(boolean partial);
  }
}
