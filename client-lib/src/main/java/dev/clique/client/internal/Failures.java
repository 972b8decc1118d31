package dev.clique.client.internal;

import dev.clique.client.CliqueException;
import dev.clique.client.CliqueException.Kind;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.time.Duration;
import java.util.Locale;

/**
 * The one place that words a {@link CliqueException}. The beginnings of these messages are a
 * contract (the MCP server's error table builds on them); every message passes the scrubber.
 */
final class Failures {
  static final String API_RETURNED = "clique API returned ";
  private static final int EXCERPT_CHARS = 200;

  private final String baseUrl;
  private final TokenScrubber scrubber;

  Failures(String baseUrl, TokenScrubber scrubber) {
    this.baseUrl = baseUrl;
    this.scrubber = scrubber;
  }

  /** No HTTP answer: a time-out when the clock ran out, otherwise the engine was not reached. */
  CliqueException noAnswer(Exception e, Duration limit) {
    return isTimeout(e) ? timedOut(limit, e) : unreachable(e);
  }

  CliqueException unreachable(Exception cause) {
    return make(
        Kind.UNREACHABLE,
        "could not reach clique at " + baseUrl + ": " + reason(cause) + untrusted(cause),
        -1,
        null,
        cause);
  }

  CliqueException timedOut(Duration limit, Exception cause) {
    return make(
        Kind.TIMEOUT,
        "clique API did not answer within " + Seconds.format(limit) + " s",
        -1,
        null,
        cause);
  }

  /**
   * A status that is neither 2xx nor 3xx.
   *
   * @param engineError the {@code "error"} of the engine's JSON body, or {@code null}
   * @param bodyText the body as text, used when there is no engine error
   * @param reasonPhrase the status line's reason, used when there is no body either
   */
  CliqueException status(int code, String engineError, String bodyText, String reasonPhrase) {
    if (code == 401) {
      return make(
          Kind.UNAUTHORIZED,
          API_RETURNED
              + "401: unauthorized (this engine does not know the token; make one on the"
              + " engine's machine with `clique token create <name> --read-only`)",
          code,
          engineError,
          null);
    }
    Kind kind = code == 403 ? Kind.FORBIDDEN : code == 404 ? Kind.NOT_FOUND : Kind.HTTP_ERROR;
    String what = engineError;
    if (what == null || what.isBlank()) {
      what = excerpt(bodyText);
    }
    if (what.isEmpty()) {
      what = reasonPhrase == null || reasonPhrase.isBlank() ? "no details" : reasonPhrase.strip();
    }
    return make(kind, API_RETURNED + code + ": " + what, code, engineError, null);
  }

  CliqueException redirect(int code, String location) {
    String to = location == null || location.isBlank() ? "" : " (to " + excerpt(location) + ")";
    return make(
        Kind.HTTP_ERROR,
        API_RETURNED + code + ": redirects are not followed" + to,
        code,
        null,
        null);
  }

  CliqueException unexpected(int code, String detail) {
    return make(
        Kind.BAD_RESPONSE, API_RETURNED + "an unexpected response: " + detail, code, null, null);
  }

  /** The start of a body, on one line, for a message. */
  static String excerpt(String text) {
    if (text == null) {
      return "";
    }
    String line = text.replaceAll("\\s+", " ").strip();
    return line.length() <= EXCERPT_CHARS ? line : line.substring(0, EXCERPT_CHARS) + "…";
  }

  private CliqueException make(
      Kind kind, String message, int status, String engineError, Throwable cause) {
    return new CliqueException(
        kind, scrubber.scrub(message), status, scrubber.scrub(engineError), cause);
  }

  /**
   * OkHttp reports its own call time-out as an {@link InterruptedIOException} and a read time-out
   * as its subclass {@link SocketTimeoutException}. A connect time-out is one too, but a silent
   * engine host is better told as not reached.
   */
  private static boolean isTimeout(Exception e) {
    if (!(e instanceof InterruptedIOException)) {
      return false;
    }
    String message = e.getMessage();
    return !(e instanceof SocketTimeoutException
        && message != null
        && message.toLowerCase(Locale.ROOT).contains("connect"));
  }

  /** What to do when TLS found no trusted chain: a self-signed engine is trusted by its pin. */
  private static String untrusted(Throwable e) {
    for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof CertPathBuilderException || t instanceof CertPathValidatorException) {
        return " (the engine's certificate is not trusted here; for an engine's own, self-signed"
            + " certificate, pin its SHA-256 fingerprint, which `clique serve` prints when it"
            + " starts, with CliqueClient.Builder.certificateSha256)";
      }
    }
    return "";
  }

  /** The most specific words in the cause chain: "Connection refused" beats "Failed to connect". */
  private static String reason(Throwable e) {
    String reason = null;
    for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
      String message = t.getMessage();
      if (t instanceof UnknownHostException) {
        return "unknown host " + message;
      }
      if (message != null && !message.isBlank()) {
        reason = message;
      }
    }
    return reason != null ? reason.strip() : e.getClass().getSimpleName();
  }
}
