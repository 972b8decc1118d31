package dev.clique.mcp;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scriptable engine on a loopback port: each raw path answers what the test says, and every
 * request is recorded so the test can check what was asked. A {@link #hang} route holds its answer
 * open and notices when the client lets go of the connection.
 */
final class FakeEngine implements AutoCloseable {
  /** One request as the engine saw it. */
  record Request(String method, String rawPath, String rawQuery, Map<String, String> headers) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  /** How a route answers. */
  interface Reply {
    void send(HttpExchange exchange) throws IOException;
  }

  final List<Request> requests = new CopyOnWriteArrayList<>();

  /** How many held answers found their connection closed by the client. */
  final AtomicInteger abandoned = new AtomicInteger();

  /** How many held answers are open now. */
  final AtomicInteger holding = new AtomicInteger();

  private final Map<String, Reply> routes = new ConcurrentHashMap<>();
  private final CountDownLatch release = new CountDownLatch(1);
  private final HttpServer server;
  private final ExecutorService threads;

  private FakeEngine() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 200);
    threads =
        Executors.newCachedThreadPool(
            task -> {
              Thread thread = new Thread(task, "fake-engine");
              thread.setDaemon(true);
              return thread;
            });
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
  }

  static FakeEngine start() throws IOException {
    return new FakeEngine();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Answers {@code rawPath} (exactly as it is on the wire, percent-encoding and all). */
  FakeEngine on(String rawPath, Reply reply) {
    routes.put(rawPath, reply);
    return this;
  }

  /** The state, peek, wait and transcript routes of {@code contract/}, for both sessions. */
  FakeEngine servingTheContract() {
    on("/api/state", json(200, Fixtures.contract("state.json")));
    for (String id : List.of(Fixtures.CLAUDE_ID, Fixtures.SHELL_ID)) {
      on("/api/sessions/" + id + "/peek", json(200, Fixtures.contract("peek.json")));
      on("/api/sessions/" + id + "/wait", json(200, Fixtures.contract("wait-matched.json")));
      on("/api/sessions/" + id + "/transcript", json(200, Fixtures.contract("transcript.json")));
    }
    return this;
  }

  static Reply json(int status, String body) {
    return exchange -> {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    };
  }

  static Reply text(int status, String contentType, String body) {
    return exchange -> {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", contentType);
      exchange.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    };
  }

  /**
   * Holds the answer open: the status line goes out at once, then a blank every 20 ms (leading
   * white space is still JSON) until the client closes the connection, counted in {@link
   * #abandoned}, or {@link #releaseAll()} lets it finish with {@code body}.
   */
  Reply hang(String body) {
    return exchange -> {
      holding.incrementAndGet();
      try {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        while (!release.await(20, TimeUnit.MILLISECONDS)) {
          out.write(' ');
          out.flush();
        }
        out.write(body.getBytes(StandardCharsets.UTF_8));
        out.close();
      } catch (IOException e) {
        abandoned.incrementAndGet();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        holding.decrementAndGet();
        exchange.close();
      }
    };
  }

  void releaseAll() {
    release.countDown();
  }

  /** The requests made to one raw path. */
  List<Request> requestsTo(String rawPath) {
    return requests.stream().filter(r -> r.rawPath().equals(rawPath)).toList();
  }

  private void handle(HttpExchange exchange) throws IOException {
    Map<String, String> headers = new ConcurrentHashMap<>();
    exchange
        .getRequestHeaders()
        .forEach(
            (name, values) -> headers.put(name.toLowerCase(Locale.ROOT), String.join(",", values)));
    String rawPath = exchange.getRequestURI().getRawPath();
    requests.add(
        new Request(
            exchange.getRequestMethod(), rawPath, exchange.getRequestURI().getRawQuery(), headers));
    Reply reply =
        routes.getOrDefault(rawPath, json(404, Fixtures.contract("error-not-found.json")));
    try {
      reply.send(exchange);
    } finally {
      exchange.close();
    }
  }

  @Override
  public void close() {
    releaseAll();
    server.stop(0);
    threads.shutdownNow();
  }
}
