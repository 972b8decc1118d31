package dev.clique.fake;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
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
 * clique's engine as a test scripts it, on a loopback port. Each route answers what the test says
 * ({@link #on}), a path no route names answers the contract's 404, and every request is recorded so
 * the test can check what was asked: the caps a client puts on its arguments are invisible against
 * a real engine, which clamps again. A {@link #hang} route holds its answer open and notices when
 * the client lets go; {@link #failEveryRequest} makes every answer one fault.
 */
public final class FakeEngine implements AutoCloseable {
  /** In a route, a path segment that stands for any one segment (a session id), or any method. */
  public static final String ANY = "*";

  /** One request as the engine saw it; header names are lower case. */
  public record Request(
      String method, String rawPath, String rawQuery, Map<String, String> headers) {
    /** The value of header {@code name} (any case), null when absent. */
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  /** How a route answers. */
  @FunctionalInterface
  public interface Reply {
    void send(HttpExchange exchange) throws IOException;
  }

  /** Answers no sound engine gives, to every request while one is set. */
  public enum Fault {
    /** 200 with a body that is not JSON. */
    GARBAGE,
    /** 302 to another host. */
    REDIRECT,
    /** 500 with an error body. */
    ERROR_500,
    /** The contract's 401. */
    UNAUTHORIZED,
    /** No answer at all until the engine closes. */
    SILENT
  }

  /** Every request, in order. */
  public final List<Request> requests = new CopyOnWriteArrayList<>();

  /** How many held answers found their connection closed by the client. */
  public final AtomicInteger abandoned = new AtomicInteger();

  /** How many held answers are open now. */
  public final AtomicInteger holding = new AtomicInteger();

  /** By method and raw path, {@code "GET /api/state"}. */
  private final Map<String, Reply> routes = new ConcurrentHashMap<>();

  private final CountDownLatch release = new CountDownLatch(1);
  private final HttpServer server;
  private final ExecutorService threads;
  private volatile Fault fault;

  private FakeEngine(HttpServer server) {
    this.server = server;
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

  /** An engine with no routes yet, listening on an ephemeral loopback port. */
  public static FakeEngine start() throws IOException {
    return new FakeEngine(HttpServer.create(loopback(), 200));
  }

  /**
   * The same, over HTTPS: it shows the certificate of {@code keystore}, as {@code clique serve}
   * does with {@code CLIQUE_TLS_KEYSTORE}; {@link #url()} is then {@code https://127.0.0.1:...}.
   */
  public static FakeEngine startHttps(SelfSignedKeystore keystore) throws IOException {
    HttpsServer server = HttpsServer.create(loopback(), 200);
    server.setHttpsConfigurator(new HttpsConfigurator(keystore.serverContext()));
    return new FakeEngine(server);
  }

  private static InetSocketAddress loopback() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
  }

  public String url() {
    String scheme = server instanceof HttpsServer ? "https" : "http";
    return scheme + "://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Answers {@code rawPath}, whatever the method; see {@link #on(String, String, Reply)}. */
  public FakeEngine on(String rawPath, Reply reply) {
    return on(ANY, rawPath, reply);
  }

  /**
   * Answers {@code method} on {@code rawPath} (exactly as it is on the wire, percent-encoding and
   * all) with {@code reply}, in place of what answered it before. A path whose segments are all
   * given wins over one with {@link #ANY}, and a route of the method over one of {@link #ANY}.
   */
  public FakeEngine on(String method, String rawPath, Reply reply) {
    routes.put(method + " " + rawPath, reply);
    return this;
  }

  /**
   * Answers the contract's reads: {@code /api/state}, and the peek, wait and transcript of each of
   * {@code sessions} ({@link #ANY} for every session).
   */
  public FakeEngine servingTheContract(String... sessions) {
    on("/api/state", json(200, contract("state.json")));
    for (String id : sessions) {
      on("/api/sessions/" + id + "/peek", json(200, contract("peek.json")));
      on("/api/sessions/" + id + "/wait", json(200, contract("wait-matched.json")));
      on("/api/sessions/" + id + "/transcript", json(200, contract("transcript.json")));
    }
    return this;
  }

  /** From now on every request, whatever its route, gets {@code fault}. */
  public FakeEngine failEveryRequest(Fault fault) {
    this.fault = fault;
    return this;
  }

  /** Back to the routes. */
  public FakeEngine stopFailing() {
    this.fault = null;
    return this;
  }

  /** The golden answer {@code name} of {@code contract/}, such as {@code "state.json"}. */
  public static String contract(String name) {
    try (InputStream in = FakeEngine.class.getResourceAsStream("contract/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no file " + name + " in contract/");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Reply json(int status, String body) {
    return text(status, "application/json", body);
  }

  public static Reply text(int status, String contentType, String body) {
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
  public Reply hang(String body) {
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
      }
    };
  }

  /** Lets every held answer finish, and a {@link Fault#SILENT} engine stop waiting. */
  public void releaseAll() {
    release.countDown();
  }

  /** The requests made to one raw path. */
  public List<Request> requestsTo(String rawPath) {
    return requests.stream().filter(r -> r.rawPath().equals(rawPath)).toList();
  }

  /** The last request to a raw path ending with {@code suffix}. */
  public Request last(String suffix) {
    for (int i = requests.size() - 1; i >= 0; i--) {
      if (requests.get(i).rawPath().endsWith(suffix)) {
        return requests.get(i);
      }
    }
    throw new AssertionError("no request to *" + suffix + " among " + requests);
  }

  private void handle(HttpExchange exchange) throws IOException {
    Map<String, String> headers = new HashMap<>();
    exchange
        .getRequestHeaders()
        .forEach(
            (name, values) -> headers.put(name.toLowerCase(Locale.ROOT), String.join(",", values)));
    String method = exchange.getRequestMethod();
    String rawPath = exchange.getRequestURI().getRawPath();
    requests.add(
        new Request(method, rawPath, exchange.getRequestURI().getRawQuery(), Map.copyOf(headers)));
    try (exchange) {
      Fault now = fault;
      if (now != null) {
        fail(exchange, now);
      } else {
        route(method, rawPath).send(exchange);
      }
    }
  }

  private Reply route(String method, String rawPath) {
    for (String key : List.of(method + " " + rawPath, ANY + " " + rawPath)) {
      Reply reply = routes.get(key);
      if (reply != null) {
        return reply;
      }
    }
    Reply anyMethod = null;
    for (Map.Entry<String, Reply> route : routes.entrySet()) {
      String[] key = route.getKey().split(" ", 2);
      if (matches(key[1], rawPath)) {
        if (key[0].equals(method)) {
          return route.getValue();
        }
        if (key[0].equals(ANY)) {
          anyMethod = route.getValue();
        }
      }
    }
    return anyMethod != null ? anyMethod : json(404, contract("error-not-found.json"));
  }

  private static boolean matches(String pattern, String rawPath) {
    String[] wanted = pattern.split("/", -1);
    String[] asked = rawPath.split("/", -1);
    if (wanted.length != asked.length) {
      return false;
    }
    for (int i = 0; i < wanted.length; i++) {
      if (!wanted[i].equals(ANY) && !wanted[i].equals(asked[i])) {
        return false;
      }
    }
    return true;
  }

  private void fail(HttpExchange exchange, Fault fault) throws IOException {
    switch (fault) {
      case GARBAGE -> json(200, "<html>this is not the engine</html>").send(exchange);
      case REDIRECT -> {
        exchange.getResponseHeaders().add("Location", "http://127.0.0.2:9/api/state");
        exchange.sendResponseHeaders(302, -1);
      }
      case ERROR_500 -> json(500, "{\"error\":\"the engine fell over\"}").send(exchange);
      case UNAUTHORIZED -> json(401, contract("error-unauthorized.json")).send(exchange);
      case SILENT -> {
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  @Override
  public void close() {
    releaseAll();
    server.stop(0);
    threads.shutdownNow();
  }
}
