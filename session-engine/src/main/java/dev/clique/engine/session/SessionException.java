package dev.clique.engine.session;

/** A session request that cannot be done, with the reason in words and its kind. */
public final class SessionException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Why it failed, which the API turns into a status. */
  public enum Kind {
    BAD_REQUEST,
    NOT_FOUND,
    /** The session may not be operated (a discovered one, read-only until adopted). */
    FORBIDDEN,
    FAILED
  }

  private final Kind kind;

  public SessionException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public SessionException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  /** The client's mistake, said in {@code message}. */
  static SessionException badRequest(String message) {
    return new SessionException(Kind.BAD_REQUEST, message);
  }

  public Kind kind() {
    return kind;
  }
}
