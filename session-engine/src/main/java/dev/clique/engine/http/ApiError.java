package dev.clique.engine.http;

/** An answer that is an error: a status and the words of {@code {"error": "..."}}. */
final class ApiError extends Exception {
  private static final long serialVersionUID = 1L;

  private final int status;

  ApiError(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  int status() {
    return status;
  }

  static ApiError badRequest(String message) {
    return new ApiError(400, message);
  }

  static ApiError notFound(String message) {
    return new ApiError(404, message);
  }
}
