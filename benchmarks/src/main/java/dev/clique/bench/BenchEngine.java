package dev.clique.bench;

import dev.clique.engine.Engine;
import dev.clique.engine.session.SessionException;
import dev.clique.engine.session.SessionView;
import dev.clique.engine.token.Scope;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * An engine for a benchmark, in this JVM: its own home, tmux socket and port, with sessions made
 * through the API. Closing it kills only its own tmux server and deletes its home. Its {@link
 * #main} runs one in a JVM of its own, for {@link EngineProcess}.
 */
final class BenchEngine implements AutoCloseable {
  /** A shell that reads no start-up files: its prompt comes back as soon as a command ends. */
  static final String QUIET_SHELL =
      "[cli.shell]\ncommand = \"bash\"\nargs = [\"--norc\", \"--noprofile\"]\n";

  final Engine engine;
  final Path home;
  final String writer;
  final String reader;
  final EngineApi api;
  final List<String> sessions = new ArrayList<>();

  private final String socket;

  private BenchEngine(Engine engine, Path home, String socket) throws IOException {
    this.engine = engine;
    this.home = home;
    this.socket = socket;
    this.writer = engine.tokens().create("bench", EnumSet.of(Scope.READ, Scope.WRITE), "").secret();
    this.reader = engine.tokens().create("bench-reader", EnumSet.of(Scope.READ), "").secret();
    this.api = new EngineApi(engine.url(), writer);
  }

  /**
   * Runs an engine with {@link #QUIET_SHELL} until stdin closes or the process is told to stop.
   * Prints one line first: its URL, a read/write token, its pid, its home (a working directory for
   * sessions) and its tmux socket.
   */
  public static void main(String[] args) throws Exception {
    BenchEngine bench = start(Map.of(), QUIET_SHELL);
    Runtime.getRuntime().addShutdownHook(new Thread(bench::closeQuietly));
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    out.println(
        bench.url()
            + " "
            + bench.writer
            + " "
            + ProcessHandle.current().pid()
            + " "
            + bench.home
            + " "
            + bench.socket);
    while (System.in.read() >= 0) {
      // runs until the benchmark closes our stdin
    }
    System.exit(0);
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
    String socket = "clique-bench-" + UUID.randomUUID();
    env.put("CLIQUE_TMUX_SOCKET", socket);
    env.put("CLIQUE_DISCOVER", "off"); // a benchmark measures its own sessions, nobody else's
    env.putAll(extraEnv);
    return new BenchEngine(Engine.start(env, "127.0.0.1", 0, true, "bench"), home, socket);
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
      sessions.add(api.create(cli, home, "bench-" + sessions.size()));
    }
  }

  private void closeQuietly() {
    try {
      close();
    } catch (IOException e) {
      // a temporary directory left behind
    }
  }

  @Override
  public void close() throws IOException {
    // Each session's whole process tree first: a CLI such as Gemini CLI outlives its tmux server.
    for (SessionView session : engine.sessions().sessions()) {
      try {
        engine.sessions().delete(session.id());
      } catch (SessionException e) {
        // gone already
      }
    }
    engine.close();
    engine.sessions().tmux().killServer();
    try (Stream<Path> paths = Files.walk(home)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
