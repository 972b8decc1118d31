package dev.clique.models;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A vendor's model API on loopback that answers from a script and keeps every request it received
 * (as MockWebServer does): the CLI is real, only the model is scripted. A subclass speaks one
 * vendor's wire format; this class holds the script, the log and the SSE plumbing.
 */
public abstract class ScriptedModelServer implements AutoCloseable {
  /** One request as the server received it. */
  public record Received(
      String method, String path, Map<String, List<String>> headers, String body) {}

  /** What the model does on its next turn, in words every vendor's format can say. */
  public sealed interface Step {
    /** A whole answer at once. */
    record Text(String text) implements Step {}

    /** An answer streamed in {@code pieces} parts spread over {@code duration}. */
    record SlowText(String text, int pieces, Duration duration) implements Step {}

    /** The model asks to run a shell command through the CLI's own shell tool. */
    record ShellCall(String command, String description) implements Step {}

    /**
     * The model calls a tool by the name the CLI gave it ({@code mcp__clique__wait}, ...) with
     * {@code arguments}, a JSON object.
     */
    record ToolCall(String tool, String arguments) implements Step {}

    /** The API fails with this HTTP status and vendor error type. */
    record Failure(int status, String type, String message) implements Step {}

    /**
     * The vendor's usage or rate limit: HTTP 429 with the body and headers its API sends for one,
     * {@code message} its words, lifting at {@code resetsAt}.
     */
    record UsageLimit(String message, Instant resetsAt) implements Step {}
  }

  /**
   * The token counts each answer of the main conversation reports, in words every vendor's usage
   * can say: {@code input} not cached, {@code cacheRead} read from the cache, {@code cacheWrite}
   * written to it (Anthropic's alone), {@code output}. Each server writes them as its vendor does
   * (OpenAI and Gemini count the cached part inside their input).
   */
  public record Tokens(long input, long output, long cacheRead, long cacheWrite) {
    public Tokens {
      if (input < 0 || output < 0 || cacheRead < 0 || cacheWrite < 0) {
        throw new IllegalArgumentException("token counts are never negative");
      }
    }
  }

  private final HttpServer server;
  private final BlockingQueue<Step> script = new LinkedBlockingQueue<>();
  private final List<Received> received = new ArrayList<>();
  private volatile Tokens tokens;

  protected ScriptedModelServer(Tokens tokens) throws IOException {
    this.tokens = tokens;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/", this::dispatch);
    server.start();
  }

  /** {@code http://127.0.0.1:PORT}, with no trailing slash. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** From now on, each answer of the main conversation reports {@code tokens}. */
  public ScriptedModelServer answering(Tokens tokens) {
    this.tokens = tokens;
    return this;
  }

  /** What each answer of the main conversation reports now. */
  public Tokens tokens() {
    return tokens;
  }

  /** Appends the model's next turns. */
  public ScriptedModelServer then(Step... steps) {
    script.addAll(List.of(steps));
    return this;
  }

  public List<Received> received() {
    synchronized (received) {
      return List.copyOf(received);
    }
  }

  /** Waits until a request that matches has been received, and returns it. */
  public Received await(Predicate<Received> match, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (received) {
      while (true) {
        for (Received r : received) {
          if (match.test(r)) {
            return r;
          }
        }
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          throw new AssertionError(
              "no matching model request within " + timeout + "; received: " + paths());
        }
        received.wait(left);
      }
    }
  }

  /** The next scripted turn, or a short answer when the script has run out. */
  protected Step nextStep() {
    Step step = script.poll();
    return step == null ? new Step.Text("Done.") : step;
  }

  /** Answers one request in the vendor's format. */
  protected abstract void answer(HttpExchange exchange, Received request) throws IOException;

  /** Writes {@code events} as a text/event-stream, {@code gap} apart; each is one SSE frame. */
  protected static void sse(HttpExchange exchange, List<String> events, Duration gap)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
    exchange.getResponseHeaders().set("Cache-Control", "no-cache");
    exchange.sendResponseHeaders(200, 0);
    try (OutputStream out = exchange.getResponseBody()) {
      for (String event : events) {
        out.write(event.getBytes(StandardCharsets.UTF_8));
        out.flush();
        if (!gap.isZero()) {
          try {
            Thread.sleep(gap.toMillis());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
        }
      }
    }
  }

  protected static void json(HttpExchange exchange, int status, String body) throws IOException {
    json(exchange, status, body, Map.of());
  }

  /** A JSON answer with more headers ({@code retry-after}, a vendor's rate-limit headers). */
  protected static void json(
      HttpExchange exchange, int status, String body, Map<String, String> headers)
      throws IOException {
    headers.forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private void dispatch(HttpExchange exchange) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String path = exchange.getRequestURI().getRawPath();
      String query = exchange.getRequestURI().getRawQuery();
      Received request =
          new Received(
              exchange.getRequestMethod(),
              query == null ? path : path + "?" + query,
              Map.copyOf(exchange.getRequestHeaders()),
              body);
      synchronized (received) {
        received.add(request);
        received.notifyAll();
      }
      answer(exchange, request);
    } catch (IOException | RuntimeException e) {
      // the CLI hung up mid-stream, or a subclass failed: the log says what it asked
    }
  }

  private List<String> paths() {
    synchronized (received) {
      return received.stream().map(r -> r.method() + " " + r.path()).toList();
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
