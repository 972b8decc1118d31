package dev.clique.engine.transcript;

import java.nio.file.Path;

/**
 * A CLI's record of a conversation that is there but cannot be read as this engine knows it: of a
 * newer format than the reader knows, without the header its CLI writes first, caught half-written,
 * or holding a prompt or an answer whose content its reader does not know. Its message names the
 * file (and the CLI's version and the record's line where known), and the conversation is an error
 * rather than a turn list that may be wrong.
 */
public final class UnreadableTranscriptException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;

  UnreadableTranscriptException(Path file, String why) {
    super(file + ": " + why);
    this.file = file;
  }

  UnreadableTranscriptException(String message) {
    super(message);
    this.file = null;
  }

  /** The transcript file; null when only the message names it. */
  public Path file() {
    return file;
  }
}
