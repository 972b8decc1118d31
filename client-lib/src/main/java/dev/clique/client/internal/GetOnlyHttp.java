package dev.clique.client.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.client.CliqueException;
import java.io.IOException;
import java.net.Proxy;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Authenticator;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.ConnectionSpec;
import okhttp3.Dispatcher;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The only code in this module that makes an HTTP request, and the request is a GET.
 *
 * <p>It sends the bearer token and {@code Accept: application/json}, follows no redirect (so the
 * token never goes to another location), uses no proxy, sets the time-out of each call, and turns
 * every outcome that is not a 2xx JSON object into a {@link CliqueException}.
 */
final class GetOnlyHttp {
  /** Concurrent calls of a client this module makes itself: waits are long, do not queue them. */
  static final int MAX_CONCURRENT_CALLS = 1024;

  private static final int ERROR_BODY_BYTES = 64 * 1024;

  private final OkHttpClient client;
  private final String authorization;
  private final Failures failures;

  GetOnlyHttp(OkHttpClient client, String token, Failures failures) {
    this.client = client;
    this.authorization = "Bearer " + token;
    this.failures = failures;
  }

  /**
   * The client calls go through: derived from {@code supplied} (sharing its pool and dispatcher) or
   * new, and in either case without redirects, proxy or authenticator. Time-outs are set per call
   * instead of per socket read, because a wait may rightly be silent for minutes. With a pin, TLS
   * trusts that one certificate and no other, whatever the name in the URL.
   */
  static OkHttpClient httpClient(
      OkHttpClient supplied, boolean cleartext, PinnedCertificate pinned) {
    OkHttpClient.Builder builder;
    if (supplied != null) {
      builder = supplied.newBuilder();
    } else {
      Dispatcher dispatcher = new Dispatcher(daemonThreads());
      dispatcher.setMaxRequests(MAX_CONCURRENT_CALLS);
      dispatcher.setMaxRequestsPerHost(MAX_CONCURRENT_CALLS);
      builder = new OkHttpClient.Builder().dispatcher(dispatcher);
      if (cleartext) {
        // An http:// engine needs no TLS: OkHttp then skips setting it up, a third of the start.
        builder.connectionSpecs(List.of(ConnectionSpec.CLEARTEXT));
      }
    }
    if (pinned != null) {
      builder.sslSocketFactory(pinned.socketFactory(), pinned).hostnameVerifier(pinned);
    }
    return builder
        .followRedirects(false)
        .followSslRedirects(false)
        .proxy(Proxy.NO_PROXY)
        .authenticator(Authenticator.NONE)
        .readTimeout(Duration.ZERO)
        .writeTimeout(Duration.ZERO)
        .callTimeout(Duration.ZERO)
        .build();
  }

  OkHttpClient client() {
    return client;
  }

  <T> CompletableFuture<T> getAsync(HttpUrl url, Duration limit, AnswerParser<T> parser) {
    Call call = newCall(url, limit);
    CallFuture<T> future = new CallFuture<>(call, failures, limit);
    call.enqueue(
        new Callback() {
          @Override
          public void onFailure(Call failed, IOException e) {
            future.completeExceptionally(failures.noAnswer(e, limit));
          }

          @Override
          public void onResponse(Call answered, Response response) {
            try (response) {
              future.complete(read(response, parser));
            } catch (CliqueException e) {
              future.completeExceptionally(e);
            } catch (IOException e) {
              future.completeExceptionally(failures.noAnswer(e, limit));
            } catch (RuntimeException e) {
              future.completeExceptionally(e);
            }
          }
        });
    return future;
  }

  private Call newCall(HttpUrl url, Duration limit) {
    Request request =
        new Request.Builder()
            .url(url)
            .header("Authorization", authorization)
            .header("Accept", "application/json")
            .get()
            .build();
    Call call = client.newCall(request);
    call.timeout().timeout(saturatedNanos(limit), TimeUnit.NANOSECONDS);
    return call;
  }

  private static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  private <T> T read(Response response, AnswerParser<T> parser) throws IOException {
    int code = response.code();
    if (code >= 300 && code < 400) {
      throw failures.redirect(code, response.header("Location"));
    }
    if (code < 200 || code >= 300) {
      String body = response.peekBody(ERROR_BODY_BYTES).string();
      throw failures.status(code, engineError(body), body, response.message());
    }
    byte[] body = response.body().bytes();
    // No cause is attached below: a parser's message quotes the body, which is the engine's
    // text and could hold anything; the detail says what is wrong, and it is scrubbed.
    JsonText json;
    try {
      json = JsonText.read(utf8(body));
    } catch (JsonProcessingException | CharacterCodingException e) {
      throw failures.unexpected(code, notJson(response, body));
    }
    if (json.tree().isMissingNode()) {
      throw failures.unexpected(code, "the body is empty");
    }
    try {
      return parser.parse(json);
    } catch (MalformedAnswer e) {
      throw failures.unexpected(code, e.getMessage());
    }
  }

  /** The body as text; bytes that are not UTF-8 make it no JSON, as the JSON parser has it. */
  private static String utf8(byte[] body) throws CharacterCodingException {
    // String's own decoding copies the bytes once, where a decoder fills a char buffer and copies
    // that again; it replaces what is not UTF-8 with U+FFFD, so only a text that has one is
    // decoded again, strictly, to tell the engine's own U+FFFD from bytes that are not UTF-8.
    String text = new String(body, StandardCharsets.UTF_8);
    if (text.indexOf('\uFFFD') < 0) {
      return text;
    }
    return StandardCharsets.UTF_8
        .newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT)
        .decode(ByteBuffer.wrap(body))
        .toString();
  }

  private static String notJson(Response response, byte[] body) {
    String type = response.header("Content-Type");
    String excerpt = Failures.excerpt(new String(body, StandardCharsets.UTF_8));
    return "the body is not JSON"
        + (type == null ? "" : " (" + type + ")")
        + (excerpt.isEmpty() ? "" : ": " + excerpt);
  }

  /** The {@code "error"} of an engine's error body, or {@code null} when it has none. */
  private static String engineError(String body) {
    try {
      JsonNode error = JsonTree.read(body).path("error");
      return error.isTextual() ? error.textValue() : null;
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  private static ExecutorService daemonThreads() {
    AtomicInteger count = new AtomicInteger();
    return new ThreadPoolExecutor(
        0,
        Integer.MAX_VALUE,
        60,
        TimeUnit.SECONDS,
        new SynchronousQueue<>(),
        task -> {
          Thread thread = new Thread(task, "clique-client-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
  }
}
