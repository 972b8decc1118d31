package dev.clique.conformance;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An engine that answers every read with the contract's golden answers and records what it was
 * asked, so a suite can see the exact request a spawned {@code clique mcp} made (the caps on {@code
 * lines} and {@code timeout} are invisible against a real engine, which clamps again). A wait on
 * session {@code hold} is held open until the client lets go.
 */
final class StubEngine implements AutoCloseable {
  static final String HOLD = "hold";

  /** How it answers: the contract's answers, or a fault on every request. */
  enum Mode {
    CONTRACT,
    GARBAGE,
    REDIRECT,
    ERROR_500,
    UNAUTHORIZED,
    SILENT
  }

  /** One request: its method, raw path and raw query (null when none). */
  record Request(String method, String path, String query) {}

  final List<Request> requests = new CopyOnWriteArrayList<>();

  /** Waits on {@link #HOLD} open now. */
  final AtomicInteger holding = new AtomicInteger();

  /** Waits on {@link #HOLD} whose client closed the connection. */
  final AtomicInteger abandoned = new AtomicInteger();

  private final HttpServer server;
  private final ExecutorService threads;
  private final CountDownLatch released = new CountDownLatch(1);
  private volatile Mode mode = Mode.CONTRACT;

  private StubEngine() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
    threads =
        Executors.newCachedThreadPool(
            task -> {
              Thread thread = new Thread(task, "stub-engine");
              thread.setDaemon(true);
              return thread;
            });
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
  }

  static StubEngine start() throws IOException {
    return new StubEngine();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  void mode(Mode mode) {
    this.mode = mode;
  }

  /** The last request to a path ending with {@code suffix}. */
  Request last(String suffix) {
    for (int i = requests.size() - 1; i >= 0; i--) {
      if (requests.get(i).path().endsWith(suffix)) {
        return requests.get(i);
      }
    }
    throw new AssertionError("no request to *" + suffix + " among " + requests);
  }

  private void handle(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getRawPath();
    requests.add(
        new Request(exchange.getRequestMethod(), path, exchange.getRequestURI().getRawQuery()));
    try (exchange) {
      if (mode != Mode.CONTRACT) {
        fault(exchange);
      } else if (path.equals("/api/sessions/" + HOLD + "/wait")) {
        hold(exchange);
      } else if (path.equals("/api/state")) {
        answer(exchange, 200, "state.json");
      } else if (path.endsWith("/peek")) {
        answer(exchange, 200, "peek.json");
      } else if (path.endsWith("/wait")) {
        answer(exchange, 200, "wait-matched.json");
      } else if (path.endsWith("/transcript")) {
        answer(exchange, 200, "transcript.json");
      } else {
        answer(exchange, 404, "error-not-found.json");
      }
    }
  }

  private void fault(HttpExchange exchange) throws IOException {
    switch (mode) {
      case GARBAGE -> send(exchange, 200, "<html>this is not the engine</html>");
      case REDIRECT -> {
        exchange.getResponseHeaders().add("Location", "http://127.0.0.2:9/api/state");
        exchange.sendResponseHeaders(302, -1);
      }
      case ERROR_500 -> send(exchange, 500, "{\"error\":\"the engine fell over\"}");
      case UNAUTHORIZED -> answer(exchange, 401, "error-unauthorized.json");
      case SILENT -> {
        try {
          released.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      case CONTRACT -> throw new IllegalStateException("not a fault");
    }
  }

  private static void send(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static void answer(HttpExchange exchange, int status, String contractFile)
      throws IOException {
    byte[] body = Files.readAllBytes(Path.of("..", "contract", contractFile));
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  /** Status line at once, then a blank every 20 ms until the client closes the connection. */
  private void hold(HttpExchange exchange) {
    holding.incrementAndGet();
    try {
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      while (!Thread.currentThread().isInterrupted()) {
        out.write(" ".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        Thread.sleep(20);
      }
    } catch (IOException e) {
      abandoned.incrementAndGet();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      holding.decrementAndGet();
    }
  }

  @Override
  public void close() {
    released.countDown();
    server.stop(0);
    threads.shutdownNow();
  }
}
