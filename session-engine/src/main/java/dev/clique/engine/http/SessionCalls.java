package dev.clique.engine.http;

import dev.clique.engine.session.SessionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Calls into the sessions, whose {@link SessionException} becomes the API's error answer. */
final class SessionCalls {
  private static final Logger log = LoggerFactory.getLogger(SessionCalls.class);

  private SessionCalls() {}

  @FunctionalInterface
  interface SessionCall<T> {
    T run() throws SessionException;
  }

  @FunctionalInterface
  interface SessionAction {
    void run() throws SessionException;
  }

  static <T> T call(SessionCall<T> action) throws ApiError {
    try {
      return action.run();
    } catch (SessionException e) {
      throw switch (e.kind()) {
        case BAD_REQUEST -> ApiError.badRequest(e.getMessage());
        case NOT_FOUND -> ApiError.notFound(e.getMessage());
        case FORBIDDEN -> new ApiError(403, e.getMessage());
        case FAILED -> {
          log.warn("session call failed: {}", e.getMessage());
          yield new ApiError(500, e.getMessage());
        }
      };
    }
  }

  static void call(SessionAction action) throws ApiError {
    call(
        () -> {
          action.run();
          return null;
        });
  }
}
