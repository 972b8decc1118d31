package dev.clique.engine.bench;

import dev.clique.engine.Engine;
import dev.clique.engine.token.Scope;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

/**
 * The engine under {@link EngineBenchmark}, in a process of its own so its threads and CPU are its
 * own: args are the home and the tmux socket. Prints its URL, a read/write token and its pid, then
 * runs until its stdin closes.
 */
public final class BenchEngine {
  private BenchEngine() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> env =
        Map.of(
            "CLIQUE_HOME", args[0],
            "CLIQUE_TMUX_SOCKET", args[1],
            "PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"),
            "HOME", args[0]);
    try (Engine engine = Engine.start(env, "127.0.0.1", 0, true)) {
      String token = engine.tokens().create("bench", Set.of(Scope.READ, Scope.WRITE), "").secret();
      PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
      out.println(engine.url() + " " + token + " " + ProcessHandle.current().pid());
      while (System.in.read() >= 0) {
        // runs until the benchmark closes our stdin
      }
    }
  }
}
