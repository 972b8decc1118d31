package dev.clique.engine.transcript;

/**
 * A CLI's record of a conversation that is there but cannot be read as this engine knows it
 * (written by a newer version, or caught half-written): its message names the file and the CLI's
 * version, and the conversation is an error rather than a wrong list of turns.
 */
public final class UnreadableTranscriptException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  UnreadableTranscriptException(String message) {
    super(message);
  }
}
