package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.conformance.ScreenWatch.Look;
import dev.clique.models.AnthropicModelServer;
import dev.clique.models.ScriptedModelServer;
import dev.clique.models.ScriptedModelServer.Step;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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
 * The real pi (1.6.0, as {@code agent-clis/package-lock.json} pins it, on the Node 22 it needs) run
 * as a clique session against a scripted Anthropic Messages API on loopback: each screen a person
 * would name is brought up on purpose, and the state {@code /api/state} reports for it is checked,
 * with how soon it came.
 *
 * <p>pi asks no permission of its own; a person who wants to approve commands loads an extension
 * that asks, and the suite's person has pi's own example {@code permission-gate.ts} in their {@code
 * settings.json}: its dialog is the approval. The scenarios a session can share run in one pi
 * session (ready, a streamed answer, the approval, a failed request and the next answer, the
 * conversation, kill), which keeps the suite short.
 *
 * <p>Each test has its own engine (home, tmux socket, port), its own model server, and a throwaway
 * {@code HOME} for the pane whose {@code ~/.pi/agent/models.json} names one provider, the model
 * server ({@code anthropic-messages}, a fake key), with {@code PI_OFFLINE}, {@code PI_TELEMETRY=0}
 * and {@code PI_SKIP_VERSION_CHECK}: pi talks to 127.0.0.1 only. Input goes through the engine's
 * own {@code POST /api/sessions/{id}/send}, each prompt typed and submitted in one call.
 *
 * <p>The screens are watched directly with tmux, every {@value ScreenWatch#TICK_MILLIS} ms, next to
 * the engine's answer: a state must show within {@link ScreenWatch#SOON} of the screen that calls
 * for it. One line per screen goes to stderr: screen, expected, reported, delay.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class RealPiIT {
  /** How long the CLI may take to come up, or the model to be asked. */
  static final Duration STARTUP = Duration.ofSeconds(45);

  private static final ScriptedModelServer.Tokens TOKENS =
      new ScriptedModelServer.Tokens(1234, 56, 700, 300);
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String BANNER = "v" + AgentClis.pinned("@earendil-works/pi-coding-agent");
  static final String MODEL = "scripted-model";
  private static final String BUSY = "Working";
  private static final String RETRYING = "Retrying (";
  private static final String TRUST_QUESTION = "Trust project folder?";
  private static final String DIALOG = "Allow?";
  private static final String FINAL_ERROR = "Error: Retry failed after";

  /**
   * pi's extension hears a turn settle a repaint before pi's terminal draws it: a look in between
   * may report what the next screen calls for.
   */
  private static final ScreenWatch.Ahead CLI_AHEAD_IDLE =
      ScreenWatch.Ahead.fromTheCli("idle", ScreenWatch.SOON);

  /** Anthropic's words for an API key over its request rate limit. */
  private static final String LIMIT_WORDS =
      "Rate limit reached: this organization's rate limit of 50 requests per minute was exceeded.";

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
    model = new AnthropicModelServer(AnthropicModelServer.PI_SHELL_TOOL);
    home = Files.createTempDirectory("clique-it-pi-home-");
    project = Files.createTempDirectory("clique-it-pi-project-");
  }

  @AfterEach
  void tearDown() throws Exception {
    ScreenWatch.endTest(watch, engine, model, home, project);
    softly.assertAll();
  }

  /**
   * One pi session through the screens a person meets in a working day: the ready prompt, a slow
   * streamed answer, a command an extension asks to approve, a request that fails after pi's own
   * retries, the answer after it; then its conversation against pi's own view of its file, and
   * kill.
   */
  @Test
  void oneSessionThroughItsScreensItsConversationKillAndRestart() throws Exception {
    String slow =
        "Here is a slow answer that streams in many small pieces while the model talks about"
            + " the build, the tests and the release notes. That is all for now.";
    String command = "sleep 2 && rm -rf ./scratch && echo cleaned > clean.log";
    // Each answer reports these counts; Anthropic counts the cache apart from the input.
    model.answering(TOKENS);
    model.then(
        new Step.SlowText(slow, 12, Duration.ofSeconds(8)),
        new Step.ShellCall(command, "Clean the scratch folder"),
        new Step.SlowText(
            "The scratch folder is gone. Nothing else to do.", 4, Duration.ofSeconds(2)),
        new Step.Failure(500, "api_error", "The scripted server failed on purpose."),
        new Step.Text("Answered this time."),
        new Step.UsageLimit(LIMIT_WORDS, Instant.now().plusSeconds(600)),
        new Step.Text("Answered after the limit."));
    Files.createDirectories(project.resolve("scratch"));
    start(false);

    Look ready = watch.awaitScreen("ready prompt", RealPiIT::started, STARTUP);
    watch.expectState("ready prompt", ready, "idle");
    softly
        .assertThat(engine.awaitCliVersion(admin, id, Duration.ofSeconds(5)))
        .as("cli_version of the session")
        .isEqualTo(AgentClis.pinned("@earendil-works/pi-coding-agent"));
    watch.holds("ready prompt, 2 s on", "idle", Duration.ofSeconds(2));

    prompt("Explain the build slowly");
    Look streaming = watch.awaitScreen("slow answer", s -> busy(s), Duration.ofSeconds(15));
    watch.expectState("slow answer", streaming, "working");
    Look done =
        watch.holdsUntil(
            "slow answer, while streaming",
            "working",
            s -> ready(s) && s.contains("That is all for now."),
            Duration.ofSeconds(30),
            CLI_AHEAD_IDLE);
    watch.expectState("answer done", done, "idle");

    prompt("Clean up the scratch folder");
    Look asking =
        watch.awaitScreen("approval dialog", s -> s.contains(DIALOG), Duration.ofSeconds(15));
    Look waiting = watch.expectState("approval dialog", asking, "waiting");
    softly
        .assertThat(waiting.attention().path("kind").asText())
        .as("attention.kind on the approval dialog (attention: %s)", waiting.attention())
        .isEqualTo("question");
    softly
        .assertThat(waiting.attention().path("detail").asText())
        .as("attention.detail names the command (attention: %s)", waiting.attention())
        .contains("rm -rf ./scratch");
    watch.holds("approval dialog, 2 s on", "waiting", Duration.ofSeconds(2));
    Look approved = watch.send(Map.of("key", "Enter"));
    watch.expectState("approval given", approved, "working");
    Look cleaned =
        watch.holdsUntil(
            "command running, then the answer",
            "working",
            s -> ready(s) && s.contains("Nothing else to do."),
            Duration.ofSeconds(30),
            CLI_AHEAD_IDLE);
    watch.expectState("done after the command", cleaned, "idle");
    softly.assertThat(project.resolve("clean.log")).as("the approved command ran").exists();

    prompt("Trigger an error");
    Look retrying =
        watch.awaitScreen(
            "API error 500, retrying", s -> s.contains(RETRYING), Duration.ofSeconds(15));
    watch.expectState("API error 500, retrying", retrying, "working");
    Look failed =
        watch.holdsUntil(
            "pi's retries",
            "working",
            s -> s.contains(FINAL_ERROR) && !busy(s),
            Duration.ofSeconds(45),
            ScreenWatch.Ahead.fromTheCli("error", ScreenWatch.SOON));
    Look reported = watch.expectState("API error 500, retries spent", failed, "error");
    softly
        .assertThat(reported.attention().path("kind").asText())
        .as("attention.kind on the API error (attention: %s)", reported.attention())
        .isEqualTo("error");
    softly
        .assertThat(reported.attention().path("detail").asText())
        .as("attention.detail says what failed (attention: %s)", reported.attention())
        .contains("500");
    watch.holds("API error, 2 s on", "error", Duration.ofSeconds(2));

    // The error line stays on the screen above the next answer: the session is idle again.
    prompt("Try again");
    Look answered =
        watch.awaitScreen(
            "answer after the error",
            s -> ready(s) && s.contains("Answered this time."),
            Duration.ofSeconds(20));
    watch.expectState("answer after the error", answered, "idle");

    // Its vendor's rate limit: a 429 rate_limit_error for every try of the turn. Once pi gives up
    // retrying, nothing is broken: a person waits or switches, and asks again later.
    prompt("Summarise the log");
    Look limited =
        watch.expectUsageLimit(
            "usage limit (429), retries spent",
            s -> s.contains(FINAL_ERROR) && s.contains("429") && !busy(s),
            Duration.ofSeconds(90));
    softly
        .assertThat(limited.attention().path("detail").asText())
        .as("attention.detail: the vendor's words (attention: %s)", limited.attention())
        .contains("Rate limit reached");
    watch.holds("usage limit, 2 s on", "waiting", Duration.ofSeconds(2));
    prompt("Try again");
    Look afterLimit =
        watch.awaitScreen(
            "answer after the usage limit",
            s -> ready(s) && s.contains("Answered after the limit."),
            Duration.ofSeconds(20));
    watch.expectState("answer after the usage limit", afterLimit, "idle");

    JsonNode conversation = checkConversation();
    // Five answers reported their tokens (the failed request and the limit's tries none): the
    // slow one, the shell call and the answer after it, the answers after the error and the limit.
    Map<String, Long> sent = UsageProof.sent(TOKENS, 5);
    softly
        .assertThat(UsageProof.await(engine, admin, id, "pi-real   ", sent, seconds(10)))
        .as("usage read from pi's session file, beside what the server sent")
        .isEqualTo(sent);
    checkKill();
    checkRestartResumes(conversation);
  }

  /**
   * Started again under the same id, pi continues the session of that id (its {@code --session-id}
   * opens it): it shows the last answer, and the conversation is the one it had.
   */
  private void checkRestartResumes(JsonNode before) throws Exception {
    // Its history is drawn again above its editor; the banner has scrolled away.
    watch.startAgain(s -> ready(s) && s.contains("Answered this time."), STARTUP);
    JsonNode after = RecordedConversation.turns(engine, admin, id, before.size(), seconds(3));
    softly.assertThat(after).as("the conversation after the restart").isEqualTo(before);
  }

  /** The conversation the engine reads is the one pi's own session manager reads. */
  private JsonNode checkConversation() throws Exception {
    Path session = RecordedConversation.onlyFile(home.resolve(".pi/agent/sessions"), ".jsonl");
    softly
        .assertThat(session.getFileName().toString())
        .as("pi was started with the session's id")
        .endsWith("_" + id + ".jsonl");
    JsonNode own = PiOwnView.of(session);
    JsonNode turns = RecordedConversation.turns(engine, admin, id, own.size(), seconds(3));
    System.err.printf(
        "pi-real    | conversation turns: %d read by clique, %d in pi's own view"
            + " (7 prompts sent, 2 failed; %d lines in its session file)%n",
        turns.size(), own.size(), Files.readAllLines(session).size());
    RecordedConversation.keep(
        session, "pi-" + AgentClis.pinned("@earendil-works/pi-coding-agent") + "-session.jsonl");
    JsonNode expected =
        JSON.readTree(
            JSON.writeValueAsString(
                List.of(
                    Map.of("role", "user", "text", "Explain the build slowly"),
                    Map.of(
                        "role",
                        "assistant",
                        "text",
                        "Here is a slow answer that streams in many small pieces while the model"
                            + " talks about the build, the tests and the release notes. That is"
                            + " all for now."),
                    Map.of("role", "user", "text", "Clean up the scratch folder"),
                    Map.of(
                        "role",
                        "assistant",
                        "text",
                        "The scratch folder is gone. Nothing else to do."),
                    Map.of("role", "user", "text", "Trigger an error\n\nTry again"),
                    Map.of("role", "assistant", "text", "Answered this time."),
                    Map.of("role", "user", "text", "Summarise the log\n\nTry again"),
                    Map.of("role", "assistant", "text", "Answered after the limit."))));
    softly.assertThat(own).as("pi's own view of its session file").isEqualTo(expected);
    softly
        .assertThat(turns)
        .as("the conversation the engine read from the pane's ~/.pi (%s)", session)
        .isEqualTo(own);
    for (int i = 0; i < Math.max(turns.size(), own.size()); i++) {
      JsonNode ours = turns.path(i);
      JsonNode theirs = own.path(i);
      watch.table(
          "turn " + (i + 1),
          theirs.path("role").asText("-"),
          ours.path("role").asText("-") + (ours.equals(theirs) ? " (same text)" : " (DIFFERS)"),
          -1,
          "");
    }
    return turns;
  }

  private void checkKill() throws Exception {
    List<ProcessHandle> tree = watch.processes();
    assertThat(tree).as("pi runs in the pane").isNotEmpty();
    watch.killAndExpectEveryProcessGone(tree);
  }

  @Test
  void theProjectTrustMenuIsWaitingAndTrustingItLeadsToAnIdlePrompt() throws Exception {
    // A folder with settings of its own: pi asks whether to trust it before it loads them.
    Files.createDirectories(project.resolve(".pi"));
    Files.writeString(project.resolve(".pi/settings.json"), "{}");
    start(false);
    Look trust = watch.awaitScreen("trust menu", s -> s.contains(TRUST_QUESTION), STARTUP);
    Look reported = watch.expectState("trust menu", trust, "waiting");
    softly
        .assertThat(reported.attention().path("kind").asText())
        .as("attention.kind on the trust menu (attention: %s)", reported.attention())
        .isEqualTo("trust");

    watch.send(Map.of("key", "Enter"));
    Look ready = watch.awaitScreen("ready after trust", RealPiIT::started, STARTUP);
    watch.expectState("ready after trust", ready, "idle");
  }

  @Test
  void theCliExitingAtStartIsStoppedWithItsExitStatus() throws Exception {
    // A model the person's pi does not know (a catalogue override passes it): pi says so, exits 1.
    start(true);
    Look gone =
        watch.awaitScreen(
            "CLI exited at start", s -> s.isEmpty() || Tmux.paneDead(engine.socket, id), STARTUP);
    Look stopped = watch.awaitExitStatus(watch.expectState("CLI exited at start", gone, "stopped"));
    HttpResponse<String> peek = engine.get("/api/sessions/" + id + "/peek?lines=5", admin);
    JsonNode lines = ThrowawayEngine.json(peek.body()).path("lines");
    JsonNode status = stopped.session() == null ? null : stopped.session().path("exit_status");
    watch.table("exit status, last lines", "1, error", status + ", " + lines, -1, "");
    softly.assertThat(status == null ? -1 : status.asInt(-1)).as("exit_status").isEqualTo(1);
    softly.assertThat(lines.toString()).as("its last lines stay readable").contains("not found");
  }

  // --- the session ---

  /**
   * Starts an engine whose panes find the real pi (and its Node 22) and the model server, and one
   * pi session in {@code project}; {@code unknownModel}: a catalogue override makes pi start with a
   * model it does not know.
   */
  private void start(boolean unknownModel) throws Exception {
    Path agent = modelsOf(home, model.url());
    Path gate =
        AgentClis.bin()
            .getParent()
            .resolve("@earendil-works/pi-coding-agent/examples/extensions/permission-gate.ts");
    assertThat(gate).as("pi's own example extension").exists();
    Files.writeString(
        agent.resolve("settings.json"),
        JSON.writeValueAsString(
            Map.of(
                "defaultProvider",
                "scripted",
                "defaultModel",
                MODEL,
                "extensions",
                List.of(gate.toString()))));
    ThrowawayEngine prepared = ThrowawayEngine.prepare();
    if (unknownModel) {
      Files.writeString(
          prepared.home.resolve("clis.toml"),
          "[cli.pi]\nargs = [\"--session-id\", \"{id}\", \"-e\", \"{hook_settings}\","
              + " \"--model\", \"no-such-model\"]\n");
    }
    engine = prepared.withEnv(offlineEnvironment(home)).start();
    admin = engine.mintToken("pi-it-admin", false);
    Map<String, String> request = Map.of("cli", "pi", "cwd", project.toString());
    watch = ScreenWatch.ofNewSession("pi-real   ", engine, admin, request, model, softly);
    id = watch.id();
  }

  /**
   * Makes {@code home} a person's home for pi: {@code ~/.pi/agent/models.json} names one provider,
   * the scripted server at {@code modelUrl} ({@code anthropic-messages}, a fake key, model {@value
   * #MODEL}); returns that agent folder, for a {@code settings.json} of the caller's.
   */
  static Path modelsOf(Path home, String modelUrl) throws IOException {
    Path agent = Files.createDirectories(home.resolve(".pi/agent"));
    Files.writeString(
        agent.resolve("models.json"),
        JSON.writeValueAsString(
            Map.of(
                "providers",
                Map.of(
                    "scripted",
                    Map.of(
                        "baseUrl",
                        modelUrl,
                        "api",
                        "anthropic-messages",
                        "apiKey",
                        "fake-key-for-a-scripted-model",
                        "models",
                        List.of(
                            Map.of(
                                "id",
                                MODEL,
                                "name",
                                "Scripted",
                                "contextWindow",
                                200000,
                                "maxTokens",
                                8192)))))));
    return agent;
  }

  /**
   * A shell's environment for pi in {@code home}: the real pi first on PATH, nothing phoning out.
   */
  static Map<String, String> offlineEnvironment(Path home) {
    return Map.of(
        "HOME", home.toString(),
        "PATH", AgentClis.path(),
        "PI_OFFLINE", "1",
        "PI_TELEMETRY", "0",
        "PI_SKIP_VERSION_CHECK", "1");
  }

  /** Types a prompt and submits it in one call; the model must be asked within a few seconds. */
  private Look prompt(String text) throws Exception {
    int turns = model.turns().size();
    Look sent = watch.send(Map.of("text", text, "enter", true));
    Look asked = watch.pollUntil(l -> model.turns().size() > turns, seconds(8));
    watch.table(
        "prompt sent with enter",
        "submitted",
        asked != null ? "submitted" : "left in the editor",
        asked != null ? asked.at() - sent.at() : -1,
        text);
    assertThat(asked)
        .as("the prompt %s was submitted; last screen:%n%s", text, watch.lastScreen())
        .isNotNull();
    return sent;
  }

  /** Its status line while it works: a spinner frame and "Working" (or "Retrying"). */
  private static boolean busy(String screen) {
    return bottom(screen, 8).contains(BUSY) || bottom(screen, 8).contains(RETRYING);
  }

  /** The ready prompt: its footer naming the model, and no status line, dialog or menu above. */
  private static boolean ready(String screen) {
    return bottom(screen, 3).contains(MODEL)
        && !busy(screen)
        && !bottom(screen, 12).contains(DIALOG)
        && !bottom(screen, 12).contains(TRUST_QUESTION);
  }

  /** The ready prompt as pi leaves it once it has started: its banner is drawn too. */
  static boolean started(String screen) {
    return ready(screen) && screen.contains(BANNER);
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
