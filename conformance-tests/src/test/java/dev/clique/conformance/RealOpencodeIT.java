package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.tmux.TmuxException;
import dev.clique.engine.tmux.TmuxProcess;
import dev.clique.models.AnthropicModelServer;
import dev.clique.models.ScriptedModelServer;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real opencode (1.18.33, as {@code agent-clis/package-lock.json} pins it) run as a clique
 * session against a scripted Anthropic Messages API on loopback: each screen a person would name is
 * brought up on purpose, and the state {@code /api/state} reports for it is checked, with how soon
 * it came. opencode starts slowly (some 15 s on a loaded machine), so the scenarios share one
 * session: ready prompt, a streamed answer, a shell call that asks for permission, the approval,
 * done, an API error, then kill.
 *
 * <p>Every test has its own engine (home, tmux socket, port), its own model server, and a throwaway
 * {@code HOME} (and XDG folders) for the pane: its {@code ~/.config/opencode/opencode.json} points
 * opencode's bundled Anthropic provider at 127.0.0.1 with a fake key and a model of its own, and
 * the environment turns off the models.dev fetch, auto-update, sharing, the default plugins and LSP
 * downloads. The config folder's node_modules and lock already name opencode's plugin package, so
 * opencode fetches nothing from npm; npm's registry is a closed port on loopback besides. The shell
 * tool asks first ({@code OPENCODE_PERMISSION}). The engine adds its own plugin for the run ({@code
 * OPENCODE_CONFIG_CONTENT}); input goes through the engine's own send.
 *
 * <p>The screens are watched directly with tmux, every {@value #TICK_MILLIS} ms, next to the
 * engine's answer: a state must show within {@link #SOON} of the screen that calls for it. One line
 * per screen goes to stderr: screen, expected, reported, delay, state_source.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RealOpencodeIT {
  /** How soon after a screen the engine must report its state. */
  static final Duration SOON = Duration.ofSeconds(1);

  /** How long a state is looked for after its screen, to tell "late" from "never". */
  static final Duration PATIENCE = Duration.ofSeconds(8);

  static final long TICK_MILLIS = 100;

  /** How long the CLI may take to come up. */
  static final Duration STARTUP = Duration.ofSeconds(60);

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String VERSION = AgentClis.pinned("opencode-ai");
  private static final String MODEL_LINE = "Build · Claude Scripted";
  private static final String BUSY = "esc interrupt";
  private static final String PERMISSION = "Permission required";
  private static final String CHOICES = "Allow once";
  private static final String SLOW_ANSWER =
      "Here is a slow answer that streams in many small pieces while the model talks about"
          + " the build, the tests and the release notes. That is all for now.";

  private final SoftAssertions softly = new SoftAssertions();
  private final Set<ProcessHandle> paneProcesses = new LinkedHashSet<>();
  private AnthropicModelServer model;
  private Path home;
  private Path project;
  private ThrowawayEngine engine;
  private TmuxProcess tmux;
  private String admin;
  private String id;
  private String lastScreen = "";
  private WaitProbe probe;

  @BeforeEach
  void setUp() throws IOException {
    model = new AnthropicModelServer("bash");
    home = Files.createTempDirectory("clique-it-opencode-home-");
    project = Files.createTempDirectory("clique-it-opencode-project-");
  }

  @AfterEach
  void tearDown() throws Exception {
    try {
      if (probe != null) {
        probe.close();
      }
      if (engine != null) {
        rememberPaneProcesses();
        engine.close();
      }
    } finally {
      SessionProcesses.stop(paneProcesses);
      model.close();
      ThrowawayEngine.deleteTree(home);
      ThrowawayEngine.deleteTree(project);
    }
    softly.assertAll();
  }

  @Test
  void oneSessionThroughReadyStreamingPermissionApprovalDoneErrorAndKill() throws Exception {
    String command = "sleep 3 && echo built > build.log";
    model.then(
        new ScriptedModelServer.Step.SlowText(SLOW_ANSWER, 12, Duration.ofSeconds(8)),
        new ScriptedModelServer.Step.ShellCall(command, "Pretend to build the project"),
        new ScriptedModelServer.Step.Text("The build finished and wrote build.log."),
        new ScriptedModelServer.Step.Failure(400, "invalid_request_error", "Scripted refusal."),
        new ScriptedModelServer.Step.Text("Answered this time."));
    start(config(model.url()));

    Look ready = awaitScreen("ready prompt", RealOpencodeIT::started, STARTUP);
    expectState("ready prompt", ready, "idle");
    softly
        .assertThat(engine.awaitCliVersion(admin, id, Duration.ofSeconds(5)))
        .as("cli_version of the session")
        .isEqualTo(VERSION);
    holds("ready prompt, 3 s on", "idle", Duration.ofSeconds(3));

    send(Map.of("text", "Explain the build slowly", "enter", true));
    Look streaming =
        awaitScreen(
            "slow answer", s -> s.contains("Here is a slow") && busy(s), Duration.ofSeconds(30));
    expectState("slow answer", streaming, "working");
    Look done =
        holdsUntil(
            "slow answer, while streaming",
            "working",
            s -> ready(s) && s.contains("That is all for now."),
            Duration.ofSeconds(40));
    expectState("answer done", done, "idle");

    send(Map.of("text", "Build the project", "enter", true));
    Look asking =
        awaitScreen(
            "shell permission",
            s -> s.contains(PERMISSION) && s.contains(CHOICES),
            Duration.ofSeconds(30));
    Look waiting = expectState("shell permission", asking, "waiting");
    JsonNode attention = waiting.attention();
    softly
        .assertThat(attention.path("kind").asText())
        .as("attention.kind on the permission box (attention: %s)", attention)
        .isEqualTo("permission");
    softly
        .assertThat(attention.path("detail").asText())
        .as("attention.detail names the command (attention: %s)", attention)
        .contains("sleep 3");
    softly
        .assertThat(waiting.source())
        .as("the plugin said it, not the screen")
        .startsWith("hook permission.asked");
    holds("shell permission, 3 s on", "waiting", Duration.ofSeconds(3));

    Look approved = send(Map.of("key", "Enter"));
    expectState("approval given", approved, "working");
    Look built =
        holdsUntil(
            "shell running, then the answer",
            "working",
            s -> ready(s) && s.contains("wrote build.log."),
            Duration.ofSeconds(40));
    expectState("done after the shell call", built, "idle");
    softly.assertThat(project.resolve("build.log")).as("the approved command ran").exists();

    send(Map.of("text", "Trigger an error", "enter", true));
    Look failed =
        awaitScreen(
            "API error", s -> s.contains("Scripted refusal.") && ready(s), Duration.ofSeconds(30));
    Look error = expectState("API error", failed, "error");
    softly
        .assertThat(error.attention().path("kind").asText())
        .as("attention.kind on the API error (attention: %s)", error.attention())
        .isEqualTo("error");
    softly
        .assertThat(error.attention().path("detail").asText())
        .as("attention.detail of the API error")
        .contains("Scripted refusal.");
    holds("API error, 3 s on", "error", Duration.ofSeconds(3));

    send(Map.of("text", "Try again", "enter", true));
    Look answered =
        awaitScreen(
            "answer after the error",
            s -> ready(s) && s.contains("Answered this time."),
            Duration.ofSeconds(30));
    expectState("answer after the error", answered, "idle");

    Path config = home.resolve(".config/opencode");
    try (var files = Files.list(config.resolve("node_modules"))) {
      softly.assertThat(files.toList()).as("opencode installed nothing from npm").isEmpty();
    }
    List<String> ownConfig = new ArrayList<>();
    try (var files = Files.walk(config)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        ownConfig.add(Files.readString(file));
      }
    }
    softly
        .assertThat(ownConfig)
        .as("the person's own config folder: the engine's plugin is not in it")
        .noneMatch(text -> text.contains("CLIQUE_ATTENTION_TOKEN"));

    theConversationIsTheOneOpencodeItselfRecorded();
    killStopsEveryProcess();
  }

  @Test
  void theCliExitingAtStartIsStopped() throws Exception {
    // opencode refuses a config file it cannot parse: it prints where and exits 1.
    start("{ \"provider\": { not json");
    Look gone =
        awaitScreen(
            "CLI exited at start", s -> s.isEmpty() || Tmux.paneDead(engine.socket, id), STARTUP);
    Look stopped = expectState("CLI exited at start", gone, "stopped");
    long exited = System.nanoTime() + seconds(3).toNanos();
    while ((stopped.session() == null || !stopped.session().path("exit_status").isInt())
        && System.nanoTime() < exited) {
      Thread.sleep(TICK_MILLIS);
      stopped = look();
    }
    HttpResponse<String> peek = engine.get("/api/sessions/" + id + "/peek?lines=20", admin);
    JsonNode lines = ThrowawayEngine.json(peek.body()).path("lines");
    JsonNode status = stopped.session() == null ? null : stopped.session().path("exit_status");
    table("exit status", "1", String.valueOf(status), -1, "");
    softly.assertThat(status == null ? -1 : status.asInt(-1)).as("exit_status").isEqualTo(1);
    softly
        .assertThat(lines.toString())
        .as("its last lines stay readable")
        .contains("is not valid JSON");
  }

  /**
   * The conversation the engine reads from opencode's database is the one opencode's own {@code
   * export} prints of the same session: its prompts (the failed one and the retry merged, as it
   * keeps both) and its answers, turn for turn.
   */
  private void theConversationIsTheOneOpencodeItselfRecorded() throws Exception {
    JsonNode expected =
        RecordedConversation.expectedTurns(
            new String[][] {
              {"Explain the build slowly", SLOW_ANSWER},
              {"Build the project", "The build finished and wrote build.log."},
              {"Trigger an error\n\nTry again", "Answered this time."}
            });
    JsonNode turns = RecordedConversation.turns(engine, admin, id, expected.size(), seconds(5));
    JsonNode sessions = JSON.readTree(opencode("session", "list", "--format", "json"));
    softly.assertThat(sessions.size()).as("opencode's sessions: %s", sessions).isEqualTo(1);
    String session = sessions.path(0).path("id").asText();
    JsonNode own = ownTurns(JSON.readTree(opencode("export", session)));
    System.err.printf(
        "opencode-real | conversation turns: %d read by clique, %d in opencode's own export of %s%n",
        turns.size(), own.size(), session);
    softly.assertThat(own).as("opencode's own export of its session").isEqualTo(expected);
    softly.assertThat(turns).as("the conversation the engine read").isEqualTo(own);
  }

  /** The turns of an export: each message's text parts, consecutive ones of a role merged. */
  private static JsonNode ownTurns(JsonNode export) {
    var turns = JSON.createArrayNode();
    for (JsonNode message : export.path("messages")) {
      String role = message.path("info").path("role").asText();
      for (JsonNode part : message.path("parts")) {
        if (!part.path("type").asText().equals("text") || part.path("synthetic").asBoolean()) {
          continue;
        }
        String text = part.path("text").asText().strip();
        JsonNode last = turns.isEmpty() ? null : turns.get(turns.size() - 1);
        if (last != null && last.path("role").asText().equals(role)) {
          ((com.fasterxml.jackson.databind.node.ObjectNode) last)
              .put("text", last.path("text").asText() + "\n\n" + text);
        } else if (!text.isEmpty()) {
          turns.addObject().put("role", role).put("text", text);
        }
      }
    }
    return turns;
  }

  /** opencode's own command line, in the pane's environment; its standard output. */
  private String opencode(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(AgentClis.bin().resolve("opencode").toString());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(project.toFile());
    builder.environment().clear();
    builder.environment().putAll(paneEnvironment());
    builder.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process process = builder.start();
    byte[] out = process.getInputStream().readAllBytes();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("opencode %s ended", command).isTrue();
    assertThat(process.exitValue()).as("opencode %s", command).isZero();
    return new String(out, java.nio.charset.StandardCharsets.UTF_8);
  }

  private void killStopsEveryProcess() throws Exception {
    List<ProcessHandle> tree = paneTree();
    System.err.println(
        "opencode-real | pane processes: "
            + tree.stream().map(SessionProcesses::describe).toList());
    HttpResponse<String> killed = engine.post("/api/sessions/" + id + "/kill", admin, "{}");
    assertThat(killed.statusCode()).as("kill answered %s", killed.body()).isEqualTo(200);
    long at = System.currentTimeMillis();
    Look stopped = pollUntil(l -> "stopped".equals(l.state()), seconds(5));
    table(
        "killed",
        "stopped",
        stopped == null ? look().state() : "stopped",
        stopped == null ? -1 : stopped.at() - at,
        "");
    softly.assertThat(stopped).as("state after POST /kill").isNotNull();
    List<String> survivors = SessionProcesses.survivors(tree, seconds(5));
    table(
        "processes after kill",
        "none",
        survivors.isEmpty() ? "none" : survivors.size() + "",
        -1,
        "");
    softly.assertThat(survivors).as("processes of the session alive 5 s after kill").isEmpty();
  }

  // --- the session ---

  /** opencode's config: its Anthropic provider on the scripted server, with a model of its own. */
  private static String config(String modelUrl) {
    return """
        {
          "$schema": "https://opencode.ai/config.json",
          "model": "anthropic/claude-scripted",
          "small_model": "anthropic/claude-scripted",
          "autoupdate": false,
          "share": "disabled",
          "provider": {
            "anthropic": {
              "options": {"baseURL": "%s/v1", "apiKey": "sk-ant-fake-key-for-a-scripted-model"},
              "models": {
                "claude-scripted": {
                  "name": "Claude Scripted",
                  "tool_call": true,
                  "limit": {"context": 200000, "output": 8192}
                }
              }
            }
          }
        }
        """
        .formatted(modelUrl);
  }

  /** Starts an engine whose panes find the real CLI and the model server, and one session. */
  private void start(String configJson) throws Exception {
    Path config = Files.createDirectories(home.resolve(".config/opencode"));
    Files.writeString(config.resolve("opencode.json"), configJson);
    // opencode installs its plugin package into each config folder from npm unless the folder's
    // node_modules and lock already hold it: they say so here, and nothing is fetched.
    Files.createDirectories(config.resolve("node_modules"));
    Files.writeString(
        config.resolve("package.json"),
        "{\"dependencies\": {\"@opencode-ai/plugin\": \"" + VERSION + "\"}}");
    Files.writeString(
        config.resolve("package-lock.json"),
        "{\"packages\": {\"\": {\"dependencies\": {\"@opencode-ai/plugin\": \""
            + VERSION
            + "\"}}}}");
    engine = ThrowawayEngine.prepare().withEnv(paneEnvironment()).start();
    tmux = new TmuxProcess("tmux", engine.socket, Duration.ofSeconds(10));
    admin = engine.mintToken("opencode-it-admin", false);
    String body = JSON.writeValueAsString(Map.of("cli", "opencode", "cwd", project.toString()));
    HttpResponse<String> created = engine.post("/api/sessions", admin, body);
    assertThat(created.statusCode()).as("creating the session: %s", created.body()).isEqualTo(201);
    id = ThrowawayEngine.json(created.body()).path("id").asText();
    probe = WaitProbe.start(engine, admin, id);
  }

  /**
   * The environment of the engine and so of its panes: a throwaway home and XDG folders, the real
   * CLI first on PATH, nothing that phones out, the shell tool asking first.
   */
  private Map<String, String> paneEnvironment() {
    return Map.ofEntries(
        Map.entry("HOME", home.toString()),
        Map.entry("XDG_CONFIG_HOME", home.resolve(".config").toString()),
        Map.entry("XDG_DATA_HOME", home.resolve(".local/share").toString()),
        Map.entry("XDG_CACHE_HOME", home.resolve(".cache").toString()),
        Map.entry("XDG_STATE_HOME", home.resolve(".local/state").toString()),
        Map.entry("PATH", AgentClis.path()),
        Map.entry("OPENCODE_DISABLE_MODELS_FETCH", "1"),
        Map.entry("OPENCODE_DISABLE_AUTOUPDATE", "1"),
        Map.entry("OPENCODE_DISABLE_DEFAULT_PLUGINS", "1"),
        Map.entry("OPENCODE_DISABLE_LSP_DOWNLOAD", "1"),
        Map.entry("OPENCODE_DISABLE_SHARE", "1"),
        Map.entry("OPENCODE_PERMISSION", "{\"bash\":\"ask\"}"),
        Map.entry("npm_config_registry", "http://127.0.0.1:9/"),
        Map.entry("npm_config_offline", "true"));
  }

  /** Sends through the engine's API and returns a look taken right after the engine answered. */
  private Look send(Map<String, Object> body) throws Exception {
    HttpResponse<String> sent =
        engine.post("/api/sessions/" + id + "/send", admin, JSON.writeValueAsString(body));
    assertThat(sent.statusCode()).as("send %s: %s", body, sent.body()).isEqualTo(200);
    return look();
  }

  private static boolean busy(String screen) {
    return bottom(screen, 3).contains(BUSY);
  }

  /** The prompt box, no permission box under the last answer, and no busy status line. */
  private static boolean ready(String screen) {
    return bottom(screen, 6).contains(MODEL_LINE)
        && !busy(screen)
        && !bottom(screen, 12).contains(CHOICES);
  }

  /** The first screen once it has started: the prompt box and its version in the footer. */
  private static boolean started(String screen) {
    return ready(screen) && bottom(screen, 2).contains(VERSION);
  }

  /** The last {@code n} lines of the screen that are not blank. */
  private static String bottom(String screen, int n) {
    List<String> lines = screen.lines().filter(l -> !l.isBlank()).toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
  }

  // --- looking ---

  /**
   * One look: when it began, the screen as tmux shows it ("" once the session is gone), the
   * engine's row, and when ({@link System#nanoTime}) the engine's answer came.
   */
  record Look(long at, String screen, JsonNode session, long stateAt) {
    String state() {
      return session == null ? "(no row)" : session.path("state").asText();
    }

    JsonNode attention() {
      return session == null ? JSON.missingNode() : session.path("attention");
    }

    /** Who decided the state, and on what evidence: {@code hook permission.asked bash}. */
    String source() {
      return session == null
          ? ""
          : session.at("/state_source/authority").asText()
              + " "
              + session.at("/state_source/evidence").asText();
    }
  }

  private Look look() throws IOException, InterruptedException {
    long at = System.currentTimeMillis();
    String screen;
    try {
      screen = tmux.captureScreen(id);
    } catch (TmuxException e) {
      screen = "";
    }
    JsonNode row = null;
    HttpResponse<String> state = engine.get("/api/state", admin);
    if (state.statusCode() == 200) {
      for (JsonNode session : ThrowawayEngine.json(state.body()).path("sessions")) {
        if (session.path("id").asText().equals(id)) {
          row = session;
        }
      }
    }
    if (!screen.isEmpty()) {
      lastScreen = screen;
    }
    return new Look(at, screen, row, System.nanoTime());
  }

  private String lastScreen() {
    return lastScreen;
  }

  /** Looks every tick until {@code match} holds; null when it never did within {@code timeout}. */
  private Look pollUntil(Predicate<Look> match, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Look look = look();
      if (match.test(look)) {
        return look;
      }
      if (System.nanoTime() > deadline) {
        return null;
      }
      Thread.sleep(TICK_MILLIS);
    }
  }

  /** Waits for a screen the scenario needs; the test cannot go on without it. */
  private Look awaitScreen(String name, Predicate<String> shown, Duration timeout)
      throws Exception {
    Look look = pollUntil(l -> shown.test(l.screen()), timeout);
    if (look == null) {
      throw new AssertionError(
          "the "
              + name
              + " never appeared within "
              + timeout
              + "; model requests: "
              + model.received().stream().map(r -> r.method() + " " + r.path()).toList()
              + "; last screen:\n"
              + lastScreen);
    }
    return look;
  }

  /**
   * From the look at which a screen appeared, looks until the engine reports {@code expected}: it
   * must within {@link #SOON}. Returns the look that reported it, or the last one.
   */
  private Look expectState(String screen, Look shown, String expected) throws Exception {
    Look look = shown;
    long deadline = shown.at() + PATIENCE.toMillis();
    while (!expected.equals(look.state()) && System.currentTimeMillis() < deadline) {
      Thread.sleep(TICK_MILLIS);
      look = look();
    }
    boolean reported = expected.equals(look.state());
    long delay = look.at() - shown.at();
    Long waitLag = reported ? probe.lagMillis(expected, look.stateAt()) : null;
    table(
        screen,
        expected,
        reported ? expected : look.state(),
        reported ? delay : -1,
        (waitLag == null ? "" : "wait " + (waitLag > 0 ? "+" : "") + waitLag + " ms | ")
            + look.source());
    softly
        .assertThat(look.state())
        .as("state on the %s (source: %s)", screen, look.session())
        .isEqualTo(expected);
    if (reported) {
      softly
          .assertThat(delay)
          .as("ms from the %s to state %s", screen, expected)
          .isLessThanOrEqualTo(SOON.toMillis());
      softly
          .assertThat(waitLag)
          .as(
              "ms from /api/state showing %s on the %s to a wait answering it (answers: %s; %s)",
              expected, screen, probe.answers(), probe.failure())
          .isNotNull()
          .isLessThanOrEqualTo(WaitProbe.WITHIN.toMillis());
    }
    return look;
  }

  /** The state stays {@code expected} for {@code span}: every look reports it. */
  private void holds(String screen, String expected, Duration span) throws Exception {
    long end = System.currentTimeMillis() + span.toMillis();
    List<String> other = new ArrayList<>();
    while (System.currentTimeMillis() < end) {
      Look look = look();
      if (!expected.equals(look.state())) {
        other.add(look.state());
      }
      Thread.sleep(TICK_MILLIS);
    }
    table(screen, expected, other.isEmpty() ? expected : "also " + Set.copyOf(other), -1, "");
    softly.assertThat(other).as("states other than %s on the %s", expected, screen).isEmpty();
  }

  /**
   * Every look until the screen shows {@code until} must report {@code expected}; returns the look
   * at which {@code until} showed. opencode's own event may say the turn ended a moment before its
   * terminal draws it (the plugin and the screen hear opencode's bus apart): a state the CLI itself
   * reported, at most {@link #SOON} before the screen that calls for it, is early, not wrong, and
   * the table says by how much.
   */
  private Look holdsUntil(String screen, String expected, Predicate<String> until, Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<Look> other = new ArrayList<>();
    int looks = 0;
    while (true) {
      Look look = look();
      if (until.test(look.screen())) {
        List<Look> early =
            other.stream()
                .filter(
                    l -> l.source().startsWith("hook ") && look.at() - l.at() <= SOON.toMillis())
                .toList();
        List<String> wrong =
            other.stream().filter(l -> !early.contains(l)).map(Look::state).toList();
        String reported =
            wrong.isEmpty() ? expected : wrong.size() + "/" + looks + " looks " + Set.copyOf(wrong);
        String note =
            early.isEmpty()
                ? ""
                : early.get(0).state()
                    + " from the CLI "
                    + (look.at() - early.get(0).at())
                    + " ms before the screen ("
                    + early.get(0).source()
                    + ")";
        table(screen, expected, reported, -1, note);
        softly
            .assertThat(wrong)
            .as("states other than %s while %s (%d looks)", expected, screen, looks)
            .isEmpty();
        return look;
      }
      looks++;
      if (!expected.equals(look.state())) {
        other.add(look);
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            screen + ": the screen never moved on within " + timeout + "; last:\n" + lastScreen);
      }
      Thread.sleep(TICK_MILLIS);
    }
  }

  /** One line of the table on stderr: screen, expected, reported, delay, state_source. */
  private static void table(
      String screen, String expected, String reported, long delayMillis, String source) {
    System.err.printf(
        "opencode-real | %-34s | expected %-8s | reported %-22s | %8s | %s%n",
        screen, expected, reported, delayMillis < 0 ? "-" : delayMillis + " ms", source);
  }

  private static Duration seconds(long n) {
    return Duration.ofSeconds(n);
  }

  // --- processes ---

  /** The session's processes, now (and remembered, so that the suite can stop survivors). */
  private List<ProcessHandle> paneTree() throws TmuxException {
    List<ProcessHandle> tree = SessionProcesses.of(tmux, id);
    paneProcesses.addAll(tree);
    return tree;
  }

  private void rememberPaneProcesses() {
    try {
      paneTree();
    } catch (TmuxException e) {
      // no tmux server left: what was seen before is all there is
    }
  }
}
