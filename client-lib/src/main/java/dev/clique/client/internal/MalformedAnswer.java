package dev.clique.client.internal;

/** An engine answer that is JSON, but not the JSON its route answers with. */
public final class MalformedAnswer extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * Says what is wrong.
   *
   * @param detail e.g. {@code "sessions" is missing in the answer}
   */
  public MalformedAnswer(String detail) {
    super(detail);
  }

  /**
   * Says what is wrong, and why.
   *
   * @param detail what is wrong
   * @param cause why
   */
  public MalformedAnswer(String detail, Throwable cause) {
    super(detail, cause);
  }
}
