package dev.clique.engine.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.Engine;
import dev.clique.engine.http.TlsKeystore;
import dev.clique.engine.token.Scope;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * A real engine for a test: a throwaway home and tmux socket, an ephemeral loopback port, and HTTP
 * helpers. Closing it stops the engine and kills only its own tmux server.
 */
public final class TestEngine implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The version test engines are given to name. */
  public static final String VERSION = "4.5.6-test";

  public final Engine engine;
  public final Path home;
  public final String socket;

  private TestEngine(Engine engine, Path home, String socket) {
    this.engine = engine;
    this.home = home;
    this.socket = socket;
  }

  public static Map<String, String> env(Path home, String socket) {
    Map<String, String> env = new HashMap<>();
    env.put("CLIQUE_HOME", home.toString());
    env.put("CLIQUE_TMUX_SOCKET", socket);
    env.put("PATH", System.getenv("PATH"));
    env.put("HOME", System.getProperty("user.home"));
    // Never the real user's other tmux servers: a test that discovers names its own TMUX_TMPDIR.
    env.put("CLIQUE_DISCOVER", "off");
    return env;
  }

  public static TestEngine start(Path home) throws IOException {
    String socket = "clique-test-" + UUID.randomUUID();
    return new TestEngine(
        Engine.start(env(home, socket), "127.0.0.1", 0, true, VERSION), home, socket);
  }

  /** An engine whose environment has {@code extra} on top (a throwaway TMUX_TMPDIR, discovery). */
  public static TestEngine startWith(Path home, Map<String, String> extra) throws IOException {
    String socket = "clique-test-" + UUID.randomUUID();
    Map<String, String> env = env(home, socket);
    env.putAll(extra);
    return new TestEngine(Engine.start(env, "127.0.0.1", 0, true, VERSION), home, socket);
  }

  /** An engine on TLS, with the keystore {@code CLIQUE_TLS_*} of {@code extra} name. */
  public static TestEngine startTls(Path home, Map<String, String> extra) throws IOException {
    String socket = "clique-test-" + UUID.randomUUID();
    Map<String, String> env = env(home, socket);
    env.putAll(extra);
    TlsKeystore tls =
        TlsKeystore.fromEnvironment(env)
            .orElseThrow(() -> new IllegalArgumentException("no CLIQUE_TLS_KEYSTORE"));
    return new TestEngine(Engine.start(env, "127.0.0.1", 0, true, VERSION, tls), home, socket);
  }

  /** An engine on a new home under {@code dir} whose {@code clis.toml} is {@code clis}. */
  public static TestEngine startWithClis(Path dir, String clis) throws IOException {
    Path home = Files.createDirectories(dir.resolve("home"));
    Files.writeString(home.resolve("clis.toml"), clis);
    return start(home);
  }

  public String url() {
    return engine.url();
  }

  public String mint(Set<Scope> scopes, String session) throws IOException {
    return engine.tokens().create("test", scopes, session).secret();
  }

  public HttpResponse<String> send(String method, String path, String token, String body)
      throws IOException, InterruptedException {
    return new Http(url()).send(method, path, token, body);
  }

  /** Starts a session of {@code cli} in {@code cwd} through the API; fails unless it is 201. */
  public String create(String token, String cli, Path cwd, String name)
      throws IOException, InterruptedException {
    HttpResponse<String> created =
        send(
            "POST",
            "/api/sessions",
            token,
            "{\"cli\":\"" + cli + "\",\"cwd\":\"" + cwd + "\",\"name\":\"" + name + "\"}");
    if (created.statusCode() != 201) {
      throw new AssertionError("creating a " + cli + " session answered " + created.body());
    }
    return JSON.readTree(created.body()).path("id").asText();
  }

  /** JSON requests to an engine's base URL. */
  public static final class Http {
    private final String base;
    private final HttpClient http =
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public Http(String base) {
      this.base = base;
    }

    public HttpResponse<String> send(String method, String path, String token, String body)
        throws IOException, InterruptedException {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(base + path))
              .timeout(Duration.ofSeconds(10))
              .method(
                  method,
                  body == null
                      ? HttpRequest.BodyPublishers.noBody()
                      : HttpRequest.BodyPublishers.ofString(body));
      if (body != null) {
        request.header("Content-Type", "application/json");
      }
      if (token != null) {
        request.header("Authorization", "Bearer " + token);
      }
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
  }

  /** A request written by hand, for what java.net.http will not send (odd Host headers). */
  public RawResponse raw(String requestHead) throws IOException {
    URI uri = URI.create(url());
    try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
      socket.setSoTimeout(10_000);
      OutputStream out = socket.getOutputStream();
      out.write(requestHead.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      InputStream in = socket.getInputStream();
      String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      int status = Integer.parseInt(response.substring(9, 12));
      int split = response.indexOf("\r\n\r\n");
      return new RawResponse(status, split < 0 ? "" : response.substring(split + 4));
    }
  }

  /** Status and body of a hand-written request. */
  public record RawResponse(int status, String body) {}

  @Override
  public void close() {
    engine.close();
    engine.sessions().tmux().killServer();
  }
}
