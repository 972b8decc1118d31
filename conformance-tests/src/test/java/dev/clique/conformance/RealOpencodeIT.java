package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.conformance.ScreenWatch.Look;
import dev.clique.models.AnthropicModelServer;
import dev.clique.models.ScriptedModelServer;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
 * <p>The screens are watched directly with tmux, every {@value ScreenWatch#TICK_MILLIS} ms, next to
 * the engine's answer: a state must show within {@link ScreenWatch#SOON} of the screen that calls
 * for it. One line per screen goes to stderr: screen, expected, reported, delay, state_source.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RealOpencodeIT {
  /** How long the CLI may take to come up. */
  static final Duration STARTUP = Duration.ofSeconds(60);

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String VERSION = AgentClis.pinned("opencode-ai");
  private static final String MODEL_LINE = "Build · Claude Scripted";
  private static final ScriptedModelServer.Tokens TOKENS =
      new ScriptedModelServer.Tokens(1234, 56, 700, 300);
  private static final String BUSY = "esc interrupt";
  private static final String PERMISSION = "Permission required";
  private static final String CHOICES = "Allow once";

  /** Anthropic's words for an API key over its request rate limit. */
  private static final String LIMIT_WORDS =
      "Rate limit reached: this organization's rate limit of 50 requests per minute was exceeded.";

  /** What the model asks through opencode's question tool, with two choices. */
  private static final String QUESTION = "Which build should I run?";

  private static final String QUESTION_CALL =
      "{\"questions\":[{\"question\":\""
          + QUESTION
          + "\",\"header\":\"Build\",\"options\":["
          + "{\"label\":\"Quick build\",\"description\":\"Only the changed modules\"},"
          + "{\"label\":\"Full build\",\"description\":\"Every module and its tests\"}]}]}";

  private static final String AFTER_QUESTION = "Going with the quick build.";

  private static final String SLOW_ANSWER =
      "Here is a slow answer that streams in many small pieces while the model talks about"
          + " the build, the tests and the release notes. That is all for now.";

  private final SoftAssertions softly = new SoftAssertions();
  private AnthropicModelServer model;
  private Path home;
  private Path project;
  private ThrowawayEngine engine;
  private String admin;
  private String id;
  private ScreenWatch watch;

  @BeforeEach
  void setUp() throws IOException {
    model = new AnthropicModelServer("bash");
    home = Files.createTempDirectory("clique-it-opencode-home-");
    project = Files.createTempDirectory("clique-it-opencode-project-");
  }

  @AfterEach
  void tearDown() throws Exception {
    ScreenWatch.endTest(watch, engine, model, home, project);
    softly.assertAll();
  }

  @Test
  void oneSessionThroughReadyStreamingPermissionApprovalDoneErrorAndKill() throws Exception {
    String command = "sleep 3 && echo built > build.log";
    // Each answer reports these counts; Anthropic counts the cache apart from the input.
    model.answering(TOKENS);
    model.then(
        new ScriptedModelServer.Step.SlowText(SLOW_ANSWER, 12, Duration.ofSeconds(8)),
        new ScriptedModelServer.Step.ShellCall(command, "Pretend to build the project"),
        new ScriptedModelServer.Step.Text("The build finished and wrote build.log."),
        new ScriptedModelServer.Step.ToolCall("question", QUESTION_CALL),
        new ScriptedModelServer.Step.Text(AFTER_QUESTION),
        new ScriptedModelServer.Step.Failure(400, "invalid_request_error", "Scripted refusal."),
        new ScriptedModelServer.Step.Text("Answered this time."));
    start(config(model.url()));

    Look ready = watch.awaitScreen("ready prompt", RealOpencodeIT::started, STARTUP);
    watch.expectState("ready prompt", ready, "idle");
    softly
        .assertThat(engine.awaitCliVersion(admin, id, Duration.ofSeconds(5)))
        .as("cli_version of the session")
        .isEqualTo(VERSION);
    watch.holds("ready prompt, 3 s on", "idle", Duration.ofSeconds(3));

    watch.send(Map.of("text", "Explain the build slowly", "enter", true));
    Look streaming =
        watch.awaitScreen(
            "slow answer", s -> s.contains("Here is a slow") && busy(s), Duration.ofSeconds(30));
    watch.expectState("slow answer", streaming, "working");
    Look done =
        watch.holdsUntil(
            "slow answer, while streaming",
            "working",
            s -> ready(s) && s.contains("That is all for now."),
            Duration.ofSeconds(40),
            ScreenWatch.Ahead.fromTheCli("idle", ScreenWatch.SOON));
    watch.expectState("answer done", done, "idle");

    watch.send(Map.of("text", "Build the project", "enter", true));
    Look asking =
        watch.awaitScreen(
            "shell permission",
            s -> s.contains(PERMISSION) && s.contains(CHOICES),
            Duration.ofSeconds(30));
    Look waiting = watch.expectState("shell permission", asking, "waiting");
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
    watch.holds("shell permission, 3 s on", "waiting", Duration.ofSeconds(3));

    Look approved = watch.send(Map.of("key", "Enter"));
    watch.expectState("approval given", approved, "working");
    Look built =
        watch.holdsUntil(
            "shell running, then the answer",
            "working",
            s -> ready(s) && s.contains("wrote build.log."),
            Duration.ofSeconds(40),
            ScreenWatch.Ahead.fromTheCli("idle", ScreenWatch.SOON));
    watch.expectState("done after the shell call", built, "idle");
    softly.assertThat(project.resolve("build.log")).as("the approved command ran").exists();

    // opencode's own question tool: the model asks the person to choose, in a box of choices.
    watch.send(Map.of("text", "Ask me which build to run", "enter", true));
    Look questioned =
        watch.awaitScreen(
            "question box",
            s -> s.contains(QUESTION) && s.contains("Quick build"),
            Duration.ofSeconds(30));
    Look asked = watch.expectState("question box", questioned, "waiting");
    softly
        .assertThat(asked.attention().path("kind").asText())
        .as("attention.kind on the question box (attention: %s)", asked.attention())
        .isEqualTo("question");
    softly
        .assertThat(asked.attention().path("detail").asText())
        .as("attention.detail is the question (attention: %s)", asked.attention())
        .isEqualTo(QUESTION);
    softly
        .assertThat(asked.source())
        .as("the plugin said it, not the screen")
        .startsWith("hook question.asked");
    watch.holds("question box, 3 s on", "waiting", Duration.ofSeconds(3));
    Look chosen = watch.send(Map.of("key", "Enter"));
    watch.expectState("choice made", chosen, "working");
    Look afterChoice =
        watch.holdsUntil(
            "the answer after the choice",
            "working",
            s -> ready(s) && s.contains(AFTER_QUESTION),
            Duration.ofSeconds(40),
            ScreenWatch.Ahead.fromTheCli("idle", ScreenWatch.SOON));
    watch.expectState("done after the choice", afterChoice, "idle");

    watch.send(Map.of("text", "Trigger an error", "enter", true));
    Look failed =
        watch.awaitScreen(
            "API error", s -> s.contains("Scripted refusal.") && ready(s), Duration.ofSeconds(30));
    Look error = watch.expectState("API error", failed, "error");
    softly
        .assertThat(error.attention().path("kind").asText())
        .as("attention.kind on the API error (attention: %s)", error.attention())
        .isEqualTo("error");
    softly
        .assertThat(error.attention().path("detail").asText())
        .as("attention.detail of the API error")
        .contains("Scripted refusal.");
    watch.holds("API error, 3 s on", "error", Duration.ofSeconds(3));

    watch.send(Map.of("text", "Try again", "enter", true));
    Look answered =
        watch.awaitScreen(
            "answer after the error",
            s -> ready(s) && s.contains("Answered this time."),
            Duration.ofSeconds(30));
    watch.expectState("answer after the error", answered, "idle");

    // Its provider's rate limit: a 429 rate_limit_error whose retry-after names a time two
    // minutes on, for every try of the turn. opencode tries again by itself then; meanwhile nothing
    // is broken, and the session needs a person only to wait or switch: waiting, with when it
    // tries again. The person stops the tries (Esc) and asks again once the limit has lifted.
    model.then(
        new ScriptedModelServer.Step.UsageLimit(LIMIT_WORDS, Instant.now().plusSeconds(120)),
        new ScriptedModelServer.Step.Text("Answered after the limit."));
    watch.send(Map.of("text", "Summarise the log", "enter", true));
    Look limited =
        watch.expectUsageLimit(
            "usage limit (429)", s -> s.contains("Rate limit reached"), Duration.ofSeconds(30));
    softly
        .assertThat(limited.attention().path("detail").asText())
        .as("attention.detail: the provider's words")
        .contains("Rate limit reached");
    softly
        .assertThat(limited.attention().path("resets_at").asText())
        .as("attention.resets_at: when opencode tries again (attention: %s)", limited.attention())
        .isNotEmpty();
    watch.holds("usage limit, 3 s on", "waiting", Duration.ofSeconds(3));
    // opencode stops its work at a second Esc, pressed once it says "esc again to interrupt".
    watch.send(Map.of("key", "Escape"));
    watch.awaitScreen(
        "esc again", s -> s.contains("esc again to interrupt"), Duration.ofSeconds(5));
    watch.send(Map.of("key", "Escape"));
    Look stopped =
        watch.awaitScreen(
            "tries stopped", s -> ready(s) && !s.contains("retrying in"), Duration.ofSeconds(10));
    watch.expectState("tries stopped", stopped, "idle");
    watch.send(Map.of("text", "Try again", "enter", true));
    Look afterLimit =
        watch.awaitScreen(
            "answer after the usage limit",
            s -> ready(s) && s.contains("Answered after the limit."),
            Duration.ofSeconds(30));
    watch.expectState("answer after the usage limit", afterLimit, "idle");

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

    JsonNode conversation = theConversationIsTheOneOpencodeItselfRecorded();
    // Seven answers reported their tokens (the refused request and the limit's tries none): the
    // slow one, the shell call and the answer after it, the question and the answer after it, the
    // answers after the error and after the limit.
    Map<String, Long> sent = UsageProof.sent(TOKENS, 7);
    softly
        .assertThat(UsageProof.await(engine, admin, id, "opencode-real", sent, seconds(10)))
        .as("usage read from opencode's database, beside what the server sent")
        .isEqualTo(sent);
    killStopsEveryProcess();
    restartResumesItsOwnSession(conversation);
  }

  /**
   * Started again under the same id, opencode goes on with the session it chose an id for itself
   * (the engine heard it from the plugin, and starts it with {@code --session}): it shows the last
   * answer, the conversation is the one it had, and opencode has no second session.
   */
  private void restartResumesItsOwnSession(JsonNode before) throws Exception {
    watch.startAgain(s -> ready(s) && s.contains("Answered after the limit."), STARTUP);
    JsonNode after = RecordedConversation.turns(engine, admin, id, before.size(), seconds(3));
    softly.assertThat(after).as("the conversation after the restart").isEqualTo(before);
    JsonNode sessions =
        JSON.readTree(opencode(project, home, "session", "list", "--format", "json"));
    softly.assertThat(sessions.size()).as("opencode's sessions after the restart").isEqualTo(1);
  }

  @Test
  void theCliExitingAtStartIsStopped() throws Exception {
    // opencode refuses a config file it cannot parse: it prints where and exits 1.
    start("{ \"provider\": { not json");
    Look gone =
        watch.awaitScreen(
            "CLI exited at start", s -> s.isEmpty() || Tmux.paneDead(engine.socket, id), STARTUP);
    Look stopped = watch.awaitExitStatus(watch.expectState("CLI exited at start", gone, "stopped"));
    HttpResponse<String> peek = engine.get("/api/sessions/" + id + "/peek?lines=20", admin);
    JsonNode lines = ThrowawayEngine.json(peek.body()).path("lines");
    JsonNode status = stopped.session() == null ? null : stopped.session().path("exit_status");
    watch.table("exit status", "1", String.valueOf(status), -1, "");
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
  private JsonNode theConversationIsTheOneOpencodeItselfRecorded() throws Exception {
    JsonNode expected =
        RecordedConversation.expectedTurns(
            new String[][] {
              {"Explain the build slowly", SLOW_ANSWER},
              {"Build the project", "The build finished and wrote build.log."},
              {"Ask me which build to run", AFTER_QUESTION},
              {"Trigger an error\n\nTry again", "Answered this time."},
              {"Summarise the log\n\nTry again", "Answered after the limit."}
            });
    JsonNode turns = RecordedConversation.turns(engine, admin, id, expected.size(), seconds(5));
    JsonNode sessions =
        JSON.readTree(opencode(project, home, "session", "list", "--format", "json"));
    softly.assertThat(sessions.size()).as("opencode's sessions: %s", sessions).isEqualTo(1);
    String session = sessions.path(0).path("id").asText();
    JsonNode own = ownTurns(JSON.readTree(opencode(project, home, "export", session)));
    System.err.printf(
        "opencode-real | conversation turns: %d read by clique, %d in opencode's own export of %s%n",
        turns.size(), own.size(), session);
    softly.assertThat(own).as("opencode's own export of its session").isEqualTo(expected);
    softly.assertThat(turns).as("the conversation the engine read").isEqualTo(own);
    return turns;
  }

  /** The turns of an export: each message's text parts, consecutive ones of a role merged. */
  static JsonNode ownTurns(JsonNode export) {
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

  /**
   * opencode's own command line in {@code project}, with {@code home}'s environment; its output.
   */
  static String opencode(Path project, Path home, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(AgentClis.bin().resolve("opencode").toString());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(project.toFile());
    builder.environment().clear();
    builder.environment().putAll(paneEnvironment(home));
    builder.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process process = builder.start();
    byte[] out = process.getInputStream().readAllBytes();
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("opencode %s ended", command).isTrue();
    assertThat(process.exitValue()).as("opencode %s", command).isZero();
    return new String(out, java.nio.charset.StandardCharsets.UTF_8);
  }

  private void killStopsEveryProcess() throws Exception {
    List<ProcessHandle> tree = watch.processes();
    watch.killAndExpectEveryProcessGone(tree);
  }

  // --- the session ---

  /** opencode's config: its Anthropic provider on the scripted server, with a model of its own. */
  static String config(String modelUrl) {
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
    configFolder(home, configJson);
    engine = ThrowawayEngine.prepare().withEnv(paneEnvironment(home)).start();
    admin = engine.mintToken("opencode-it-admin", false);
    Map<String, String> request = Map.of("cli", "opencode", "cwd", project.toString());
    watch = ScreenWatch.ofNewSession("opencode-real", engine, admin, request, model, softly);
    id = watch.id();
  }

  /**
   * Makes {@code home} a person's home for opencode: {@code ~/.config/opencode/opencode.json}
   * holding {@code configJson}, and its plugin package already named as installed.
   */
  static void configFolder(Path home, String configJson) throws IOException {
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
  }

  /**
   * The environment of the engine and so of its panes: a throwaway home and XDG folders, the real
   * CLI first on PATH, nothing that phones out, the shell tool asking first.
   */
  static Map<String, String> paneEnvironment(Path home) {
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
  static boolean started(String screen) {
    return ready(screen) && bottom(screen, 2).contains(VERSION);
  }

  /** The last {@code n} lines of the screen that are not blank. */
  private static String bottom(String screen, int n) {
    List<String> lines = screen.lines().filter(l -> !l.isBlank()).toList();
    return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
  }

  private static Duration seconds(long n) {
    return Duration.ofSeconds(n);
  }
}
