package dev.clique.engine.transcript;

import java.nio.file.Path;

/**
 * A CLI's record of a conversation that is there but cannot be read as this engine knows it: of a
 * newer format than the reader knows, without the header its CLI writes first, or caught
 * half-written. Its message names the file (and the CLI's version where known), and the
 * conversation is an error rather than a turn list that may be wrong.
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
