package dev.clique.bench;

import dev.clique.engine.Engine;
import dev.clique.engine.token.Scope;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * An engine for a benchmark, in this JVM: its own home, tmux socket and port, with shell sessions
 * made through the API. Closing it kills only its own tmux server and deletes its home.
 */
final class BenchEngine implements AutoCloseable {
  final Engine engine;
  final Path home;
  final String writer;
  final String reader;
  final List<String> sessions = new ArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();

  private BenchEngine(Engine engine, Path home) throws IOException {
    this.engine = engine;
    this.home = home;
    this.writer = engine.tokens().create("bench", EnumSet.of(Scope.READ, Scope.WRITE), "").secret();
    this.reader = engine.tokens().create("bench-reader", EnumSet.of(Scope.READ), "").secret();
  }

  static BenchEngine start(Map<String, String> extraEnv) throws IOException {
    return start(extraEnv, "");
  }

  /** An engine whose CLI catalogue has {@code clisToml} laid over the bundled one. */
  static BenchEngine start(Map<String, String> extraEnv, String clisToml) throws IOException {
    Path home = Files.createTempDirectory("clique-bench-");
    if (!clisToml.isEmpty()) {
      Files.createDirectories(home.resolve("home"));
      Files.writeString(home.resolve("home").resolve("clis.toml"), clisToml);
    }
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("CLIQUE_HOME", home.resolve("home").toString());
    env.put("CLIQUE_TMUX_SOCKET", "clique-bench-" + UUID.randomUUID());
    env.putAll(extraEnv);
    return new BenchEngine(Engine.start(env, "127.0.0.1", 0, true), home);
  }

  String url() {
    return engine.url();
  }

  /** Environment for a {@code clique mcp} that talks to this engine. */
  Map<String, String> mcpEnv() {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("CLIQUE_URL", url());
    env.put("CLIQUE_TOKEN", reader);
    env.put("CLIQUE_HOME", home.resolve("mcp-home").toString());
    return env;
  }

  /** Makes sessions of {@code cli} until there are {@code count}. */
  void grow(int count, String cli) throws IOException, InterruptedException {
    while (sessions.size() < count) {
      String body =
          "{\"cli\":\""
              + cli
              + "\",\"cwd\":\""
              + home
              + "\",\"name\":\"bench-"
              + sessions.size()
              + "\"}";
      HttpResponse<String> created = post("/api/sessions", body);
      if (created.statusCode() != 201) {
        throw new IOException(
            "creating a session answered " + created.statusCode() + ": " + created.body());
      }
      String json = created.body();
      int at = json.indexOf("\"id\":\"") + 6;
      sessions.add(json.substring(at, json.indexOf('"', at)));
    }
  }

  HttpResponse<String> post(String path, String body) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(url() + path))
            .timeout(Duration.ofSeconds(30))
            .header("Authorization", "Bearer " + writer)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Override
  public void close() throws IOException {
    engine.close();
    engine.sessions().tmux().killServer();
    try (Stream<Path> paths = Files.walk(home)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
