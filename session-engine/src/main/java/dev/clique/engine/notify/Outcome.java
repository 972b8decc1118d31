package dev.clique.engine.notify;

/** What one try to deliver a notice came to. */
record Outcome(Kind kind, String said) {
  enum Kind {
    DELIVERED,
    /** A time-out, a connection refused, a 5xx: tried again after a pause. */
    RETRY,
    /** A 4xx, a command that failed: trying again would fail the same way. */
    FAILED
  }

  static Outcome delivered(String said) {
    return new Outcome(Kind.DELIVERED, said);
  }

  static Outcome retry(String said) {
    return new Outcome(Kind.RETRY, said);
  }

  static Outcome failed(String said) {
    return new Outcome(Kind.FAILED, said);
  }
}
