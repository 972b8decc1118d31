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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** An engine that misbehaves on purpose: garbage, redirects, errors, or no answer at all. */
final class FakeEngine implements AutoCloseable {
  /** How it answers every request. */
  enum Mode {
    GOOD,
    GARBAGE,
    REDIRECT,
    ERROR_500,
    UNAUTHORIZED,
    SILENT
  }

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final CountDownLatch released = new CountDownLatch(1);
  private volatile Mode mode = Mode.GOOD;

  FakeEngine() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    server.setExecutor(threads);
    server.createContext("/", this::answer);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  void mode(Mode mode) {
    this.mode = mode;
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      switch (mode) {
        case GOOD -> send(exchange, 200, Files.readString(Path.of("..", "contract", "state.json")));
        case GARBAGE -> send(exchange, 200, "<html>this is not the engine</html>");
        case REDIRECT -> {
          exchange.getResponseHeaders().add("Location", "http://127.0.0.2:9/api/state");
          send(exchange, 302, "");
        }
        case ERROR_500 -> send(exchange, 500, "{\"error\":\"the engine fell over\"}");
        case UNAUTHORIZED -> send(exchange, 401, "{\"error\":\"unauthorized\"}");
        case SILENT -> {
          try {
            released.await();
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
      }
    }
  }

  private static void send(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  @Override
  public void close() {
    released.countDown();
    server.stop(0);
    threads.shutdownNow();
  }
}
