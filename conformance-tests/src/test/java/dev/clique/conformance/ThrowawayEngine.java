package dev.clique.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.fake.SelfSignedKeystore;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * An engine of the suite's own: its own {@code CLIQUE_HOME}, tmux socket and port, so it can never
 * see or touch a live session. {@link #close()} kills only the tmux server on its own socket.
 */
final class ThrowawayEngine implements AutoCloseable {
  private static final Pattern HELD = Pattern.compile("[?&]timeout=(\\d{1,4})(?:&|$)");

  private static final ObjectMapper JSON = new ObjectMapper();

  /** This machine, on loopback: where every engine runs unless a suite gives it a host. */
  private static final EngineHosts.Host LOCAL = new EngineHosts.Host("127.0.0.1", List.of());

  final Path home;
  final Path workdir;
  final String socket;
  final int port;
  String url;
  private HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final Map<String, String> extraEnv = new HashMap<>();
  private final boolean ownsHome;
  private final boolean ownsSocket;
  private int fileLimit;
  private final List<String> serveFlags = new ArrayList<>();
  private final EngineHosts.Host host;
  private Spawned serve;

  private ThrowawayEngine(
      Path home,
      Path workdir,
      String socket,
      int port,
      boolean ownsHome,
      boolean ownsSocket,
      EngineHosts.Host host) {
    this.home = home;
    this.workdir = workdir;
    this.socket = socket;
    this.port = port;
    this.host = host;
    this.url = "http://" + host.address() + ":" + port;
    this.ownsHome = ownsHome;
    this.ownsSocket = ownsSocket;
  }

  /**
   * A second engine on this one's home and socket, on a port of its own, not started: closing it
   * stops only its own process.
   */
  ThrowawayEngine sibling() throws IOException {
    ThrowawayEngine sibling =
        new ThrowawayEngine(home, workdir, socket, freePort(), false, false, host);
    sibling.extraEnv.putAll(extraEnv);
    return sibling;
  }

  /**
   * An engine on a home of its own that shares this one's tmux socket, as a second {@code
   * CLIQUE_HOME} beside {@code ~/.clique} does with the default socket; not started. Closing it
   * deletes its own home and leaves the socket's server to this one.
   */
  ThrowawayEngine neighbour() throws IOException {
    ThrowawayEngine neighbour =
        new ThrowawayEngine(
            Files.createTempDirectory("clique-it-home-"),
            Files.createTempDirectory("clique-it-work-"),
            socket,
            freePort(),
            true,
            false,
            host);
    neighbour.extraEnv.putAll(extraEnv);
    return neighbour;
  }

  /** A home, socket and port, with no engine running yet. */
  static ThrowawayEngine prepare() throws IOException {
    return prepareOn(LOCAL);
  }

  /** The same, for an engine on {@code host}: it listens on that host's address only. */
  static ThrowawayEngine prepareOn(EngineHosts.Host host) throws IOException {
    String tag = ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
    Path home = Files.createTempDirectory("clique-it-home-");
    Path workdir = Files.createTempDirectory("clique-it-work-");
    return new ThrowawayEngine(home, workdir, "clique-it-" + tag, freePort(), true, true, host);
  }

  /** The environment every clique process of this engine runs with. */
  Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    for (String key : List.of("PATH", "HOME", "LANG", "LC_ALL", "JAVA_HOME", "USER", "TERM")) {
      String value = System.getenv(key);
      if (value != null) {
        env.put(key, value);
      }
    }
    env.putIfAbsent("TERM", "xterm-256color");
    env.put("CLIQUE_HOME", home.toString());
    env.put("CLIQUE_TMUX_SOCKET", socket);
    // Never the real user's other tmux servers: a suite that discovers sets its own TMUX_TMPDIR
    // and CLIQUE_DISCOVER through withEnv.
    env.put("CLIQUE_DISCOVER", "off");
    // The panes' shells never run the person's own start-up files: a home of the suite's own
    // (with an empty .bashrc) unless the suite gives one (a real CLI's, or withUserHome's).
    if (!extraEnv.containsKey("HOME")) {
      env.put("HOME", ownUserHome().toString());
    }
    env.putAll(extraEnv);
    return env;
  }

  /** The home of this engine's panes unless the suite gives one: made once, deleted at close. */
  private synchronized Path ownUserHome() {
    if (userHome == null) {
      try {
        userHome = Files.createTempDirectory("clique-it-user-");
        Files.writeString(userHome.resolve(".bashrc"), "");
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
    return userHome;
  }

  /**
   * Adds variables to the environment of every clique process of this engine (and so of its panes):
   * a real CLI's config dir, its model server's URL, a PATH that finds it.
   */
  ThrowawayEngine withEnv(Map<String, String> variables) {
    extraEnv.putAll(variables);
    return this;
  }

  /**
   * The environment of a {@code clique mcp} that talks to this engine with {@code token}. An engine
   * on a host of its own is reached over plain HTTP on the test's own link, which it allows.
   */
  Map<String, String> mcpEnv(String token) {
    Map<String, String> env = env();
    env.put("CLIQUE_URL", url);
    env.put("CLIQUE_TOKEN", token);
    if (host != LOCAL && url.startsWith("http://")) {
      env.put("CLIQUE_ALLOW_PLAIN_HTTP", "1");
    }
    return env;
  }

  /**
   * Serves HTTPS with {@code keystore} ({@code CLIQUE_TLS_KEYSTORE}, {@code
   * CLIQUE_TLS_PASSWORD_FILE}); this suite's own requests trust its certificate.
   */
  ThrowawayEngine withTls(SelfSignedKeystore keystore) throws IOException {
    extraEnv.put("CLIQUE_TLS_KEYSTORE", keystore.keystore().toString());
    extraEnv.put("CLIQUE_TLS_PASSWORD_FILE", keystore.passwordFile().toString());
    url = "https://" + host.address() + ":" + port;
    http =
        HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .sslContext(keystore.clientContext())
            .build();
    return this;
  }

  /**
   * Gives the panes a home of the suite's own ({@code HOME}) whose {@code .bashrc} is {@code
   * bashrc}: a shell's start-up as heavy as a person's, without running the person's own, whose
   * tools keep state of their own (a version manager's rehash lock, left behind by a shell the
   * suite's end killed mid-start, makes every later shell of the machine wait a minute).
   */
  ThrowawayEngine withUserHome(String bashrc) throws IOException {
    Files.writeString(ownUserHome().resolve(".bashrc"), bashrc);
    extraEnv.put("HOME", userHome.toString());
    return this;
  }

  private Path userHome;

  /** Adds flags to {@code clique serve} ({@code --no-discover}). */
  ThrowawayEngine withServeFlags(String... flags) {
    serveFlags.addAll(List.of(flags));
    return this;
  }

  /** Runs the engine with at most {@code descriptors} open files ({@code ulimit -n}). */
  ThrowawayEngine withFileLimit(int descriptors) {
    fileLimit = descriptors;
    return this;
  }

  ThrowawayEngine start() throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            Launcher.jarCommand(
                "serve", "--host", host.address(), "--port", Integer.toString(port)));
    command.addAll(serveFlags);
    if (fileLimit > 0) {
      command.addAll(0, List.of("sh", "-c", "ulimit -n " + fileLimit + " && exec \"$@\"", "sh"));
    }
    serve = Spawned.start(host.run(command), env(), workdir);
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      if (!serve.alive()) {
        throw new AssertionError("clique serve exited: " + serve.stderr());
      }
      try {
        HttpResponse<String> health = get("/healthz", null);
        if (health.statusCode() == 200) {
          return this;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    throw new AssertionError("clique serve did not answer /healthz in 30 s: " + serve.stderr());
  }

  /** A running engine with one shell session, and an operator and a read-only token for it. */
  record WithShell(ThrowawayEngine engine, String admin, String reader, String sessionId) {}

  /** Starts an engine and makes one shell session through its API. */
  static WithShell startWithShell(String name) throws IOException, InterruptedException {
    ThrowawayEngine engine = prepare().start();
    String admin = engine.mintToken(name + "-admin", false);
    String reader = engine.mintToken(name + "-reader", true);
    return new WithShell(engine, admin, reader, engine.createShell(admin, name));
  }

  /** Kills the engine process at once (SIGKILL), as a crash would; tmux and its sessions stay. */
  void crash() throws InterruptedException {
    if (serve != null) {
      ProcessHandle.of(serve.pid()).ifPresent(ProcessHandle::destroyForcibly);
      serve.waitFor(Duration.ofSeconds(10));
      serve.close();
      serve = null;
    }
  }

  /** Stops the engine process (SIGTERM) and waits for its exit; tmux and its sessions stay. */
  void stop() {
    if (serve != null) {
      serve.close();
      serve = null;
    }
  }

  /** Runs {@code clique token create NAME [--read-only]} and returns the printed token. */
  String mintToken(String name, boolean readOnly) throws IOException, InterruptedException {
    List<String> args =
        readOnly
            ? List.of("token", "create", name, "--read-only")
            : List.of("token", "create", name);
    try (Spawned mint =
        Spawned.start(Launcher.jarCommand(args.toArray(String[]::new)), env(), workdir)) {
      int code = mint.waitFor(Duration.ofSeconds(30));
      if (code != 0) {
        throw new AssertionError("token create exited " + code + ": " + mint.stderr());
      }
      return mint.stdout().strip();
    }
  }

  /** Creates a shell session through the API and returns its id. */
  String createShell(String token, String name) throws IOException, InterruptedException {
    String body =
        JSON.writeValueAsString(Map.of("cli", "shell", "cwd", workdir.toString(), "name", name));
    HttpResponse<String> created = post("/api/sessions", token, body);
    if (created.statusCode() != 201) {
      throw new AssertionError(
          "creating a session answered " + created.statusCode() + ": " + created.body());
    }
    return JSON.readTree(created.body()).path("id").asText();
  }

  HttpResponse<String> get(String path, String token) throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url + path)).timeout(limitFor(path)).GET();
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * How long a request may take: 10 s, and a route that holds its answer for {@code timeout=N}
   * seconds (a wait, the change feed) N more.
   */
  private static Duration limitFor(String path) {
    Matcher held = HELD.matcher(path);
    return Duration.ofSeconds(10 + (held.find() ? Long.parseLong(held.group(1)) : 0));
  }

  HttpResponse<String> post(String path, String token, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url + path))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * The {@code cli_version} of session {@code id} in {@code /api/state}, once the engine knows it
   * (it is a slow fact, gathered when an answer first needs it); null if it never did in {@code
   * timeout}.
   */
  String awaitCliVersion(String token, String id, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    do {
      for (JsonNode row : json(get("/api/state", token).body()).path("sessions")) {
        if (row.path("id").asText().equals(id) && row.path("cli_version").isTextual()) {
          return row.path("cli_version").asText();
        }
      }
      Thread.sleep(200);
    } while (System.nanoTime() < deadline);
    return null;
  }

  /**
   * The first row of {@code /api/state} that {@code wanted} accepts, looked for every 100 ms; an
   * {@link AssertionError} with the last answer when none did within {@code within}.
   */
  JsonNode awaitSession(String token, Predicate<JsonNode> wanted, Duration within)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      last = get("/api/state", token).body();
      for (JsonNode session : json(last).path("sessions")) {
        if (wanted.test(session)) {
          return session;
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no session as wanted within " + within + ": " + last);
  }

  /**
   * The transcript of session {@code id} once its turns hold {@code text}, looked for every 200 ms;
   * the last one read (null if none) when they did not within {@code within}.
   */
  JsonNode awaitTranscript(String token, String id, String text, Duration within)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + within.toNanos();
    JsonNode answer = null;
    while (System.nanoTime() < deadline) {
      answer = json(get("/api/sessions/" + id + "/transcript", token).body());
      if (answer.path("turns").toString().contains(text)) {
        return answer;
      }
      Thread.sleep(200);
    }
    return answer;
  }

  static JsonNode json(String text) throws IOException {
    return JSON.readTree(text);
  }

  /** The pid of the running {@code clique serve}. */
  long pid() {
    return serve.pid();
  }

  String serveStderr() {
    return serve == null ? "" : serve.stderr();
  }

  /**
   * What {@code clique serve} printed on stderr once it printed {@code text}, or after 10 s: a line
   * the engine logs as it starts may come after it first answers (a loaded machine runs the
   * listener's thread before the one that logs).
   */
  String serveStderrOnceItSays(String text) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!serveStderr().contains(text) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    return serveStderr();
  }

  @Override
  public void close() throws IOException {
    if (serve != null) {
      serve.close();
    }
    if (!ownsHome) {
      return;
    }
    if (ownsSocket) {
      try {
        Tmux.killServer(socket);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    deleteTree(home);
    deleteTree(workdir);
    if (userHome != null) {
      deleteTree(userHome);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket probe = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return probe.getLocalPort();
    }
  }

  static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
