package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.tmux.TmuxException;
import dev.clique.engine.tmux.TmuxProcess;
import dev.clique.models.AnthropicModelServer;
import dev.clique.models.ScriptedModelServer.Step;
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
 * <p>The screens are watched directly with tmux, every {@value #TICK_MILLIS} ms, next to the
 * engine's answer: a state must show within {@link #SOON} of the screen that calls for it. One line
 * per screen goes to stderr: screen, expected, reported, delay.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class RealPiIT {
  /** How soon after a screen the engine must report its state. */
  static final Duration SOON = Duration.ofSeconds(1);

  /** How long a state is looked for after its screen, to tell "late" from "never". */
  static final Duration PATIENCE = Duration.ofSeconds(8);

  static final long TICK_MILLIS = 100;

  /** How long the CLI may take to come up, or the model to be asked. */
  static final Duration STARTUP = Duration.ofSeconds(45);

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String BANNER = "v" + AgentClis.pinned("@earendil-works/pi-coding-agent");
  private static final String MODEL = "scripted-model";
  private static final String BUSY = "Working";
  private static final String RETRYING = "Retrying (";
  private static final String TRUST_QUESTION = "Trust project folder?";
  private static final String DIALOG = "Allow?";
  private static final String FINAL_ERROR = "Error: Retry failed after";

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
    model = new AnthropicModelServer(AnthropicModelServer.PI_SHELL_TOOL);
    home = Files.createTempDirectory("clique-it-pi-home-");
    project = Files.createTempDirectory("clique-it-pi-project-");
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
    model.then(
        new Step.SlowText(slow, 12, Duration.ofSeconds(8)),
        new Step.ShellCall(command, "Clean the scratch folder"),
        new Step.SlowText(
            "The scratch folder is gone. Nothing else to do.", 4, Duration.ofSeconds(2)),
        new Step.Failure(500, "api_error", "The scripted server failed on purpose."),
        new Step.Text("Answered this time."));
    Files.createDirectories(project.resolve("scratch"));
    start(false);

    Look ready = awaitScreen("ready prompt", RealPiIT::started, STARTUP);
    expectState("ready prompt", ready, "idle");
    softly
        .assertThat(engine.awaitCliVersion(admin, id, Duration.ofSeconds(5)))
        .as("cli_version of the session")
        .isEqualTo(AgentClis.pinned("@earendil-works/pi-coding-agent"));
    holds("ready prompt, 2 s on", "idle", Duration.ofSeconds(2));

    prompt("Explain the build slowly");
    Look streaming = awaitScreen("slow answer", s -> busy(s), Duration.ofSeconds(15));
    expectState("slow answer", streaming, "working");
    Look done =
        holdsUntil(
            "slow answer, while streaming",
            "working",
            s -> ready(s) && s.contains("That is all for now."),
            Duration.ofSeconds(30));
    expectState("answer done", done, "idle");

    prompt("Clean up the scratch folder");
    Look asking = awaitScreen("approval dialog", s -> s.contains(DIALOG), Duration.ofSeconds(15));
    Look waiting = expectState("approval dialog", asking, "waiting");
    softly
        .assertThat(waiting.attention().path("kind").asText())
        .as("attention.kind on the approval dialog (attention: %s)", waiting.attention())
        .isEqualTo("question");
    softly
        .assertThat(waiting.attention().path("detail").asText())
        .as("attention.detail names the command (attention: %s)", waiting.attention())
        .contains("rm -rf ./scratch");
    holds("approval dialog, 2 s on", "waiting", Duration.ofSeconds(2));
    Look approved = send(Map.of("key", "Enter"));
    expectState("approval given", approved, "working");
    Look cleaned =
        holdsUntil(
            "command running, then the answer",
            "working",
            s -> ready(s) && s.contains("Nothing else to do."),
            Duration.ofSeconds(30));
    expectState("done after the command", cleaned, "idle");
    softly.assertThat(project.resolve("clean.log")).as("the approved command ran").exists();

    prompt("Trigger an error");
    Look retrying =
        awaitScreen("API error 500, retrying", s -> s.contains(RETRYING), Duration.ofSeconds(15));
    expectState("API error 500, retrying", retrying, "working");
    Look failed =
        holdsUntil(
            "pi's retries",
            "working",
            s -> s.contains(FINAL_ERROR) && !busy(s),
            Duration.ofSeconds(45));
    Look reported = expectState("API error 500, retries spent", failed, "error");
    softly
        .assertThat(reported.attention().path("kind").asText())
        .as("attention.kind on the API error (attention: %s)", reported.attention())
        .isEqualTo("error");
    softly
        .assertThat(reported.attention().path("detail").asText())
        .as("attention.detail says what failed (attention: %s)", reported.attention())
        .contains("500");
    holds("API error, 2 s on", "error", Duration.ofSeconds(2));

    // The error line stays on the screen above the next answer: the session is idle again.
    prompt("Try again");
    Look answered =
        awaitScreen(
            "answer after the error",
            s -> ready(s) && s.contains("Answered this time."),
            Duration.ofSeconds(20));
    expectState("answer after the error", answered, "idle");

    JsonNode conversation = checkConversation();
    checkKill();
    checkRestartResumes(conversation);
  }

  /**
   * Started again under the same id, pi continues the session of that id (its {@code --session-id}
   * opens it): it shows the last answer, and the conversation is the one it had.
   */
  private void checkRestartResumes(JsonNode before) throws Exception {
    HttpResponse<String> started = engine.post("/api/sessions/" + id + "/start", admin, "{}");
    assertThat(started.statusCode()).as("start answered %s", started.body()).isEqualTo(200);
    // Its history is drawn again above its editor; the banner has scrolled away.
    Look resumed =
        awaitScreen(
            "ready after restart", s -> ready(s) && s.contains("Answered this time."), STARTUP);
    expectState("ready after restart", resumed, "idle");
    JsonNode after = RecordedConversation.turns(engine, admin, id, before.size(), seconds(3));
    softly.assertThat(after).as("the conversation after the restart").isEqualTo(before);
    rememberPaneProcesses();
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
            + " (5 prompts sent, 1 failed; %d lines in its session file)%n",
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
                    Map.of("role", "assistant", "text", "Answered this time."))));
    softly.assertThat(own).as("pi's own view of its session file").isEqualTo(expected);
    softly
        .assertThat(turns)
        .as("the conversation the engine read from the pane's ~/.pi (%s)", session)
        .isEqualTo(own);
    for (int i = 0; i < Math.max(turns.size(), own.size()); i++) {
      JsonNode ours = turns.path(i);
      JsonNode theirs = own.path(i);
      table(
          "turn " + (i + 1),
          theirs.path("role").asText("-"),
          ours.path("role").asText("-") + (ours.equals(theirs) ? " (same text)" : " (DIFFERS)"),
          -1,
          "");
    }
    return turns;
  }

  private void checkKill() throws Exception {
    List<ProcessHandle> tree = paneTree();
    assertThat(tree).as("pi runs in the pane").isNotEmpty();
    System.err.println(
        "pi-real    | pane processes: " + tree.stream().map(SessionProcesses::describe).toList());
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

  @Test
  void theProjectTrustMenuIsWaitingAndTrustingItLeadsToAnIdlePrompt() throws Exception {
    // A folder with settings of its own: pi asks whether to trust it before it loads them.
    Files.createDirectories(project.resolve(".pi"));
    Files.writeString(project.resolve(".pi/settings.json"), "{}");
    start(false);
    Look trust = awaitScreen("trust menu", s -> s.contains(TRUST_QUESTION), STARTUP);
    Look reported = expectState("trust menu", trust, "waiting");
    softly
        .assertThat(reported.attention().path("kind").asText())
        .as("attention.kind on the trust menu (attention: %s)", reported.attention())
        .isEqualTo("trust");

    send(Map.of("key", "Enter"));
    Look ready = awaitScreen("ready after trust", RealPiIT::started, STARTUP);
    expectState("ready after trust", ready, "idle");
  }

  @Test
  void theCliExitingAtStartIsStoppedWithItsExitStatus() throws Exception {
    // A model the person's pi does not know (a catalogue override passes it): pi says so, exits 1.
    start(true);
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
    HttpResponse<String> peek = engine.get("/api/sessions/" + id + "/peek?lines=5", admin);
    JsonNode lines = ThrowawayEngine.json(peek.body()).path("lines");
    JsonNode status = stopped.session() == null ? null : stopped.session().path("exit_status");
    table("exit status, last lines", "1, error", status + ", " + lines, -1, "");
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
                        model.url(),
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
    engine =
        prepared
            .withEnv(
                Map.of(
                    "HOME", home.toString(),
                    "PATH", AgentClis.path(),
                    "PI_OFFLINE", "1",
                    "PI_TELEMETRY", "0",
                    "PI_SKIP_VERSION_CHECK", "1"))
            .start();
    tmux = new TmuxProcess("tmux", engine.socket, Duration.ofSeconds(10));
    admin = engine.mintToken("pi-it-admin", false);
    String body = JSON.writeValueAsString(Map.of("cli", "pi", "cwd", project.toString()));
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

  /** Types a prompt and submits it in one call; the model must be asked within a few seconds. */
  private Look prompt(String text) throws Exception {
    int turns = model.turns().size();
    Look sent = send(Map.of("text", text, "enter", true));
    Look asked = pollUntil(l -> model.turns().size() > turns, seconds(8));
    table(
        "prompt sent with enter",
        "submitted",
        asked != null ? "submitted" : "left in the editor",
        asked != null ? asked.at() - sent.at() : -1,
        text);
    assertThat(asked)
        .as("the prompt %s was submitted; last screen:%n%s", text, lastScreen())
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
  private static boolean started(String screen) {
    return ready(screen) && screen.contains(BANNER);
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
        "pi-real    | %-34s | expected %-8s | reported %-22s | %8s | %s%n",
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
