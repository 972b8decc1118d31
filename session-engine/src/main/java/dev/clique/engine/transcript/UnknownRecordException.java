package dev.clique.engine.transcript;

/**
 * Thrown by a {@link TranscriptReader} for a record it knows to be part of the conversation (a
 * prompt or an answer, by its type or role) but whose content is of a kind it does not know: left
 * out, the turns would be wrong, so the transcript is an {@link UnreadableTranscriptException}
 * instead. The tail window adds where in the file the record is.
 */
final class UnknownRecordException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String record;
  private final String unknown;
  private final String version;
  private long offset = -1;

  /**
   * @param record what the record is, as its CLI names it ({@code a "user" record})
   * @param unknown what in it this engine does not know ({@code a content block of type "x"})
   * @param version the version of the CLI the record says wrote it, or {@code null}
   */
  UnknownRecordException(String record, String unknown, String version) {
    super(record + " holds " + unknown, null, false, false);
    this.record = record;
    this.unknown = unknown;
    this.version = version;
  }

  String record() {
    return record;
  }

  String unknown() {
    return unknown;
  }

  /** The CLI version the record itself names, or {@code null}. */
  String version() {
    return version;
  }

  /** Where the record's line starts in the file; -1 when not known (a whole-document file). */
  long offset() {
    return offset;
  }

  /** Places the record at the line starting at {@code lineStart}; the first place given stays. */
  UnknownRecordException at(long lineStart) {
    if (offset < 0) {
      offset = lineStart;
    }
    return this;
  }
}
