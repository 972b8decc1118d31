package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;

/**
 * One CLI's records of what its requests used: which lines hold them, and a running tally that
 * takes the lines of one file in order, as they are appended. Readers are stateless; each file has
 * its own tally.
 */
interface UsageReader {

  /** The kind of file, as {@code source} names it: {@code "claude transcript"}, ... */
  String source();

  /** The fields of a line that a tally looks at; the parser skips the rest. */
  Fields fields();

  /**
   * Whether the line on {@code bytes[start, end)} may hold usage; a line that cannot is skipped
   * without being parsed. Never false for a line that does.
   */
  boolean mayMatter(byte[] bytes, int start, int end);

  /** A tally of a file read from its start (or, for a huge file, from a line near its end). */
  Tally tally();

  /**
   * The files where the sub-agents of the session whose transcript is {@code sessionFile} record
   * their own requests, billed to the session: their sums count to its usage. None for a CLI whose
   * sub-agents write into the session's own file, or that has none.
   */
  default SubagentFiles subagentFiles(Path sessionFile) throws IOException {
    return SubagentFiles.NONE;
  }

  /** The usage of the lines of one file so far. Not thread-safe: its file reads one at a time. */
  interface Tally {

    /** Takes the next line that parsed as a JSON object. */
    void add(JsonNode line);

    /** What the lines taken so far say. */
    UsageReport report(boolean partial);
  }
}
