package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.tmux.TmuxException;
import dev.clique.engine.tmux.TmuxProcess;
import dev.clique.models.GeminiModelServer;
import dev.clique.models.ScriptedModelServer;
import dev.clique.models.ScriptedModelServer.Tokens;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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
 * The real Gemini CLI (0.61.0, as {@code agent-clis/package-lock.json} pins it) run as a clique
 * session against a scripted Gemini API on loopback: each screen a person would name is brought up
 * on purpose, and the state {@code /api/state} reports for it is checked, with how soon it came.
 *
 * <p>Every test has its own engine (home, tmux socket, port), its own model server, and a throwaway
 * {@code HOME} for the pane whose {@code ~/.gemini/settings.json} picks API-key auth and turns off
 * everything that would phone out (usage statistics, telemetry, update checks): the CLI talks to
 * 127.0.0.1 only. Input goes through the engine's own {@code POST /api/sessions/{id}/send}.
 *
 * <p>The screens are watched directly with tmux, every {@value #TICK_MILLIS} ms, next to the
 * engine's answer: a state must show within {@link #SOON} of the screen that calls for it. One line
 * per screen goes to stderr: screen, expected, reported, delay.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RealGeminiCliIT {
  /** How soon after a screen the engine must report its state. */
  static final Duration SOON = Duration.ofSeconds(1);

  /** How long a state is looked for after its screen, to tell "late" from "never". */
  static final Duration PATIENCE = Duration.ofSeconds(8);

  static final long TICK_MILLIS = 100;

  /**
   * Between typing a prompt and pressing Enter: well past Gemini CLI's 30 ms fast-return window.
   */
  static final long SUBMIT_GAP_MILLIS = 200;

  /** How long the CLI may take to come up, or the model to be asked. */
  static final Duration STARTUP = Duration.ofSeconds(45);

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String BANNER = "Gemini CLI v" + AgentClis.pinned("@google/gemini-cli");
  private static final String PLACEHOLDER = "Type your message or @path/to/file";
  private static final String BUSY = "esc to cancel";
  private static final String TRUST_QUESTION = "Do you trust the files in this folder?";
  private static final String ALLOW_SHELL = "Allow execution of [Shell]?";
  private static final String AUTH_QUESTION = "How would you like to authenticate";
  private static final String API_ERROR = "[API Error";

  private final SoftAssertions softly = new SoftAssertions();
  private final Set<ProcessHandle> paneProcesses = new LinkedHashSet<>();
  private GeminiModelServer model;
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
    model = new GeminiModelServer();
    home = Files.createTempDirectory("clique-it-gemini-home-");
    project = Files.createTempDirectory("clique-it-gemini-project-");
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
      // Gemini CLI outlives its tmux session (both node processes): the suite stops what it
      // started.
      SessionProcesses.stop(paneProcesses);
      model.close();
      ThrowawayEngine.deleteTree(home);
      ThrowawayEngine.deleteTree(project);
    }
    softly.assertAll();
  }

  @Test
  void theFolderTrustScreenIsWaitingAndTrustingItLeadsToAnIdlePrompt() throws Exception {
    start(settings(true, true));
    Look trust = awaitScreen("trust screen", s -> s.contains(TRUST_QUESTION), STARTUP);
    Look reported = expectState("trust screen", trust, "waiting");
    softly
        .assertThat(reported.attention().path("kind").asText())
        .as("attention.kind on the trust screen (attention: %s)", reported.attention())
        .isEqualTo("trust");

    send(Map.of("key", "Enter"));
    Look ready = awaitScreen("ready after trust", RealGeminiCliIT::started, STARTUP);
    expectState("ready after trust", ready, "idle");
  }

  @Test
  void theSignInChoiceScreenIsWaiting() throws Exception {
    // No auth type chosen yet: the CLI asks how to sign in (it offers the API key it sees).
    start(settings(false, false));
    Look asking = awaitScreen("sign-in choice", s -> s.contains(AUTH_QUESTION), STARTUP);
    Look reported = expectState("sign-in choice", asking, "waiting");
    softly
        .assertThat(reported.attention().path("kind").asText())
        .as("attention.kind on the sign-in choice (attention: %s)", reported.attention())
        .isEqualTo("first-run");
  }

  @Test
  void theReadyPromptIsIdle() throws Exception {
    start(settings(false, true));
    Look ready = awaitScreen("ready prompt", RealGeminiCliIT::started, STARTUP);
    expectState("ready prompt", ready, "idle");
    holds("ready prompt, 3 s on", "idle", Duration.ofSeconds(3));
    softly
        .assertThat(engine.awaitCliVersion(admin, id, Duration.ofSeconds(5)))
        .as("cli_version of the session")
        .isEqualTo(AgentClis.pinned("@google/gemini-cli"));
  }

  @Test
  void aSlowStreamedAnswerIsWorkingUntilItIsDone() throws Exception {
    String answer =
        "Here is a slow answer that streams in many small pieces while the model talks about"
            + " the build, the tests and the release notes. That is all for now.";
    model.then(new ScriptedModelServer.Step.SlowText(answer, 12, Duration.ofSeconds(10)));
    start(settings(false, true));
    awaitScreen("ready prompt", RealGeminiCliIT::started, STARTUP);

    prompt("Explain the build slowly");
    Look streaming = awaitScreen("slow answer", s -> s.contains(BUSY), Duration.ofSeconds(10));
    expectState("slow answer", streaming, "working");
    Look done =
        holdsUntil(
            "slow answer, while streaming",
            "working",
            s -> ready(s) && s.contains("That is all for now."),
            Duration.ofSeconds(30));
    expectState("answer done", done, "idle");
  }

  @Test
  void aShellCallNeedingApprovalIsWaitingThenWorkingOnceApprovedThenIdle() throws Exception {
    // Silent for longer than the engine's proof window (8 s, then 4 s still): only a spinner moves.
    String command = "sleep 14 && echo built > build.log";
    model.then(
        new ScriptedModelServer.Step.ShellCall(command, "Pretend to build the project"),
        new ScriptedModelServer.Step.SlowText(
            "The build finished and wrote build.log. Nothing else to do.",
            6,
            Duration.ofSeconds(3)));
    start(settings(false, true));
    awaitScreen("ready prompt", RealGeminiCliIT::started, STARTUP);

    prompt("Build the project");
    Look asking =
        awaitScreen("shell approval", s -> s.contains(ALLOW_SHELL), Duration.ofSeconds(20));
    Look waiting = expectState("shell approval", asking, "waiting");
    JsonNode attention = waiting.attention();
    softly
        .assertThat(attention.path("kind").asText())
        .as("attention.kind on the approval screen (attention: %s)", attention)
        .isEqualTo("permission");
    softly
        .assertThat(attention.path("detail").asText())
        .as("attention.detail names the command (attention: %s)", attention)
        .contains("sleep 14");
    holds("shell approval, 3 s on", "waiting", Duration.ofSeconds(3));

    Look approved = send(Map.of("key", "Enter"));
    expectState("approval given", approved, "working");
    Look done =
        holdsUntil(
            "shell running, then the answer",
            "working",
            s -> ready(s) && s.contains("Nothing else to do."),
            Duration.ofSeconds(45));
    expectState("done after the shell call", done, "idle");
    assertThat(project.resolve("build.log")).as("the approved command ran").exists();
  }

  @Test
  void anApiErrorIsAnError() throws Exception {
    // A 400 is not retried (429 and 5xx are, with a backoff of 5 s and more, up to 10 times).
    model.then(
        new ScriptedModelServer.Step.Failure(
            400, "INVALID_ARGUMENT", "Request contains an invalid argument."),
        new ScriptedModelServer.Step.Text("Answered this time."));
    start(settings(false, true));
    awaitScreen("ready prompt", RealGeminiCliIT::started, STARTUP);

    prompt("Trigger an error");
    Look failed = awaitScreen("API error", s -> s.contains(API_ERROR), Duration.ofSeconds(20));
    Look reported = expectState("API error", failed, "error");
    softly
        .assertThat(reported.attention().path("kind").asText())
        .as("attention.kind on the API error (attention: %s)", reported.attention())
        .isEqualTo("error");
    holds("API error, 3 s on", "error", Duration.ofSeconds(3));

    // The next prompt is answered: the error line is still on the screen, but the session is idle.
    prompt("Try again");
    Look answered =
        awaitScreen(
            "answer after the error",
            s -> ready(s) && s.contains("Answered this time."),
            Duration.ofSeconds(20));
    expectState("answer after the error", answered, "idle");

    // Its daily quota used up (a 429 RESOURCE_EXHAUSTED it does not retry): nothing is broken, a
    // person waits or switches. "Keep trying" then gets an answer.
    model.then(
        new ScriptedModelServer.Step.UsageLimit(
            "You exceeded your current quota, please check your plan and billing details.",
            Instant.now().plus(Duration.ofHours(3))),
        new ScriptedModelServer.Step.Text("Answered after the limit."));
    prompt("Summarise the log");
    Look limit =
        awaitScreen(
            "usage limit (429 RESOURCE_EXHAUSTED)",
            s -> s.contains("Usage limit reached"),
            Duration.ofSeconds(20));
    Look limited = expectState("usage limit (429 RESOURCE_EXHAUSTED)", limit, "waiting");
    table("usage limit attention", "", limited.attention().toString(), -1, "");
    softly
        .assertThat(limited.attention().path("kind").asText())
        .as("attention.kind on the usage limit (attention: %s)", limited.attention())
        .isEqualTo("usage_limit");
    softly
        .assertThat(limited.attention().path("detail").asText())
        .as("its detail is Gemini CLI's words")
        .contains("Usage limit reached");
    send(Map.of("key", "Enter")); // 1. Keep trying
    Look after =
        awaitScreen(
            "answer after the usage limit",
            s -> ready(s) && s.contains("Answered after the limit."),
            Duration.ofSeconds(20));
    expectState("answer after the usage limit", after, "idle");
  }

  @Test
  void theCliExitingAtStartIsStopped() throws Exception {
    // Gemini CLI refuses a settings file it cannot parse: it prints the error and exits 52.
    start("{ \"security\": { not json");
    Look gone =
        awaitScreen(
            "CLI exited at start", s -> s.isEmpty() || Tmux.paneDead(engine.socket, id), STARTUP);
    Look stopped = expectState("CLI exited at start", gone, "stopped");
    // tmux marks the pane dead when its terminal closes, and knows the status once it reaped the
    // process, which the engine sees to (TmuxProcess): a look or two later at most.
    long exited = System.nanoTime() + seconds(3).toNanos();
    while ((stopped.session() == null || !stopped.session().path("exit_status").isInt())
        && System.nanoTime() < exited) {
      Thread.sleep(TICK_MILLIS);
      stopped = look();
    }
    HttpResponse<String> peek = engine.get("/api/sessions/" + id + "/peek?lines=5", admin);
    JsonNode lines = ThrowawayEngine.json(peek.body()).path("lines");
    JsonNode status = stopped.session() == null ? null : stopped.session().path("exit_status");
    table("exit status, last lines", "52, error", status + ", " + lines, -1, "");
    softly.assertThat(status == null ? -1 : status.asInt(-1)).as("exit_status").isEqualTo(52);
    softly.assertThat(lines.toString()).as("its last lines stay readable").contains("settings");
  }

  @Test
  void everyPromptSentThroughTheEngineIsSubmitted() throws Exception {
    model.then(
        new ScriptedModelServer.Step.Text("First answer."),
        new ScriptedModelServer.Step.Text("Second answer."),
        new ScriptedModelServer.Step.Text("Third answer."));
    start(settings(false, true));
    awaitScreen("ready prompt", RealGeminiCliIT::started, STARTUP);

    String[] prompts = {"First prompt", "Second prompt", "Third prompt"};
    List<String> submitted = new ArrayList<>();
    for (int i = 0; i < prompts.length; i++) {
      long turns = model.mainTurns();
      Look sent = send(Map.of("text", prompts[i], "enter", true));
      Look after =
          pollUntil(l -> model.mainTurns() > turns && ready(l.screen()), Duration.ofSeconds(8));
      boolean answered = after != null;
      table(
          "prompt " + (i + 1) + " sent with enter",
          "answered",
          answered ? "answered" : "left in the input box",
          answered ? after.at() - sent.at() : -1,
          "");
      softly
          .assertThat(answered)
          .as(
              "prompt %d (%s) was submitted and answered; model turns: %d; screen:%n%s",
              i + 1, prompts[i], model.mainTurns(), answered ? "" : lastScreen())
          .isTrue();
      if (answered) {
        submitted.add(prompts[i]);
      } else {
        // Leave the next prompt a clean input box, so each send is judged on its own.
        clearInput();
      }
    }
    assertThat(submitted).containsExactly(prompts);
  }

  /**
   * Three prompts, the second failing: Gemini CLI then writes its message list again without the
   * failed prompt ({@code $set.messages}). The conversation the engine reads under the home only
   * the pane had is the one Gemini CLI's own loader reads from the same file.
   */
  @Test
  void theConversationIsReadFromTheHomeOnlyThePaneWasGivenAsGeminiItselfReadsIt() throws Exception {
    model.then(
        new ScriptedModelServer.Step.Text("First answer."),
        new ScriptedModelServer.Step.Failure(
            400, "INVALID_ARGUMENT", "Request contains an invalid argument."),
        new ScriptedModelServer.Step.Text("Third answer."));
    // Each answer reports these counts; Gemini counts the cached part inside its prompt's.
    Tokens tokens = new Tokens(1234, 56, 700, 0);
    model.answering(tokens);
    start(settings(false, true), true);
    awaitScreen("ready prompt", RealGeminiCliIT::started, STARTUP);

    prompt("First prompt");
    awaitScreen(
        "first answer", s -> ready(s) && s.contains("First answer."), Duration.ofSeconds(20));
    prompt("A prompt that fails");
    awaitScreen("API error", s -> ready(s) && s.contains(API_ERROR), Duration.ofSeconds(20));
    prompt("Third prompt");
    awaitScreen(
        "third answer", s -> ready(s) && s.contains("Third answer."), Duration.ofSeconds(20));

    Path chat = RecordedConversation.onlyFile(home.resolve(".gemini/tmp"), ".jsonl");
    JsonNode own = GeminiOwnView.of(chat);
    JsonNode turns = RecordedConversation.turns(engine, admin, id, own.size(), seconds(3));
    System.err.printf(
        "gemini-real | conversation turns: %d read by clique, %d in Gemini CLI's own view"
            + " (3 prompts sent, 1 failed; %d lines in its chat file)%n",
        turns.size(), own.size(), Files.readAllLines(chat).size());
    RecordedConversation.keep(
        chat, "gemini-" + AgentClis.pinned("@google/gemini-cli") + "-chat.jsonl");
    softly
        .assertThat(own)
        .as("Gemini CLI's own view of its chat")
        .isEqualTo(
            RecordedConversation.expectedTurns(
                new String[][] {
                  {"First prompt", "First answer."}, {"Third prompt", "Third answer."}
                }));
    softly
        .assertThat(turns)
        .as("the conversation the engine read under the pane's GEMINI_CLI_HOME (%s)", chat)
        .isEqualTo(own);
    // Two answers carried the counts (the failed turn none).
    Map<String, Long> sent = UsageProof.sent(tokens, 2);
    softly
        .assertThat(UsageProof.await(engine, admin, id, "gemini-real", sent, seconds(10)))
        .as("usage read from Gemini CLI's chat, beside what the server sent")
        .isEqualTo(sent);
  }

  /** Every Gemini golden fixture of the engine reads as Gemini CLI's own loader reads it. */
  @Test
  void everyGeminiGoldenFixtureReadsAsGeminiCliItselfReadsIt() throws Exception {
    Path fixtures =
        Path.of("..", "session-engine", "src", "test", "resources", "transcripts", "gemini");
    List<Path> chats;
    try (var files = Files.list(fixtures)) {
      chats = files.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList();
    }
    assertThat(chats).hasSizeGreaterThanOrEqualTo(3);
    for (Path chat : chats) {
      String name = chat.getFileName().toString();
      Path expected = chat.resolveSibling(name.replace(".jsonl", ".expected.json"));
      softly
          .assertThat(GeminiOwnView.of(chat))
          .as("Gemini CLI's own view of %s", name)
          .isEqualTo(JSON.readTree(expected.toFile()));
    }
  }

  @Test
  void killStopsTheSessionAndEveryProcessOfIt() throws Exception {
    model.then(new ScriptedModelServer.Step.Text("Ready when you are."));
    start(settings(false, true));
    awaitScreen("ready prompt", RealGeminiCliIT::started, STARTUP);
    // A session in use: one turn done, and the CLI settled (killed while still starting up, both
    // node processes happen to die with the terminal).
    prompt("Hello");
    awaitScreen(
        "first answer", s -> ready(s) && s.contains("Ready when you are."), Duration.ofSeconds(20));
    Thread.sleep(3_000);
    List<ProcessHandle> tree = paneTree();
    assertThat(tree)
        .as("Gemini CLI runs as a node process and its re-executed child")
        .hasSizeGreaterThanOrEqualTo(2);

    System.err.println(
        "gemini-real | pane processes: " + tree.stream().map(SessionProcesses::describe).toList());
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

  /**
   * {@code ~/.gemini/settings.json}: nothing phoning out; folder trust on or off; API-key auth
   * chosen or not (then the CLI asks how to sign in).
   */
  private static String settings(boolean folderTrust, boolean apiKeyAuth) {
    String auth = apiKeyAuth ? "\"auth\": {\"selectedType\": \"gemini-api-key\"}," : "";
    return """
        {
          "security": {
            %s
            "folderTrust": {"enabled": %s}
          },
          "privacy": {"usageStatisticsEnabled": false},
          "telemetry": {"enabled": false},
          "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
          "ide": {"enabled": false}
        }
        """
        .formatted(auth, folderTrust);
  }

  /**
   * Starts an engine whose panes find the real CLI and the model server, and one Gemini session.
   */
  private void start(String settingsJson) throws Exception {
    start(settingsJson, false);
  }

  /**
   * As {@link #start(String)}; {@code paneOnlyHome}: the pane alone is given its Gemini home as
   * {@code GEMINI_CLI_HOME} (its command is {@code env GEMINI_CLI_HOME=... gemini}), while the
   * engine's {@code HOME} is an empty folder of its own.
   */
  private void start(String settingsJson, boolean paneOnlyHome) throws Exception {
    Path gemini = Files.createDirectories(home.resolve(".gemini"));
    Files.writeString(gemini.resolve("settings.json"), settingsJson);
    ThrowawayEngine prepared = ThrowawayEngine.prepare();
    Path engineHome = home;
    if (paneOnlyHome) {
      engineHome = Files.createDirectories(prepared.workdir.resolve("engine-home"));
      Files.writeString(
          prepared.home.resolve("clis.toml"),
          "[cli.gemini]\ncommand = \"env\"\nargs = [\"GEMINI_CLI_HOME="
              + home
              + "\", \""
              + AgentClis.bin().resolve("gemini")
              + "\"]\n");
    }
    engine =
        prepared
            .withEnv(
                Map.of(
                    "HOME", engineHome.toString(),
                    "PATH", AgentClis.path(),
                    "GEMINI_API_KEY", "fake-key-for-a-scripted-model",
                    "GOOGLE_GEMINI_BASE_URL", model.url(),
                    "NO_BROWSER", "true"))
            .start();
    tmux = new TmuxProcess("tmux", engine.socket, Duration.ofSeconds(10));
    admin = engine.mintToken("gemini-it-admin", false);
    String body = JSON.writeValueAsString(Map.of("cli", "gemini", "cwd", project.toString()));
    HttpResponse<String> created = engine.post("/api/sessions", admin, body);
    assertThat(created.statusCode()).as("creating the session: %s", created.body()).isEqualTo(201);
    id = ThrowawayEngine.json(created.body()).path("id").asText();
    probe = WaitProbe.start(engine, admin, id);
  }

  /** Sends through the engine's API and returns a look taken right after the engine answered. */
  private Look send(Map<String, Object> body) throws Exception {
    HttpResponse<String> sent =
        engine.post("/api/sessions/" + id + "/send", admin, JSON.writeValueAsString(body));
    assertThat(sent.statusCode()).as("send %s: %s", body, sent.body()).isEqualTo(200);
    return look();
  }

  /**
   * Types a prompt and submits it, in two calls of the engine's API. One {@code {"text", "enter":
   * true}} types and presses Enter at once, which Gemini CLI reads as a newline inside its
   * fast-return window: {@link #everyPromptSentThroughTheEngineIsSubmitted} holds the engine to
   * that; the scenarios only need the prompt to arrive.
   */
  private Look prompt(String text) throws Exception {
    send(Map.of("text", text, "enter", false));
    Thread.sleep(SUBMIT_GAP_MILLIS);
    long turns = model.mainTurns();
    Look sent = send(Map.of("key", "Enter"));
    // A CLI busy painting reads both keys at once (the newline again): Enter once more if the
    // prompt is still in the box. An Enter on an empty box does nothing.
    for (int retry = 0; retry < 2; retry++) {
      if (pollUntil(l -> model.mainTurns() > turns || !typed(l.screen(), text), seconds(2))
          != null) {
        break;
      }
      send(Map.of("key", "Enter"));
    }
    return sent;
  }

  /** Whether {@code text} is still in the input box. */
  private static boolean typed(String screen, String text) {
    return bottom(screen, 6).contains("> " + text);
  }

  /** Empties Gemini's input box (Ctrl+C clears typed text without quitting). */
  private void clearInput() throws Exception {
    send(Map.of("key", "C-c"));
    pollUntil(l -> ready(l.screen()), seconds(3));
  }

  /**
   * The ready prompt: an empty input box below the last question asked (an answered trust box stays
   * on the screen above the relaunched CLI), and no spinner at the bottom.
   */
  private static boolean ready(String screen) {
    return afterLastQuestion(screen).contains(PLACEHOLDER) && !bottom(screen, 8).contains(BUSY);
  }

  /**
   * The ready prompt as the CLI leaves it once it has started: it draws the input box first and its
   * banner some 0.7 s later, then falls quiet.
   */
  private static boolean started(String screen) {
    return ready(screen) && afterLastQuestion(screen).contains(BANNER);
  }

  private static String afterLastQuestion(String screen) {
    int question =
        Math.max(
            screen.lastIndexOf(TRUST_QUESTION),
            Math.max(screen.lastIndexOf(ALLOW_SHELL), screen.lastIndexOf(AUTH_QUESTION)));
    return screen.substring(Math.max(0, question));
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

    /** Who decided the state, and on what evidence: {@code pane Allow execution of [Shell]?}. */
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
   * at which {@code until} showed.
   */
  private Look holdsUntil(String screen, String expected, Predicate<String> until, Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<String> other = new ArrayList<>();
    int looks = 0;
    while (true) {
      Look look = look();
      if (until.test(look.screen())) {
        table(
            screen,
            expected,
            other.isEmpty() ? expected : other.size() + "/" + looks + " looks " + Set.copyOf(other),
            -1,
            "");
        softly
            .assertThat(other)
            .as("states other than %s while %s (%d looks)", expected, screen, looks)
            .isEmpty();
        return look;
      }
      looks++;
      if (!expected.equals(look.state())) {
        other.add(look.state());
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
        "gemini-real | %-34s | expected %-8s | reported %-22s | %8s | %s%n",
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
