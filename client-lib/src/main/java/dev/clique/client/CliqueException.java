package dev.clique.client;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A call to the engine that did not give an answer: the engine could not be reached, refused the
 * token, answered with an error or with something that is not the expected JSON, or took too long.
 *
 * <p>{@link #kind()} says which. The message starts with a fixed sentence per kind, quotes the
 * engine's own error text when it sent one, and never contains the token:
 *
 * <ul>
 *   <li>{@link Kind#UNREACHABLE}: {@code could not reach clique at <url>: <reason>}
 *   <li>{@link Kind#UNAUTHORIZED}: {@code clique API returned 401: unauthorized ...}
 *   <li>{@link Kind#FORBIDDEN}, {@link Kind#NOT_FOUND}, {@link Kind#HTTP_ERROR}: {@code clique API
 *       returned <status>: <the engine's error>}
 *   <li>{@link Kind#BAD_RESPONSE}: {@code clique API returned an unexpected response: <detail>}
 *   <li>{@link Kind#TIMEOUT}: {@code clique API did not answer within <n> s}
 * </ul>
 *
 * <pre>{@code
 * try {
 *   client.peek(id, 20);
 * } catch (CliqueException e) {
 *   if (e.kind() == CliqueException.Kind.NOT_FOUND) {
 *     System.err.println("no such session: " + id);
 *   } else {
 *     System.err.println(e.getMessage());
 *   }
 * }
 * }</pre>
 */
public class CliqueException extends IOException {
  private static final long serialVersionUID = 1L;

  /** What went wrong, one value per cause. */
  public enum Kind {
    /** No HTTP answer: connection refused, unknown host, TLS failure, connection lost. */
    UNREACHABLE,
    /** The engine answered 401: it does not know the token. */
    UNAUTHORIZED,
    /** The engine answered 403: the token lacks the scope, or the host name is not allowed. */
    FORBIDDEN,
    /** The engine answered 404, typically {@code no such session}. */
    NOT_FOUND,
    /** The engine answered 2xx, but not with the JSON this route answers with. */
    BAD_RESPONSE,
    /** No complete answer within the time-out of the call. */
    TIMEOUT,
    /** Any other status that is not 2xx, including a redirect (redirects are not followed). */
    HTTP_ERROR
  }

  /** What went wrong. */
  private final Kind kind;

  /** The HTTP status, {@code -1} when there was no HTTP answer. */
  private final int status;

  /** The engine's {@code "error"} text, {@code null} when it sent none. */
  private final String engineError;

  /**
   * Makes an exception; the client makes these itself, fakes in tests may too.
   *
   * @param kind what went wrong
   * @param message the whole message, already free of any token
   * @param status the HTTP status, or {@code -1} when there was no HTTP answer
   * @param engineError the engine's {@code "error"} text, or {@code null} when it sent none
   * @param cause the underlying exception, or {@code null}
   */
  public CliqueException(
      Kind kind, String message, int status, String engineError, Throwable cause) {
    super(Objects.requireNonNull(message, "message"), cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.status = status < 0 ? -1 : status;
    this.engineError = engineError;
  }

  /**
   * What went wrong.
   *
   * @return the kind of failure
   */
  public Kind kind() {
    return kind;
  }

  /**
   * The HTTP status of the engine's answer.
   *
   * @return the status, or empty when there was no HTTP answer (unreachable, time-out)
   */
  public OptionalInt status() {
    return status < 0 ? OptionalInt.empty() : OptionalInt.of(status);
  }

  /**
   * The engine's own error text, the {@code "error"} value of its JSON answer, e.g. {@code "no such
   * session"}.
   *
   * @return the engine's error text, or empty when its answer carried none
   */
  public Optional<String> engineError() {
    return Optional.ofNullable(engineError);
  }
}
