package dev.clique.engine.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.home.CliqueHome;
import dev.clique.engine.state.Report;
import dev.clique.engine.state.SessionState;
import dev.clique.engine.testing.TestEngine;
import dev.clique.engine.token.Scope;
import java.io.IOException;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hook {@code clique hooks install} puts in a person's Claude Code settings, run as Claude Code
 * runs it ({@code sh -c <command>}, the event on stdin, this JVM as the CLI process that is its
 * parent), against a real engine on a throwaway home: the engine's registry holds the decoded
 * report for this process. With no engine the hook returns at once, prints nothing and exits 0; the
 * added time per event is measured and printed.
 */
class PersonalHooksIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int RUNS = 50;

  /** The most a hook may add to an event, median, when no engine runs. */
  private static final double MOST_MILLIS_WITHOUT_ENGINE = 20;

  /** ... and with one, which answers on loopback at once (measured near 12 ms, sh included). */
  private static final double MOST_MILLIS_WITH_ENGINE = 50;

  @TempDir Path dir;
  private Path home;
  private String command;

  @BeforeEach
  void install() throws Exception {
    home = dir.resolve("h");
    Path user = Files.createDirectories(dir.resolve("user"));
    Files.createDirectories(user.resolve(".claude"));
    PersonalHooks hooks = new PersonalHooks(new CliqueHome(home), user, Map.of());
    PersonalHooks.Target claude = hooks.target("claude").orElseThrow();
    hooks.install(claude);
    command =
        JSON.readTree(Files.readString(claude.file()))
            .path("hooks")
            .path("PermissionRequest")
            .get(0)
            .path("hooks")
            .get(0)
            .path("command")
            .asText();
  }

  @Test
  void theHookReportsTheEventWithItsCliProcessToTheRegistry() throws Exception {
    try (TestEngine engine = TestEngine.start(home)) {
      String event =
          "{\"hook_event_name\":\"PermissionRequest\",\"tool_name\":\"Bash\","
              + "\"tool_input\":{\"command\":\"make deploy\"}}";
      Hook run = hook(event, Map.of());
      assertThat(run.exit()).isZero();
      assertThat(run.output()).isEmpty();

      long self = ProcessHandle.current().pid();
      Report report = engine.engine.hookReports().latest(self, startTicks(self)).orElseThrow();
      assertThat(report.state()).isEqualTo(SessionState.WAITING);
      assertThat(report.attention().kind()).isEqualTo("permission");
      assertThat(report.attention().detail()).isEqualTo("Bash: make deploy");
      assertThat(report.authority()).isEqualTo("hook");

      hook("{\"hook_event_name\":\"Stop\"}", Map.of("CLIQUE_SESSION", "s1"));
      assertThat(engine.engine.hookReports().latest(self, startTicks(self)).orElseThrow().state())
          .as("inside a session the engine started, the person's hook does nothing")
          .isEqualTo(SessionState.WAITING);

      String token = engine.mint(EnumSet.of(Scope.READ, Scope.WRITE), "");
      assertThat(engine.send("POST", "/api/hooks/claude?pid=" + self, token, "{}").statusCode())
          .as("the TCP API has no such route, whatever the token")
          .isEqualTo(404);

      Path socket = home.resolve("engine.sock");
      assertThat(overSocket(socket, "/api/hooks/aider?pid=" + self, "{}"))
          .as("a CLI without opt-in hooks")
          .isEqualTo("400");
      assertThat(overSocket(socket, "/api/hooks/claude?pid=abc", "{}")).isEqualTo("400");
      assertThat(overSocket(socket, "/api/hooks/claude?pid=" + self, "not json")).isEqualTo("400");
      assertThat(overSocket(socket, "/api/hooks/claude?pid=" + self, "{\"no\":\"event\"}"))
          .isEqualTo("400");

      List<Double> with = times(event);
      double median = median(with);
      System.out.printf(
          "hook with an engine: median %.2f ms per event over %d runs%n", median, RUNS);
      assertThat(median).isLessThanOrEqualTo(MOST_MILLIS_WITH_ENGINE);
    }
  }

  @Test
  void withNoEngineTheHookReturnsAtOnceAndSaysNothing() throws Exception {
    String event = "{\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"hi\"}";
    assertThat(home.resolve("engine.sock")).doesNotExist();
    Hook run = hook(event, Map.of());
    assertThat(run.exit()).isZero();
    assertThat(run.output()).isEmpty();
    double noSocket = median(times(event));

    // A socket an engine left when it was killed: nobody listens, the connection is refused.
    Files.createDirectories(home);
    try (ServerSocketChannel stale = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      stale.bind(UnixDomainSocketAddress.of(home.resolve("engine.sock")));
    }
    assertThat(home.resolve("engine.sock")).exists();
    run = hook(event, Map.of());
    assertThat(run.exit()).isZero();
    assertThat(run.output()).isEmpty();
    double refused = median(times(event));

    double bare = median(times(null));
    System.out.printf(
        "hook with no engine: median %.2f ms per event (no socket), %.2f ms (socket refused);"
            + " an empty `sh -c` of the same event: %.2f ms; %d runs each%n",
        noSocket, refused, bare, RUNS);
    assertThat(noSocket).isLessThanOrEqualTo(MOST_MILLIS_WITHOUT_ENGINE);
    assertThat(refused).isLessThanOrEqualTo(MOST_MILLIS_WITHOUT_ENGINE);
  }

  /** The status of a POST over the operator socket, with curl. */
  private static String overSocket(Path socket, String path, String body) throws Exception {
    return run(
            "curl -s -o /dev/null -w '%{http_code}' --unix-socket '"
                + socket
                + "' -H 'Content-Type: application/json' --data-binary @- 'http://localhost"
                + path
                + "'",
            body,
            Map.of())
        .output();
  }

  private record Hook(int exit, String output) {}

  /** The hook's command run as a CLI runs it: {@code sh -c}, the event on its stdin. */
  private Hook hook(String event, Map<String, String> env) throws Exception {
    return run(command, event, env);
  }

  private static Hook run(String script, String event, Map<String, String> env) throws Exception {
    ProcessBuilder builder = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true);
    builder.environment().remove("CLIQUE_SESSION");
    builder.environment().putAll(env);
    Process process = builder.start();
    try (OutputStream in = process.getOutputStream()) {
      in.write(event.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      // the hook need not read it all
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
    return new Hook(process.exitValue(), output);
  }

  /**
   * Milliseconds each of {@value #RUNS} runs took, from start to exit: the hook's command, or with
   * {@code event} null an {@code sh -c} that reads the event and does nothing, for comparison.
   */
  private List<Double> times(String event) throws Exception {
    String body = event == null ? "{\"hook_event_name\":\"Stop\"}" : event;
    String script = event == null ? "cat >/dev/null; exit 0" : command;
    List<Double> all = new ArrayList<>();
    for (int i = 0; i < RUNS; i++) {
      long start = System.nanoTime();
      run(script, body, Map.of());
      all.add((System.nanoTime() - start) / 1e6);
    }
    return all;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }

  private static long startTicks(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(fields[19]);
  }
}
