package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.conformance.ScreenWatch.Look;
import dev.clique.engine.tmux.TmuxException;
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
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
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
 * <p>The screens are watched directly with tmux, every {@value ScreenWatch#TICK_MILLIS} ms, next to
 * the engine's answer: a state must show within {@link ScreenWatch#SOON} of the screen that calls
 * for it. One line per screen goes to stderr: screen, expected, reported, delay.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RealGeminiCliIT {
  /**
   * Between typing a prompt and pressing Enter: well past Gemini CLI's 30 ms fast-return window.
   */
  static final long SUBMIT_GAP_MILLIS = 200;

  /** After its trust question, Gemini CLI starts itself anew within this, or never. */
  static final Duration RELAUNCH_OR_NEVER = Duration.ofSeconds(5);

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
  private GeminiModelServer model;
  private Path home;
  private Path project;
  private ThrowawayEngine engine;
  private String admin;
  private String id;
  private ScreenWatch watch;

  @BeforeEach
  void setUp() throws IOException {
    model = new GeminiModelServer();
    home = Files.createTempDirectory("clique-it-gemini-home-");
    project = Files.createTempDirectory("clique-it-gemini-project-");
  }

  @AfterEach
  void tearDown() throws Exception {
    ScreenWatch.endTest(watch, engine, model, home, project);
    softly.assertAll();
  }

  @Test
  void theFolderTrustScreenIsWaitingAndTrustingItLeadsToAnIdlePrompt() throws Exception {
    start(settings(true, true));
    Look trust = watch.awaitScreen("trust screen", s -> s.contains(TRUST_QUESTION), STARTUP);
    Look reported = watch.expectState("trust screen", trust, "waiting");
    softly
        .assertThat(reported.attention().path("kind").asText())
        .as("attention.kind on the trust screen (attention: %s)", reported.attention())
        .isEqualTo("trust");

    Set<Long> before = pids(watch.processes());
    watch.send(Map.of("key", "Enter"));
    long answered = System.currentTimeMillis();
    // Trusting makes it start itself anew: the prompt that takes input is the new process's. Its
    // old one (drawn when its dialog closes before it exits) loses what is typed, and is working.
    Look ready =
        watch.pollUntil(
            l ->
                started(l.screen())
                    && (relaunched(before) || l.at() - answered > RELAUNCH_OR_NEVER.toMillis()),
            STARTUP);
    if (ready == null) {
      throw new AssertionError("no ready prompt after trust; last screen:\n" + watch.lastScreen());
    }
    watch.table("relaunched after trust", "yes", relaunched(before) ? "yes" : "no", -1, "");
    watch.expectState("ready after trust", ready, "idle");
  }

  /**
   * Trusting the folder makes Gemini CLI relaunch itself, 250 ms after it drew "restarting", or
   * never when its dialog closes first; meanwhile it may show its old input box again, and what is
   * typed there is lost with that process. A prompt sent at once after the trust answer (odd
   * rounds) or once a wait says the session is idle (even rounds) is answered, every time. The
   * trust screen is answered once the engine said it waits, as a client that learns of it from the
   * engine does.
   */
  @RepeatedTest(10)
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void aPromptSentRightAfterTheTrustScreenIsAnswered(RepetitionInfo round) throws Exception {
    model.then(new ScriptedModelServer.Step.Text("Answered after the trust screen."));
    start(settings(true, true));
    watch.awaitScreen("trust screen", s -> s.contains(TRUST_QUESTION), STARTUP);
    Set<Long> before = pids(watch.processes());
    watch.send(Map.of("key", "Enter"));
    long trusted = System.currentTimeMillis();

    boolean waitFirst = round.getCurrentRepetition() % 2 == 0;
    if (waitFirst) {
      HttpResponse<String> idle =
          engine.get("/api/sessions/" + id + "/wait?for=idle&timeout=60", admin);
      assertThat(idle.statusCode()).as("wait for idle: %s", idle.body()).isEqualTo(200);
    }
    long sending = System.currentTimeMillis();
    Look sent = watch.send(Map.of("text", "Say something", "enter", true));
    Look answered =
        watch.pollUntil(
            l -> ready(l.screen()) && l.screen().contains("Answered after the trust screen."),
            Duration.ofSeconds(30));
    watch.table(
        "round " + round.getCurrentRepetition() + (waitFirst ? ", idle first" : ", at once"),
        "answered",
        answered == null ? "lost (model turns " + model.mainTurns() + ")" : "answered",
        answered == null ? -1 : answered.at() - sent.at(),
        "sent "
            + (sending - trusted)
            + " ms after the trust answer, send took "
            + (sent.at() - sending)
            + " ms | relaunched: "
            + relaunched(before));
    assertThat(answered)
        .as(
            "the prompt sent %s after trusting the folder was answered; model turns: %d;"
                + " screen:%n%s",
            waitFirst ? "once the session was idle" : "at once",
            model.mainTurns(),
            watch.lastScreen())
        .isNotNull();
  }

  @Test
  void theSignInChoiceScreenIsWaiting() throws Exception {
    // No auth type chosen yet: the CLI asks how to sign in (it offers the API key it sees).
    start(settings(false, false));
    Look asking = watch.awaitScreen("sign-in choice", s -> s.contains(AUTH_QUESTION), STARTUP);
    Look reported = watch.expectState("sign-in choice", asking, "waiting");
    softly
        .assertThat(reported.attention().path("kind").asText())
        .as("attention.kind on the sign-in choice (attention: %s)", reported.attention())
        .isEqualTo("first-run");
  }

  @Test
  void theReadyPromptIsIdle() throws Exception {
    start(settings(false, true));
    Look ready = watch.awaitScreen("ready prompt", RealGeminiCliIT::started, STARTUP);
    watch.expectState("ready prompt", ready, "idle");
    watch.holds("ready prompt, 3 s on", "idle", Duration.ofSeconds(3));
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
    watch.awaitScreen("ready prompt", RealGeminiCliIT::started, STARTUP);

    prompt("Explain the build slowly");
    Look streaming =
        watch.awaitScreen("slow answer", s -> s.contains(BUSY), Duration.ofSeconds(10));
    watch.expectState("slow answer", streaming, "working");
    Look done =
        watch.holdsUntil(
            "slow answer, while streaming",
            "working",
            s -> ready(s) && s.contains("That is all for now."),
            Duration.ofSeconds(30));
    watch.expectState("answer done", done, "idle");
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
    watch.awaitScreen("ready prompt", RealGeminiCliIT::started, STARTUP);

    prompt("Build the project");
    Look asking =
        watch.awaitScreen("shell approval", s -> s.contains(ALLOW_SHELL), Duration.ofSeconds(20));
    Look waiting = watch.expectState("shell approval", asking, "waiting");
    JsonNode attention = waiting.attention();
    softly
        .assertThat(attention.path("kind").asText())
        .as("attention.kind on the approval screen (attention: %s)", attention)
        .isEqualTo("permission");
    softly
        .assertThat(attention.path("detail").asText())
        .as("attention.detail names the command (attention: %s)", attention)
        .contains("sleep 14");
    watch.holds("shell approval, 3 s on", "waiting", Duration.ofSeconds(3));

    Look approved = watch.send(Map.of("key", "Enter"));
    watch.expectState("approval given", approved, "working");
    Look done =
        watch.holdsUntil(
            "shell running, then the answer",
            "working",
            s -> ready(s) && s.contains("Nothing else to do."),
            Duration.ofSeconds(45));
    watch.expectState("done after the shell call", done, "idle");
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
    watch.awaitScreen("ready prompt", RealGeminiCliIT::started, STARTUP);

    prompt("Trigger an error");
    Look failed =
        watch.awaitScreen("API error", s -> s.contains(API_ERROR), Duration.ofSeconds(20));
    Look reported = watch.expectState("API error", failed, "error");
    softly
        .assertThat(reported.attention().path("kind").asText())
        .as("attention.kind on the API error (attention: %s)", reported.attention())
        .isEqualTo("error");
    watch.holds("API error, 3 s on", "error", Duration.ofSeconds(3));

    // The next prompt is answered: the error line is still on the screen, but the session is idle.
    prompt("Try again");
    Look answered =
        watch.awaitScreen(
            "answer after the error",
            s -> ready(s) && s.contains("Answered this time."),
            Duration.ofSeconds(20));
    watch.expectState("answer after the error", answered, "idle");

    // Its daily quota used up (a 429 RESOURCE_EXHAUSTED it does not retry): nothing is broken, a
    // person waits or switches. "Keep trying" then gets an answer.
    model.then(
        new ScriptedModelServer.Step.UsageLimit(
            "You exceeded your current quota, please check your plan and billing details.",
            Instant.now().plus(Duration.ofHours(3))),
        new ScriptedModelServer.Step.Text("Answered after the limit."));
    prompt("Summarise the log");
    Look limited =
        watch.expectUsageLimit(
            "usage limit (429 RESOURCE_EXHAUSTED)",
            s -> s.contains("Usage limit reached"),
            Duration.ofSeconds(20));
    softly
        .assertThat(limited.attention().path("detail").asText())
        .as("its detail is Gemini CLI's words")
        .contains("Usage limit reached");
    watch.send(Map.of("key", "Enter")); // 1. Keep trying
    Look after =
        watch.awaitScreen(
            "answer after the usage limit",
            s -> ready(s) && s.contains("Answered after the limit."),
            Duration.ofSeconds(20));
    watch.expectState("answer after the usage limit", after, "idle");
  }

  @Test
  void theCliExitingAtStartIsStopped() throws Exception {
    // Gemini CLI refuses a settings file it cannot parse: it prints the error and exits 52.
    start("{ \"security\": { not json");
    Look gone =
        watch.awaitScreen(
            "CLI exited at start", s -> s.isEmpty() || Tmux.paneDead(engine.socket, id), STARTUP);
    Look stopped = watch.awaitExitStatus(watch.expectState("CLI exited at start", gone, "stopped"));
    HttpResponse<String> peek = engine.get("/api/sessions/" + id + "/peek?lines=5", admin);
    JsonNode lines = ThrowawayEngine.json(peek.body()).path("lines");
    JsonNode status = stopped.session() == null ? null : stopped.session().path("exit_status");
    watch.table("exit status, last lines", "52, error", status + ", " + lines, -1, "");
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
    watch.awaitScreen("ready prompt", RealGeminiCliIT::started, STARTUP);

    String[] prompts = {"First prompt", "Second prompt", "Third prompt"};
    List<String> submitted = new ArrayList<>();
    for (int i = 0; i < prompts.length; i++) {
      long turns = model.mainTurns();
      Look sent = watch.send(Map.of("text", prompts[i], "enter", true));
      Look after =
          watch.pollUntil(
              l -> model.mainTurns() > turns && ready(l.screen()), Duration.ofSeconds(8));
      boolean answered = after != null;
      watch.table(
          "prompt " + (i + 1) + " sent with enter",
          "answered",
          answered ? "answered" : "left in the input box",
          answered ? after.at() - sent.at() : -1,
          "");
      softly
          .assertThat(answered)
          .as(
              "prompt %d (%s) was submitted and answered; model turns: %d; screen:%n%s",
              i + 1, prompts[i], model.mainTurns(), answered ? "" : watch.lastScreen())
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
    watch.awaitScreen("ready prompt", RealGeminiCliIT::started, STARTUP);

    prompt("First prompt");
    watch.awaitScreen(
        "first answer", s -> ready(s) && s.contains("First answer."), Duration.ofSeconds(20));
    prompt("A prompt that fails");
    watch.awaitScreen("API error", s -> ready(s) && s.contains(API_ERROR), Duration.ofSeconds(20));
    prompt("Third prompt");
    watch.awaitScreen(
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
    watch.awaitScreen("ready prompt", RealGeminiCliIT::started, STARTUP);
    // A session in use: one turn done, and the CLI settled (killed while still starting up, both
    // node processes happen to die with the terminal).
    prompt("Hello");
    watch.awaitScreen(
        "first answer", s -> ready(s) && s.contains("Ready when you are."), Duration.ofSeconds(20));
    Thread.sleep(3_000);
    List<ProcessHandle> tree = watch.processes();
    assertThat(tree)
        .as("Gemini CLI runs as a node process and its re-executed child")
        .hasSizeGreaterThanOrEqualTo(2);

    watch.killAndExpectEveryProcessGone(tree);
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
    admin = engine.mintToken("gemini-it-admin", false);
    Map<String, String> request = Map.of("cli", "gemini", "cwd", project.toString());
    watch = ScreenWatch.ofNewSession("gemini-real", engine, admin, request, model, softly);
    id = watch.id();
  }

  /**
   * Types a prompt and submits it, in two calls of the engine's API. One {@code {"text", "enter":
   * true}} types and presses Enter at once, which Gemini CLI reads as a newline inside its
   * fast-return window: {@link #everyPromptSentThroughTheEngineIsSubmitted} holds the engine to
   * that; the scenarios only need the prompt to arrive.
   */
  private Look prompt(String text) throws Exception {
    watch.send(Map.of("text", text, "enter", false));
    Thread.sleep(SUBMIT_GAP_MILLIS);
    long turns = model.mainTurns();
    Look sent = watch.send(Map.of("key", "Enter"));
    // A CLI busy painting reads both keys at once (the newline again): Enter once more if the
    // prompt is still in the box. An Enter on an empty box does nothing.
    for (int retry = 0; retry < 2; retry++) {
      if (watch.pollUntil(l -> model.mainTurns() > turns || !typed(l.screen(), text), seconds(2))
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

  /** Empties Gemini's input box (Ctrl+C clears typed text without quitting). */
  private void clearInput() throws Exception {
    watch.send(Map.of("key", "C-c"));
    watch.pollUntil(l -> ready(l.screen()), seconds(3));
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

  private static Duration seconds(long n) {
    return Duration.ofSeconds(n);
  }

  private static Set<Long> pids(List<ProcessHandle> processes) {
    Set<Long> pids = new LinkedHashSet<>();
    processes.forEach(p -> pids.add(p.pid()));
    return pids;
  }

  /** Whether a process runs in the pane now that did not before. */
  private boolean relaunched(Set<Long> before) {
    try {
      return !before.containsAll(pids(watch.processes()));
    } catch (TmuxException e) {
      return false;
    }
  }
}
