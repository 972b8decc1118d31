package dev.clique.engine.http;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * The answers Jetty gives before a request reaches {@link ApiHandler} (a malformed request line, a
 * bad Host): the same small bodies as the API's own, never an HTML page or a stack trace. A request
 * whose Host Jetty cannot even parse is refused like any other unknown host.
 */
final class PlainErrorHandler extends ErrorHandler {
  @Override
  protected void generateResponse(
      Request request,
      Response response,
      int code,
      String message,
      Throwable cause,
      Callback callback) {
    boolean badHost = code == 400 && message != null && message.contains("Host");
    int status = badHost ? 403 : code;
    String type = badHost ? "text/plain; charset=utf-8" : "application/json; charset=utf-8";
    String body = badHost ? "host not allowed" : "{\"error\":\"" + words(status) + "\"}";
    Answers.send(response, callback, status, type, body);
  }

  private static String words(int status) {
    return switch (status) {
      case 400 -> "bad request";
      case 404 -> "not found";
      case 405 -> "method not allowed";
      case 413 -> "request body is larger than 1 MiB";
      case 414 -> "request line too long";
      case 431 -> "request headers too large";
      default -> status >= 500 ? "internal error" : "request refused";
    };
  }
}
