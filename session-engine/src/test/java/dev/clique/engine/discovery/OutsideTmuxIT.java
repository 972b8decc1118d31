package dev.clique.engine.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.engine.testing.ApiClient;
import dev.clique.engine.testing.TestEngine;
import dev.clique.engine.testing.UserTmux;
import dev.clique.engine.token.Scope;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stand-in {@code claude} a person runs in a terminal of its own, no tmux anywhere near it (a
 * pseudo-terminal this test holds, as a terminal tab or an editor's terminal does), found by a real
 * engine from its process and its registry file: listed within a second, with where it runs, the
 * state its registry says, its conversation, a peek of that conversation, read-only, and stopped
 * within a second of its end. One without a terminal is listed only when headless ones are asked
 * for.
 */
class OutsideTmuxIT {
  /** The "about a second", with room for a loaded machine's scheduling. */
  private static final Duration WITHIN = Duration.ofMillis(1_500);

  @TempDir Path dir;
  private Path project;
  private Path claude;
  private Path claudeConfig;
  private TestEngine engine;
  private ApiClient api;
  private Process terminal;

  @BeforeEach
  void setUp() throws Exception {
    project = Files.createDirectories(dir.resolve("project")).toRealPath();
    claude = UserTmux.fakeClaude(dir);
    claudeConfig = dir.resolve("claude-config");
    // As on a machine where Claude Code ran before: its registry folder is there to be watched.
    Files.createDirectories(claudeConfig.resolve("sessions"));
  }

  @AfterEach
  void tearDown() throws Exception {
    if (terminal != null) {
      terminal.destroy();
      terminal.descendants().forEach(ProcessHandle::destroy);
      terminal.waitFor(5, TimeUnit.SECONDS);
    }
    if (engine != null) {
      engine.close();
    }
  }

  private void startEngine(Map<String, String> extra) throws IOException {
    Map<String, String> env = new HashMap<>(extra);
    env.put("CLIQUE_DISCOVER", "on");
    // No tmux server of a person's: only what runs outside tmux is there to find.
    env.put("TMUX_TMPDIR", Files.createDirectories(dir.resolve("no-tmux")).toString());
    env.put("CLAUDE_CONFIG_DIR", claudeConfig.toString());
    engine = TestEngine.startWith(Files.createDirectories(dir.resolve("home")), env);
    api = new ApiClient(engine.url(), engine.mint(EnumSet.of(Scope.READ, Scope.WRITE), ""));
  }

  @Test
  void aClaudeInATerminalOfItsOwnIsSeenLikeAnySessionAndIsReadOnly() throws Exception {
    startEngine(Map.of());
    long spawned = System.nanoTime();
    long pid = startInATerminal();
    long forked = System.nanoTime();
    JsonNode found = awaitSession(s -> s.path("source").path("pid").asLong() == pid, WITHIN);
    // From the terminal's process (the CLI to be) to the listing that shows it.
    Duration took = Duration.ofNanos(System.nanoTime() - forked);
    System.err.printf(
        "found outside tmux %d ms after its terminal's fork (%d ms after the spawn)%n",
        took.toMillis(), Duration.ofNanos(System.nanoTime() - spawned).toMillis());
    assertThat(took).isLessThan(WITHIN);
    String id = found.path("id").asText();
    assertThat(found.path("cli").asText()).isEqualTo("claude");
    assertThat(found.path("adopted").asBoolean(true)).isFalse();
    assertThat(found.path("alive").asBoolean()).isTrue();
    assertThat(found.path("cwd").asText()).isEqualTo(project.toString());
    assertThat(found.path("source").path("tty").asText()).matches("/dev/pts/[0-9]+");
    assertThat(found.path("source").has("socket")).isFalse();
    assertThat(found.path("name").asText()).contains("pts/");
    assertThat(found.path("cols").asInt()).isZero();

    JsonNode idle = awaitSession(s -> isIdleByRegistry(s, id), Duration.ofSeconds(5));
    assertThat(idle.path("state_source").path("evidence").asText())
        .isEqualTo("sessions/" + pid + ".json status idle");
    assertThat(idle.path("attention").isNull()).isTrue();

    JsonNode transcript = api.get("/api/sessions/" + id + "/transcript").body();
    assertThat(transcript.path("turns").toString())
        .contains("Where is the login test?")
        .contains("In src/test/LoginTest.java.");
    assertThat(transcript.path("transcript_source").path("exact").asBoolean()).isTrue();

    JsonNode peek = api.get("/api/sessions/" + id + "/peek?lines=5").body();
    assertThat(peek.path("screen").asBoolean(true)).isFalse();
    assertThat(peek.path("from").asText()).isEqualTo("conversation");
    assertThat(peek.path("alive").asBoolean()).isTrue();
    assertThat(peek.path("lines").toString())
        .contains("> Where is the login test?")
        .contains("In src/test/LoginTest.java.");

    for (ApiClient.Answer refused :
        List.of(
            api.post("/api/sessions/" + id + "/send", "{\"text\":\"hello\"}"),
            api.post("/api/sessions/" + id + "/kill", "{}"),
            api.post("/api/sessions/" + id + "/attention", "{\"state\":\"waiting\"}"),
            api.post("/api/sessions/adopt", "{\"id\":\"" + id + "\"}"),
            api.delete("/api/sessions/" + id))) {
      assertThat(refused.status()).as(refused.body().toString()).isEqualTo(403);
      assertThat(refused.body().path("error").asText()).contains("runs outside tmux");
    }

    // The person types in their own terminal: the registry's status is the state.
    type("ask");
    JsonNode waiting = api.get("/api/sessions/" + id + "/wait?for=waiting&timeout=10").body();
    assertThat(waiting.path("matched").asBoolean()).as(waiting.toString()).isTrue();
    JsonNode asking = sessionById(id);
    assertThat(asking.path("attention").path("kind").asText()).isEqualTo("permission");
    assertThat(asking.path("attention").path("detail").asText()).isEqualTo("permission prompt");
    type("hello");
    JsonNode working = api.get("/api/sessions/" + id + "/wait?for=working&timeout=10").body();
    assertThat(working.path("matched").asBoolean()).as(working.toString()).isTrue();
    JsonNode answered = api.get("/api/sessions/" + id + "/wait?for=idle&timeout=10").body();
    assertThat(answered.path("matched").asBoolean()).as(answered.toString()).isTrue();
    assertThat(api.get("/api/sessions/" + id + "/transcript").body().path("turns").toString())
        .contains("Noted: hello");
    // Its usage, read from its transcript as for any session: two answers of 10 in and 5 out.
    JsonNode used =
        awaitSession(
            s -> s.path("id").asText().equals(id) && s.path("usage").path("turns").asInt() == 2,
            Duration.ofSeconds(10));
    assertThat(used.path("usage").path("input_tokens").asLong()).isEqualTo(20);
    assertThat(used.path("usage").path("output_tokens").asLong()).isEqualTo(10);

    // The terminal closes: the CLI ends, and the session is stopped within about a second.
    ProcessHandle cli = ProcessHandle.of(pid).orElseThrow();
    terminal.getOutputStream().close();
    while (cli.isAlive()) {
      Thread.sleep(5);
    }
    long ended = System.nanoTime();
    JsonNode stopped = awaitSession(s -> isStopped(s, id), WITHIN);
    Duration stopping = Duration.ofNanos(System.nanoTime() - ended);
    System.err.println("stopped " + stopping.toMillis() + " ms after its end");
    assertThat(stopping).isLessThan(WITHIN);
    assertThat(terminal.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(stopped.path("alive").asBoolean(true)).isFalse();
    assertThat(stopped.path("state_source").path("authority").asText()).isEqualTo("process");
    JsonNode stoppedPeek = api.get("/api/sessions/" + id + "/peek").body();
    assertThat(stoppedPeek.path("alive").asBoolean(true)).isFalse();
    assertThat(stoppedPeek.path("screen").asBoolean(true)).isFalse();
  }

  @Test
  void aClaudeWithoutATerminalIsListedOnlyWhenHeadlessOnesAreAskedFor() throws Exception {
    startEngine(Map.of());
    long plain = startWithoutATerminal();
    JsonNode other = awaitSession(s -> s.path("source").path("pid").asLong() == plain, null);
    assertThat(other).as("no session for the process without a terminal").isNull();
    engine.close();
    engine = null;
    terminal.destroy();
    terminal.waitFor(5, TimeUnit.SECONDS);

    startEngine(Map.of("CLIQUE_DISCOVER_HEADLESS", "on"));
    long headless = startWithoutATerminal();
    JsonNode found = awaitSession(s -> s.path("source").path("pid").asLong() == headless, WITHIN);
    assertThat(found.path("source").has("tty")).isTrue();
    assertThat(found.path("source").path("tty").isNull()).isTrue();
    assertThat(found.path("name").asText()).isEqualTo("pid " + headless);
  }

  private static boolean isIdleByRegistry(JsonNode s, String id) {
    return s.path("id").asText().equals(id)
        && s.path("state").asText().equals("idle")
        && s.path("state_source").path("authority").asText().equals("registry");
  }

  private static boolean isStopped(JsonNode s, String id) {
    return s.path("id").asText().equals(id) && s.path("state").asText().equals("stopped");
  }

  /** Starts the stand-in in a terminal of its own; its pid. */
  private long startInATerminal() throws Exception {
    Path helper = resource("in-a-terminal");
    terminal = start(List.of(helper.toString(), claude.toString()));
    BufferedReader out =
        new BufferedReader(
            new InputStreamReader(terminal.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    assertThat(line).as("the terminal's command's pid").isNotNull();
    return Long.parseLong(line.strip());
  }

  /** Starts the stand-in with pipes for its input and output, no terminal; its pid. */
  private long startWithoutATerminal() throws Exception {
    terminal = start(List.of(claude.toString()));
    return terminal.pid();
  }

  private Process start(List<String> command) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(project.toFile());
    builder.environment().clear();
    builder.environment().put("PATH", System.getenv("PATH"));
    builder.environment().put("HOME", dir.toString());
    builder.environment().put("CLAUDE_CONFIG_DIR", claudeConfig.toString());
    builder.environment().put("LANG", "C.UTF-8");
    builder.redirectError(ProcessBuilder.Redirect.DISCARD);
    return builder.start();
  }

  private void type(String line) throws IOException {
    OutputStream in = terminal.getOutputStream();
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  private Path resource(String name) throws IOException {
    Path file = dir.resolve(name);
    try (InputStream in = OutsideTmuxIT.class.getResourceAsStream("/fake-cli/" + name)) {
      Files.copy(in, file);
    }
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
    return file;
  }

  private JsonNode sessionById(String id) throws Exception {
    return awaitSession(s -> s.path("id").asText().equals(id), Duration.ofSeconds(5));
  }

  /**
   * The first session that matches within {@code within}; with {@code within} null, looks for 3 s
   * and answers null when none matched (a session that must not be listed).
   */
  private JsonNode awaitSession(Predicate<JsonNode> match, Duration within) throws Exception {
    long deadline = System.nanoTime() + (within == null ? Duration.ofSeconds(3) : within).toNanos();
    JsonNode last = null;
    while (System.nanoTime() < deadline) {
      last = api.get("/api/state").body();
      for (JsonNode session : last.path("sessions")) {
        if (match.test(session)) {
          return session;
        }
      }
      Thread.sleep(50);
    }
    if (within == null) {
      return null;
    }
    throw new AssertionError("no such session within " + within + "; last: " + last);
  }
}
