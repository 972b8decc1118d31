package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.conformance.ScreenWatch.Look;
import dev.clique.models.ChatCompletionsModelServer;
import dev.clique.models.ScriptedModelServer;
import dev.clique.models.ScriptedModelServer.Step;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
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
 * The real Qwen Code (0.24.4, as {@code agent-clis/package-lock.json} pins it) run as a clique
 * session against a scripted OpenAI Chat Completions API on loopback: each screen a person would
 * name is brought up on purpose, and the state {@code /api/state} reports for it is checked, with
 * how soon it came and who decided it (its hooks, its title, its screen).
 *
 * <p>Every test has its own engine (home, tmux socket, port), its own model server, and a throwaway
 * {@code HOME} for the pane whose {@code ~/.qwen/settings.json} picks the OpenAI-compatible
 * provider ({@code OPENAI_BASE_URL}, {@code OPENAI_API_KEY}, {@code OPENAI_MODEL} from the engine's
 * environment) and turns off what would phone out or ask the model on its own (usage statistics,
 * telemetry, update checks, the memory agent, follow-up suggestions): the CLI talks to 127.0.0.1
 * only. Input goes through the engine's own {@code POST /api/sessions/{id}/send}. The scenarios of
 * a working session share one CLI session, as a person's would.
 *
 * <p>The screens are watched directly with tmux, every {@value ScreenWatch#TICK_MILLIS} ms, next to
 * the engine's answer: a state must show within {@link ScreenWatch#SOON} of the screen that calls
 * for it. One line per screen goes to stderr: screen, expected, reported, delay, who decided; each
 * screen is kept as {@code target/qwen-screens/<screen>.txt}.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RealQwenCodeIT {
  /** How far the CLI's own hook may run ahead of its screen at the end of a turn. */
  static final Duration HOOK_AHEAD = Duration.ofSeconds(2);

  /** Between typing a prompt and pressing Enter. */
  static final long SUBMIT_GAP_MILLIS = 200;

  /** How long the CLI may take to come up, or the model to be asked. */
  static final Duration STARTUP = Duration.ofSeconds(60);

  private static final ScriptedModelServer.Tokens TOKENS =
      new ScriptedModelServer.Tokens(1234, 56, 700, 0);
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String BANNER =
      "Qwen Code (v" + AgentClis.pinned("@qwen-code/qwen-code") + ")";
  private static final String PLACEHOLDER = "Type your message or @path/to/file";
  private static final String BUSY = "esc to cancel";
  private static final String TRUST_QUESTION = "Do you trust this folder?";
  private static final String ALLOW_SHELL = "Allow execution of: ";
  private static final String PROVIDER_CHOICE = "Connect a Provider";
  private static final String API_ERROR = "[API Error: 400";

  private final SoftAssertions softly = new SoftAssertions();
  private ChatCompletionsModelServer model;
  private Path home;
  private Path project;
  private ThrowawayEngine engine;
  private String admin;
  private String id;
  private ScreenWatch watch;

  @BeforeEach
  void setUp() throws IOException {
    model = new ChatCompletionsModelServer();
    home = Files.createTempDirectory("clique-it-qwen-home-");
    project = Files.createTempDirectory("clique-it-qwen-project-");
  }

  @AfterEach
  void tearDown() throws Exception {
    ScreenWatch.endTest(watch, engine, model, home, project);
    softly.assertAll();
  }

  /**
   * One session, as a person uses it: the ready prompt, a slow streamed answer, a shell command
   * that needs approval and runs once approved, an API error and the prompt after it (sent with
   * {@code "enter": true}, which must submit), then the conversation read against Qwen Code's own
   * chat file, and a kill that leaves no process.
   */
  @Test
  void oneSessionGoesThroughEveryScreenItShowsAPerson() throws Exception {
    String slow =
        "Here is a slow answer that streams in many small pieces while the model talks about"
            + " the build, the tests and the release notes. That is all for now.";
    // Qwen Code blocks "sleep N && ..." itself (it asks for background commands): perl waits.
    // Silent for longer than the engine's proof window (8 s, then 4 s still).
    String command = "perl -e 'select(undef,undef,undef,14)' && echo built > build.log";
    // Each answer reports these counts; OpenAI counts the cached part inside its input.
    model.answering(TOKENS);
    model.then(
        new Step.SlowText(slow, 12, Duration.ofSeconds(10)),
        new Step.ShellCall(command, "Pretend to build the project"),
        new Step.SlowText(
            "The build finished and wrote build.log. Nothing else to do.",
            6,
            Duration.ofSeconds(3)),
        // A 400 is not retried (a 5xx or 429 is, up to 7 attempts over more than a minute).
        new Step.Failure(400, "invalid_request_error", "The scripted request was invalid."),
        new Step.Text("Answered this time."));
    start(settings(false, true), "default");
    Look ready = watch.awaitScreen("ready prompt", RealQwenCodeIT::started, STARTUP);
    keepScreen("ready", ready);
    watch.expectState("ready prompt", ready, "idle");
    watch.holds("ready prompt, 3 s on", "idle", Duration.ofSeconds(3));
    softly
        .assertThat(engine.awaitCliVersion(admin, id, Duration.ofSeconds(5)))
        .as("cli_version of the session")
        .isEqualTo(AgentClis.pinned("@qwen-code/qwen-code"));

    prompt("Explain the build slowly");
    Look streaming =
        watch.awaitScreen("slow answer", s -> s.contains(BUSY), Duration.ofSeconds(20));
    keepScreen("streaming", streaming);
    watch.expectState("slow answer", streaming, "working");
    Look answered =
        watch.holdsUntil(
            "slow answer, while streaming",
            "working",
            s -> ready(s) && s.contains("That is all for now."),
            Duration.ofSeconds(40),
            ScreenWatch.Ahead.fromTheCli("idle", HOOK_AHEAD));
    keepScreen("answer_done", answered);
    watch.expectState("answer done", answered, "idle");

    prompt("Build the project");
    Look asking =
        watch.awaitScreen("shell approval", s -> s.contains(ALLOW_SHELL), Duration.ofSeconds(30));
    keepScreen("approval", asking);
    Look waiting = watch.expectState("shell approval", asking, "waiting");
    JsonNode attention = waiting.attention();
    softly
        .assertThat(attention.path("kind").asText())
        .as("attention.kind on the approval screen (attention: %s)", attention)
        .isEqualTo("permission");
    softly
        .assertThat(attention.path("detail").asText())
        .as("attention.detail names the command (attention: %s)", attention)
        .contains("perl -e");
    watch.holds("shell approval, 3 s on", "waiting", Duration.ofSeconds(3));

    Look approved = watch.send(Map.of("key", "Enter"));
    watch.expectState("approval given", approved, "working");
    Look running =
        watch.pollUntil(
            l -> l.screen().contains(BUSY) && !l.screen().contains(ALLOW_SHELL), seconds(5));
    if (running != null) {
      keepScreen("approved_running", running);
    }
    Look done =
        watch.holdsUntil(
            "shell running, then the answer",
            "working",
            s -> ready(s) && s.contains("Nothing else to do."),
            Duration.ofSeconds(60),
            ScreenWatch.Ahead.fromTheCli("idle", HOOK_AHEAD));
    keepScreen("done_after_shell", done);
    watch.expectState("done after the shell call", done, "idle");
    assertThat(project.resolve("build.log")).as("the approved command ran").exists();

    prompt("Trigger an error");
    Look failed =
        watch.awaitScreen("API error", s -> s.contains(API_ERROR), Duration.ofSeconds(30));
    keepScreen("api_error_400", failed);
    Look reported = watch.expectState("API error", failed, "error");
    softly
        .assertThat(reported.attention().path("kind").asText())
        .as("attention.kind on the API error (attention: %s)", reported.attention())
        .isEqualTo("error");
    watch.holds("API error, 3 s on", "error", Duration.ofSeconds(3));

    // The next prompt, typed and submitted in one call, is answered: the error line is still on
    // the screen, but the session is idle.
    int turnsBefore = model.mainTurns().size();
    Look sent = watch.send(Map.of("text", "Try again", "enter", true));
    Look after =
        watch.pollUntil(
            l ->
                model.mainTurns().size() > turnsBefore
                    && ready(l.screen())
                    && l.screen().contains("Answered this time."),
            Duration.ofSeconds(30));
    watch.table(
        "prompt sent with enter: true",
        "answered",
        after != null ? "answered" : "left in the input box",
        after != null ? after.at() - sent.at() : -1,
        "");
    assertThat(after)
        .as(
            "the prompt sent with enter was submitted and answered; screen:%n%s",
            watch.lastScreen())
        .isNotNull();
    keepScreen("answered_after_error", after);
    watch.expectState("answer after the error", after, "idle");

    Path chat = home.resolve(".qwen/projects");
    chat = RecordedConversation.onlyFile(chat, id + ".jsonl");
    // Qwen Code writes an answer's record a moment after it shows it.
    JsonNode own = QwenOwnRecord.turns(chat);
    for (int i = 0; i < 50 && own.size() < 6; i++) {
      Thread.sleep(ScreenWatch.TICK_MILLIS);
      own = QwenOwnRecord.turns(chat);
    }
    JsonNode turns = RecordedConversation.turns(engine, admin, id, own.size(), seconds(5));
    System.err.printf(
        "qwen-real | conversation turns: %d read by clique, %d in Qwen Code's own chat file"
            + " (4 prompts sent, 1 failed; %d lines in it)%n",
        turns.size(), own.size(), Files.readAllLines(chat).size());
    RecordedConversation.keep(
        chat, "qwen-" + AgentClis.pinned("@qwen-code/qwen-code") + "-chat.jsonl");
    ArrayNode expected = JSON.createArrayNode();
    expected.add(turn("user", "Explain the build slowly"));
    expected.add(turn("assistant", slow));
    expected.add(turn("user", "Build the project"));
    expected.add(turn("assistant", "The build finished and wrote build.log. Nothing else to do."));
    // The failed prompt stays in the chat, unanswered: it and the next one are one turn.
    expected.add(turn("user", "Trigger an error\n\nTry again"));
    expected.add(turn("assistant", "Answered this time."));
    softly.assertThat(own).as("Qwen Code's own chat, turn for turn").isEqualTo(expected);
    softly
        .assertThat(turns)
        .as("the conversation the engine read from %s, turn for turn", chat)
        .isEqualTo(own);

    // Its vendor's rate limit: a 429 rate_limit_exceeded for each of its 7 attempts (retry-after
    // 0 s, so they go by in seconds); once it gives up, nothing is broken, a person waits.
    for (int attempt = 0; attempt < 7; attempt++) {
      model.then(
          new Step.UsageLimit(
              "Rate limit reached for gpt-test on requests per min (RPM): Limit 3, Used 3.",
              Instant.now()));
    }
    model.then(new Step.Text("Answered after the limit."));
    prompt("Summarise the log");
    Look limited =
        watch.expectUsageLimit(
            "usage limit (429)", s -> s.contains("API Error: 429"), Duration.ofSeconds(90));
    keepScreen("usage_limit_429", limited);
    prompt("Try again");
    Look afterLimit =
        watch.awaitScreen(
            "answer after the usage limit",
            s -> ready(s) && s.contains("Answered after the limit."),
            Duration.ofSeconds(30));
    watch.expectState("answer after the usage limit", afterLimit, "idle");
    // Five answers reported their tokens (the failed request and the limit's tries none): the
    // slow one, the shell call and the answer after it, the answers after the error and the limit.
    Map<String, Long> usageSent = UsageProof.sent(TOKENS, 5);
    softly
        .assertThat(UsageProof.await(engine, admin, id, "qwen-real", usageSent, seconds(10)))
        .as("usage read from Qwen Code's chat file, beside what the server sent")
        .isEqualTo(usageSent);
    killLeavesNoProcess();
  }

  @Test
  void theFolderTrustScreenIsWaitingAndTrustingItLeadsToAnIdlePrompt() throws Exception {
    start(settings(true, true), null);
    Look trust = watch.awaitScreen("trust screen", s -> s.contains(TRUST_QUESTION), STARTUP);
    keepScreen("trust_folder", trust);
    Look reported = watch.expectState("trust screen", trust, "waiting");
    softly
        .assertThat(reported.attention().path("kind").asText())
        .as("attention.kind on the trust screen (attention: %s)", reported.attention())
        .isEqualTo("trust");

    watch.send(Map.of("key", "Enter"));
    Look ready = watch.awaitScreen("ready after trust", RealQwenCodeIT::started, STARTUP);
    watch.expectState("ready after trust", ready, "idle");
  }

  @Test
  void theProviderChoiceOfAFirstRunIsWaiting() throws Exception {
    // No provider chosen and no OPENAI_* variables (it would take those): it asks which to connect.
    start(settings(false, false), null, false);
    Look asking = watch.awaitScreen("provider choice", s -> s.contains(PROVIDER_CHOICE), STARTUP);
    keepScreen("connect_provider", asking);
    Look reported = watch.expectState("provider choice", asking, "waiting");
    softly
        .assertThat(reported.attention().path("kind").asText())
        .as("attention.kind on the provider choice (attention: %s)", reported.attention())
        .isEqualTo("first-run");
  }

  @Test
  void theCliExitingAtStartIsStopped() throws Exception {
    // Qwen Code refuses a settings file it cannot parse: it prints the error and exits 1.
    start("{ \"security\": { not json", null);
    Look gone =
        watch.awaitScreen(
            "CLI exited at start", s -> s.isEmpty() || Tmux.paneDead(engine.socket, id), STARTUP);
    Look stopped = watch.awaitExitStatus(watch.expectState("CLI exited at start", gone, "stopped"));
    // Its stack trace fills the last lines: the message that names the file is above it.
    HttpResponse<String> peek = engine.get("/api/sessions/" + id + "/peek?lines=20", admin);
    JsonNode lines = ThrowawayEngine.json(peek.body()).path("lines");
    JsonNode status = stopped.session() == null ? null : stopped.session().path("exit_status");
    watch.table("exit status, last lines", "1, error", status + ", " + lines, -1, "");
    softly.assertThat(status == null ? -1 : status.asInt(-1)).as("exit_status").isEqualTo(1);
    softly
        .assertThat(lines.toString())
        .as("its last lines stay readable")
        .contains("settings.json");
  }

  private void killLeavesNoProcess() throws Exception {
    Thread.sleep(1_000);
    List<ProcessHandle> tree = watch.processes();
    assertThat(tree)
        .as("Qwen Code runs as a node process and its re-executed child")
        .hasSizeGreaterThanOrEqualTo(2);
    watch.killAndExpectEveryProcessGone(tree);
  }

  private static ObjectNode turn(String role, String text) {
    return JSON.createObjectNode().put("role", role).put("text", text);
  }

  // --- the session ---

  /**
   * {@code ~/.qwen/settings.json}: nothing phoning out or asking the model on its own (the memory
   * agent, follow-up suggestions); no retries of a failed request by the OpenAI client (Qwen Code's
   * own retries stay); folder trust on or off; the OpenAI-compatible provider chosen or not (then
   * the CLI asks which to connect).
   */
  static String settings(boolean folderTrust, boolean openAi) {
    String auth = openAi ? "\"auth\": {\"selectedType\": \"openai\"}," : "";
    return """
        {
          "security": {
            %s
            "folderTrust": {"enabled": %s}
          },
          "privacy": {"usageStatisticsEnabled": false},
          "telemetry": {"enabled": false},
          "general": {"enableAutoUpdate": false, "disableUpdateNag": true},
          "ui": {"enableFollowupSuggestions": false, "enableUserFeedback": false,
                 "enableWelcomeBack": false, "hideTips": true},
          "memory": {"enableManagedAutoMemory": false, "enableManagedAutoDream": false},
          "model": {"generationConfig": {"maxRetries": 0}},
          "tools": {"useRipgrep": false},
          "ide": {"enabled": false}
        }
        """
        .formatted(auth, folderTrust);
  }

  /**
   * Starts an engine whose panes find the real CLI and the model server, and one Qwen Code session
   * in {@code mode} (or the CLI's own default when null).
   */
  private void start(String settingsJson, String mode) throws Exception {
    start(settingsJson, mode, true);
  }

  /** As {@link #start(String, String)}; {@code openAiEnvironment}: the key and endpoint given. */
  private void start(String settingsJson, String mode, boolean openAiEnvironment) throws Exception {
    engine =
        ThrowawayEngine.prepare()
            .withEnv(personsHome(home, settingsJson, openAiEnvironment ? model : null))
            .start();
    admin = engine.mintToken("qwen-it-admin", false);
    Map<String, String> request =
        mode == null
            ? Map.of("cli", "qwen", "cwd", project.toString())
            : Map.of("cli", "qwen", "cwd", project.toString(), "mode", mode);
    watch = ScreenWatch.ofNewSession("qwen-real", engine, admin, request, model, softly);
    id = watch.id();
  }

  /**
   * Makes {@code home} a person's home for Qwen Code ({@code ~/.qwen/settings.json} holding {@code
   * settingsJson}); the environment a shell of theirs runs it in: the real CLI first on PATH, no
   * browser, and the key and endpoint of {@code model} (none when null).
   */
  static Map<String, String> personsHome(
      Path home, String settingsJson, ChatCompletionsModelServer model) throws IOException {
    Path qwen = Files.createDirectories(home.resolve(".qwen"));
    Files.writeString(qwen.resolve("settings.json"), settingsJson);
    Map<String, String> env = new LinkedHashMap<>();
    env.put("HOME", home.toString());
    env.put("PATH", AgentClis.path());
    env.put("NO_BROWSER", "true");
    if (model != null) {
      env.put("OPENAI_API_KEY", "fake-key-for-a-scripted-model");
      env.put("OPENAI_BASE_URL", model.baseUrl());
      env.put("OPENAI_MODEL", ChatCompletionsModelServer.MODEL);
    }
    return env;
  }

  /** Keeps the screen as {@code target/qwen-screens/<name>.txt}: the raw material of goldens. */
  private static void keepScreen(String name, Look look) throws IOException {
    Path dir = Files.createDirectories(Path.of("target", "qwen-screens"));
    Files.writeString(dir.resolve(name + ".txt"), look.screen());
  }

  /**
   * Types a prompt and submits it, in two calls of the engine's API; {@link
   * #oneSessionGoesThroughEveryScreenItShowsAPerson} also sends one with {@code "enter": true}.
   */
  private Look prompt(String text) throws Exception {
    watch.send(Map.of("text", text, "enter", false));
    Thread.sleep(SUBMIT_GAP_MILLIS);
    long turns = model.mainTurns().size();
    Look sent = watch.send(Map.of("key", "Enter"));
    // A CLI busy painting reads both keys at once (the newline again): Enter once more if the
    // prompt is still in the box. An Enter on an empty box does nothing.
    for (int retry = 0; retry < 2; retry++) {
      if (watch.pollUntil(
              l -> model.mainTurns().size() > turns || !typed(l.screen(), text), seconds(2))
          != null) {
        break;
      }
      watch.send(Map.of("key", "Enter"));
    }
    return sent;
  }

  /** Whether {@code text} is still in the input box. */
  private static boolean typed(String screen, String text) {
    return bottom(screen, 6).contains("> " + text);
  }

  /** Empties Qwen Code's input box (Ctrl+C clears typed text without quitting). */
  private void clearInput() throws Exception {
    watch.send(Map.of("key", "C-c"));
    watch.pollUntil(l -> ready(l.screen()), seconds(3));
  }

  /**
   * The ready prompt: an empty input box below the last question asked (an answered question stays
   * on the screen above), and no spinner at the bottom.
   */
  private static boolean ready(String screen) {
    return afterLastQuestion(screen).contains(PLACEHOLDER) && !bottom(screen, 8).contains(BUSY);
  }

  /**
   * The ready prompt once the CLI has started: it draws its input box with "Initializing..." above
   * it and reads what it types only once that is gone.
   */
  static boolean started(String screen) {
    return ready(screen)
        && afterLastQuestion(screen).contains(BANNER)
        && !screen.contains("Initializing...");
  }

  private static String afterLastQuestion(String screen) {
    int question =
        Math.max(
            screen.lastIndexOf(TRUST_QUESTION),
            Math.max(screen.lastIndexOf(ALLOW_SHELL), screen.lastIndexOf(PROVIDER_CHOICE)));
    return screen.substring(Math.max(0, question));
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
