package dev.clique.engine.transcript;

import java.nio.file.Path;

/**
 * A session's transcript that is there but cannot be read right: of a newer format than the reader
 * knows, or without the header its CLI writes first. The conversation is then an error naming the
 * file, never a turn list that may be wrong.
 */
public final class UnreadableTranscriptException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;

  UnreadableTranscriptException(Path file, String why) {
    super(file + ": " + why);
    this.file = file;
  }

  /** The transcript file. */
  public Path file() {
    return file;
  }
}
