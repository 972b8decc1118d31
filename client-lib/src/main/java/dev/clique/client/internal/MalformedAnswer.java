package dev.clique.client.internal;

/** An engine answer that is JSON, but not the JSON its route answers with. */
final class MalformedAnswer extends Exception {
  private static final long serialVersionUID = 1L;

  MalformedAnswer(String detail) {
    super(detail);
  }

  MalformedAnswer(String detail, Throwable cause) {
    super(detail, cause);
  }
}
