package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.engine.tmux.TmuxException;
import dev.clique.engine.tmux.TmuxProcess;
import dev.clique.models.AnthropicModelServer;
import dev.clique.models.ScriptedModelServer.Step;
import dev.clique.models.ScriptedModelServer.Tokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real Claude Code (the version {@code agent-clis} pins) as a clique session, against {@link
 * AnthropicModelServer} on loopback: each screen a person would see, and the state {@code
 * /api/state} reports for it, and how soon.
 *
 * <p>Each test has its own engine, model server, {@code HOME} (so its own {@code ~/.claude.json})
 * and project folder. The session is made through the engine's API as a person's client would
 * ({@code cli: claude, mode: default}), everything typed goes through {@code /send}. Nothing leaves
 * the machine: the pane's environment points Claude Code at the model server, pre-approves the fake
 * API key (so the first run does not check connectivity with its vendor) and turns off its
 * non-essential traffic and the plugin marketplace it would otherwise clone.
 *
 * <p>A state must show within {@link #REACTION} of the screen that calls for it (the pane is read
 * directly from tmux every {@link #POLL}), and hold while the screen stays. A table of every screen
 * (expected, reported, delay) is printed to stderr. The assertions are soft: a test goes through
 * all of its screens and then fails with every mismatch.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RealClaudeCodeIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Not a key: Claude Code only keeps its last 20 characters, as approved, in ~/.claude.json. */
  private static final String API_KEY =
      "sk-ant-api03-clique-conformance-not-a-real-key-0123456789ABCDEFGHIJ";

  /** How soon after a screen appears its state must be reported. */
  private static final Duration REACTION = Duration.ofSeconds(1);

  /** How often the pane and {@code /api/state} are looked at. */
  private static final Duration POLL = Duration.ofMillis(100);

  /** How long a late state is still waited for, so the table tells how late. */
  private static final Duration LATE = Duration.ofSeconds(6);

  /** How long Claude Code may take to start and draw its first screen. */
  private static final Duration START = Duration.ofSeconds(30);

  private static final Duration TURN = Duration.ofSeconds(20);

  private static final List<String> TABLE = Collections.synchronizedList(new ArrayList<>());

  /** What Claude Code finds in its config when it starts. */
  enum Setup {
    /** Onboarding done, the key approved, the project folder trusted: straight to the prompt. */
    READY,
    /** As READY, but the folder was never trusted: the trust question first. */
    UNTRUSTED_FOLDER,
    /** Only the key approved: the theme picker, the security notes, the trust question. */
    FIRST_RUN
  }

  @AfterAll
  static void printTable() {
    System.err.println();
    System.err.println(
        row("test", "screen", "expected", "reported", "delay, wait lag ms", "state_source"));
    TABLE.forEach(System.err::println);
  }

  @Test
  void firstRunScreensWaitForAPersonAndTheReadyPromptIsIdle() throws Exception {
    try (Rig rig = Rig.start("first-run", Setup.FIRST_RUN, null)) {
      long created = rig.create();
      Seen theme =
          rig.expect("theme picker", shows("Choose the text style"), "waiting", created, START);
      rig.expectAttention("theme picker", theme.reported(), "first-run");
      rig.hold("theme picker, held", "waiting", theme, Duration.ofSeconds(3), shows("text style"));

      Seen notes =
          rig.expect(
              "security notes",
              shows("Security notes", "Press Enter to continue"),
              "waiting",
              rig.key("Enter"),
              TURN);
      rig.expectAttention("security notes", notes.reported(), "first-run");
      rig.hold("security notes, held", "waiting", notes, Duration.ofSeconds(2), shows("Security"));

      Seen trust =
          rig.expect(
              "folder trust question",
              shows("Quick safety check", "Yes, I trust this folder"),
              "waiting",
              rig.key("Enter"),
              TURN);
      rig.expectAttention("folder trust question", trust.reported(), "trust");
      rig.hold(
          "folder trust, held", "waiting", trust, Duration.ofSeconds(2), shows("safety check"));

      rig.key("Down");
      Thread.sleep(300);
      rig.expect("ready prompt", readyPrompt(), "idle", rig.key("Enter"), TURN);
      rig.softly
          .assertThat(rig.engine.awaitCliVersion(rig.admin, rig.id, Duration.ofSeconds(5)))
          .as("cli_version of the session")
          .isEqualTo(AgentClis.pinned("@anthropic-ai/claude-code"));
      rig.verify();
    }
  }

  @Test
  void decliningTheFolderTrustQuestionStopsTheSession() throws Exception {
    try (Rig rig = Rig.start("trust-declined", Setup.UNTRUSTED_FOLDER, null)) {
      long created = rig.create();
      Seen trust =
          rig.expect(
              "folder trust question",
              shows("Quick safety check", "No, exit"),
              "waiting",
              created,
              START);
      rig.expectAttention("folder trust question", trust.reported(), "trust");
      rig.hold(
          "folder trust, held", "waiting", trust, Duration.ofSeconds(3), shows("safety check"));

      // Its default answer is "No, exit": Claude Code says why and ends.
      rig.expect("exited after No, exit", paneGone(), "stopped", rig.key("Enter"), TURN);
      rig.verify();
    }
  }

  @Test
  void aConversationWithAnApprovedShellCallReadsAsAPersonWouldNameIt() throws Exception {
    try (Rig rig = Rig.start("conversation", Setup.READY, null)) {
      long created = rig.create();
      rig.expect("ready prompt", readyPrompt(), "idle", created, START);

      String story =
          "Here is a slow answer that streams in many small pieces, so the screen keeps"
              + " changing for a while before it stops.";
      rig.model.then(new Step.SlowText(story, 20, Duration.ofSeconds(10)));
      Seen streaming =
          rig.expect("streamed answer", busy(), "working", rig.send("Tell me a slow story"), TURN);
      rig.hold("streamed answer, held", "working", streaming, Duration.ofSeconds(7), busy());
      rig.expect(
          "answer done",
          readyPrompt().and(shows("before it stops.")),
          "idle",
          streaming.at(),
          TURN);

      String command = "sleep 3; echo clique-marker-42 > marker.txt";
      Seen promptSeen;
      rig.model.then(
          new Step.ShellCall(command, "Printing a marker"),
          new Step.Text("The marker is written."));
      // An assistant's `wait` through `clique mcp`, held while Claude Code works on the prompt:
      // it must answer waiting within a second of the permission prompt.
      Map<String, String> mcpEnv = rig.engine.mcpEnv(rig.engine.mintToken("assistant", true));
      try (Spawned mcp = Spawned.start(Launcher.jarCommand("mcp"), mcpEnv, rig.engine.workdir)) {
        McpDialogue assistant = new McpDialogue(mcp);
        assistant.initialize("2025-11-25");
        long sent = rig.send("Write the marker file");
        rig.awaitWorking(sent);
        CompletableFuture<Long> answered =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    JsonNode result =
                        assistant.callTool("wait", Map.of("id", rig.id(), "timeout", 30));
                    long at = System.nanoTime();
                    rig.softly
                        .assertThat(result.at("/result/structuredContent/state").asText())
                        .as("the assistant's wait answers: %s", result)
                        .isEqualTo("waiting");
                    return at;
                  } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                  }
                });
        Seen prompt =
            rig.expect(
                "Bash permission prompt", shows("Do you want to proceed?"), "waiting", sent, TURN);
        long lag = TimeUnit.NANOSECONDS.toMillis(answered.get(30, TimeUnit.SECONDS) - prompt.at());
        rig.note("MCP wait on the prompt", "waiting", "answered", lag + " ms after the screen", "");
        rig.softly
            .assertThat(lag)
            .as("ms from the permission prompt on the screen to the MCP wait answering")
            .isLessThanOrEqualTo(REACTION.toMillis());
        promptSeen = prompt;
      }
      Seen prompt = promptSeen;
      // While it waits, Claude Code blinks the bullet of the pending call: still waiting.
      Sample held =
          rig.hold(
              "Bash permission prompt, held",
              "waiting",
              prompt,
              Duration.ofSeconds(10),
              shows("Do you want to proceed?"));
      JsonNode attention = rig.expectAttention("Bash permission prompt", held, "permission");
      rig.softly
          .assertThat(attention.path("detail").asText())
          .as("Bash permission prompt: attention.detail names the tool and the command")
          .contains("Bash")
          .contains(command);

      Seen running =
          rig.expect(
              "approved, command running",
              busy().and(shows("Do you want to proceed?").negate()),
              "working",
              rig.key("Enter"),
              TURN);
      rig.hold("command running, held", "working", running, Duration.ofMillis(1500), busy());
      rig.expect(
          "shell call done",
          readyPrompt().and(shows("The marker is written.")),
          "idle",
          running.at(),
          TURN);

      assertThat(rig.project.resolve("marker.txt"))
          .as("the real Claude Code ran the approved command")
          .content(StandardCharsets.UTF_8)
          .isEqualToIgnoringNewLines("clique-marker-42");
      assertThat(rig.model.turns()).as("turns of the main conversation").hasSizeGreaterThan(2);
      assertThat(rig.model.turns().get(rig.model.turns().size() - 1).body())
          .as("the last turn carried the command's result back to the model")
          .contains("tool_result");
      rig.verify();
    }
  }

  /**
   * {@code CLAUDE_CONFIG_DIR} is given to the pane alone (its command is {@code env
   * CLAUDE_CONFIG_DIR=... claude}): the engine reads the conversation where Claude Code wrote it,
   * prompt for prompt and answer for answer as its screen showed them.
   */
  @Test
  void theConversationIsReadFromTheConfigDirOnlyThePaneWasGiven() throws Exception {
    Path configDir = Files.createTempDirectory("clique-it-claude-config-");
    String catalogue =
        "[cli.claude]\ncommand = \"env\"\nargs = [\"CLAUDE_CONFIG_DIR="
            + configDir
            + "\", \"CLAUDE_CODE_MAX_RETRIES=0\", \""
            + AgentClis.bin().resolve("claude")
            + "\", \"--session-id\", \"{id}\", \"--settings\", \"{hook_settings}\"]\n";
    // Each answer reports these counts; Anthropic counts the cache apart from the input.
    Tokens tokens = new Tokens(1234, 56, 700, 300);
    String[][] exchanges = {
      {"First prompt", "First answer."},
      {"Second prompt", "Second answer."},
      {"Third prompt", "Third answer."}
    };
    try (Rig rig = Rig.start("pane-config", Setup.READY, catalogue)) {
      // With CLAUDE_CONFIG_DIR, Claude Code keeps its .claude.json there too.
      Files.copy(rig.claudeHome.resolve(".claude.json"), configDir.resolve(".claude.json"));
      rig.model.answering(tokens);
      long created = rig.create();
      rig.expect("ready prompt", readyPrompt(), "idle", created, START);
      for (String[] exchange : exchanges) {
        rig.model.then(new Step.Text(exchange[1]));
        rig.expect(
            "answer: " + exchange[1],
            readyPrompt().and(shows(exchange[1])),
            "idle",
            rig.send(exchange[0]),
            TURN);
      }
      Path transcript =
          configDir
              .resolve("projects")
              .resolve(rig.project.toString().replaceAll("[^A-Za-z0-9]", "-"))
              .resolve(rig.id + ".jsonl");
      assertThat(transcript).as("Claude Code's transcript under the pane's config dir").exists();
      assertThat(rig.claudeHome.resolve(".claude/projects")).doesNotExist();
      JsonNode turns =
          RecordedConversation.turns(rig.engine, rig.admin, rig.id, 6, Duration.ofSeconds(10));
      long lines = Files.readAllLines(transcript).size();
      System.err.printf(
          "claude-real | conversation turns: %d read by clique, %d in Claude Code's own view"
              + " (%d prompts answered on its screen; %d records, %d bytes in its transcript)%n",
          turns.size(), 2 * exchanges.length, exchanges.length, lines, Files.size(transcript));
      RecordedConversation.keep(
          transcript, "claude-" + AgentClis.pinned("@anthropic-ai/claude-code") + "-session.jsonl");
      rig.softly
          .assertThat(turns)
          .as("the conversation, read under the CLAUDE_CONFIG_DIR only the pane had")
          .isEqualTo(RecordedConversation.expectedTurns(exchanges));
      Map<String, Long> sent = UsageProof.sent(tokens, rig.model.turns().size());
      rig.softly
          .assertThat(
              UsageProof.await(
                  rig.engine, rig.admin, rig.id, "claude-real", sent, Duration.ofSeconds(10)))
          .as("usage read from Claude Code's transcript, beside what the server sent")
          .isEqualTo(sent);

      // Its vendor's rate limit (a 429 rate_limit_error; retries turned off by its own
      // CLAUDE_CODE_MAX_RETRIES): nothing is broken, a person waits or switches.
      rig.model.then(
          new Step.UsageLimit(
              "This request would exceed the rate limit for your organization of 50 requests per"
                  + " minute.",
              Instant.now().plusSeconds(60)));
      Seen limited =
          rig.expect(
              "usage limit (429 rate_limit_error)",
              shows("Request rejected (429)").and(readyPrompt()),
              "waiting",
              rig.send("Summarise the log"),
              TURN);
      JsonNode attention = rig.expectAttention("usage limit", limited.reported(), "usage_limit");
      rig.note("usage limit attention", "", attention.toString(), "", "");
      rig.softly
          .assertThat(attention.path("detail").asText(""))
          .as("its detail is Claude Code's words")
          .contains("rate limit");
      rig.model.then(new Step.Text("The log has three lines."));
      rig.expect(
          "answer after the usage limit",
          readyPrompt().and(shows("The log has three lines.")),
          "idle",
          rig.send("Try again"),
          TURN);
      rig.verify();
    } finally {
      Rig.quietlyDelete(configDir);
    }
  }

  @Test
  void anApiErrorIsAnErrorAndItsRetriesAreWork() throws Exception {
    try (Rig rig = Rig.start("api-error", Setup.READY, null)) {
      long created = rig.create();
      rig.expect("ready prompt", readyPrompt(), "idle", created, START);

      // A 403 is not retried: the error shows at once.
      rig.model.then(new Step.Failure(403, "permission_error", "This key may not use this model"));
      Seen forbidden =
          rig.expect(
              "API error 403",
              shows("API Error: 403").and(readyPrompt()),
              "error",
              rig.send("Summarise the log"),
              TURN);
      rig.expectAttention("API error 403", forbidden.reported(), "error");
      rig.hold("API error 403, held", "error", forbidden, Duration.ofSeconds(2), shows("403"));

      // A 529 is retried twice (about two seconds) before the error shows.
      rig.model.then(new Step.Failure(529, "overloaded_error", "Overloaded"));
      Seen retrying =
          rig.expect(
              "API error 529, retrying",
              shows("retrying in"),
              "working",
              rig.send("Summarise the log again"),
              TURN);
      Seen overloaded =
          rig.expect(
              "API error 529, retries spent",
              shows("Repeated 529").and(readyPrompt()),
              "error",
              retrying.at(),
              TURN);
      rig.expectAttention("API error 529", overloaded.reported(), "error");
      rig.verify();
    }
  }

  @Test
  void aClaudeCodeThatExitsAtStartIsStopped() throws Exception {
    // A bad option in the catalogue: Claude Code prints "error: unknown option" and exits 1.
    String catalogue =
        "[cli.claude]\nargs = [\"--session-id\", \"{id}\", \"--no-such-option-for-clique\"]\n";
    try (Rig rig = Rig.start("exit-at-start", Setup.READY, catalogue)) {
      long created = rig.create();
      Seen exited = rig.expect("exited at start", paneGone(), "stopped", created, START);
      // tmux marks the pane dead when its terminal closes, and knows the status once it reaped the
      // process, which the engine sees to (TmuxProcess): a look or two later at most.
      JsonNode session = rig.sessionOnceExited(exited.reported().session());
      String lastLines = rig.peek(5).toString();
      rig.note(
          "exit status, last lines",
          "1, error",
          session.path("exit_status") + ", " + lastLines,
          "",
          "");
      rig.softly
          .assertThat(session.path("exit_status").asInt(-1))
          .as("the exit status of a Claude Code that exited at start: %s", session)
          .isEqualTo(1);
      rig.softly
          .assertThat(lastLines)
          .as("its last lines stay readable")
          .contains("unknown option");
      rig.verify();
    }
  }

  @Test
  void aKillEndsTheSessionAndEveryProcessOfIt() throws Exception {
    try (Rig rig = Rig.start("kill", Setup.READY, null)) {
      long created = rig.create();
      rig.expect("ready prompt", readyPrompt(), "idle", created, START);
      rig.model.then(new Step.Text("Ready when you are."));
      rig.expect(
          "answered",
          shows("Ready when you are.").and(readyPrompt()),
          "idle",
          rig.send("Hello"),
          TURN);
      List<ProcessHandle> processes = rig.processes();
      System.err.println(
          "claude-real | session processes: "
              + processes.stream().map(SessionProcesses::describe).toList());
      long killed = rig.post("kill", "{}");
      rig.expect("killed", paneGone(), "stopped", killed, Duration.ofSeconds(5));
      List<String> survivors = SessionProcesses.survivors(processes, Duration.ofSeconds(5));
      rig.note(
          "processes after kill",
          "0",
          survivors.size() + " of " + processes.size(),
          "",
          survivors.toString());
      rig.softly.assertThat(survivors).as("processes of the session 5 s after kill").isEmpty();
      SessionProcesses.stop(processes);
      rig.verify();
    }
  }

  // --- screens ---

  private static Predicate<Sample> shows(String... texts) {
    return sample -> {
      if (sample.screen() == null) {
        return false;
      }
      for (String text : texts) {
        if (!sample.screen().contains(text)) {
          return false;
        }
      }
      return true;
    };
  }

  /** Claude Code's footer while it works: "esc to interrupt". */
  private static Predicate<Sample> busy() {
    return shows("esc to interrupt");
  }

  /** The prompt box with its idle footer ("? for shortcuts"), nothing in progress. */
  private static Predicate<Sample> readyPrompt() {
    return shows("? for shortcuts").and(busy().negate());
  }

  /** The CLI's process ended: the pane is gone, or tmux keeps it dead with its last screen. */
  private static Predicate<Sample> paneGone() {
    return sample -> sample.screen() == null;
  }

  private static String row(
      String test, String screen, String expected, String reported, String delay, String source) {
    return String.format(
        "%-15s %-30s %-8s %-28s %20s  %s", test, screen, expected, reported, delay, source);
  }

  /** A screen without its blank lines, for a failure message. */
  private static String condensed(String screen) {
    if (screen == null) {
      return "(the pane is gone)";
    }
    return String.join("\n", screen.lines().filter(line -> !line.isBlank()).toList());
  }

  private static String lag(Long waitLag) {
    return waitLag == null ? "none" : (waitLag > 0 ? "+" : "") + waitLag;
  }

  private static String millis(long nanos) {
    return TimeUnit.NANOSECONDS.toMillis(nanos) + " ms";
  }

  /** What Claude Code reads at start: the fake key approved; onboarding and trust per setup. */
  static String claudeConfig(Setup setup, Path project) throws IOException {
    ObjectNode config = JSON.createObjectNode();
    ObjectNode keys = config.putObject("customApiKeyResponses");
    keys.putArray("approved").add(API_KEY.substring(API_KEY.length() - 20));
    keys.putArray("rejected");
    if (setup != Setup.FIRST_RUN) {
      config.put("hasCompletedOnboarding", true);
      config.put("theme", "dark");
    }
    if (setup == Setup.READY) {
      config
          .putObject("projects")
          .putObject(project.toString())
          .put("hasTrustDialogAccepted", true);
    }
    return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(config);
  }

  /** The pane's environment: this test's HOME and model server, no traffic off the machine. */
  static Map<String, String> claudeEnv(AnthropicModelServer model, Path claudeHome) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("HOME", claudeHome.toString());
    env.put("PATH", AgentClis.path());
    String lang = System.getenv("LANG");
    env.put("LANG", lang != null && lang.toUpperCase().contains("UTF-8") ? lang : "C.UTF-8");
    env.put("ANTHROPIC_BASE_URL", model.url());
    env.put("ANTHROPIC_API_KEY", API_KEY);
    env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    env.put("CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL", "1");
    env.put("DISABLE_AUTOUPDATER", "1");
    env.put("DISABLE_TELEMETRY", "1");
    env.put("DISABLE_ERROR_REPORTING", "1");
    return env;
  }

  // --- the rig ---

  /** One look: the pane's text (null when it is gone) and the session as /api/state has it. */
  /**
   * One look: when it began, the screen, and this session's row of {@code /api/state} with when
   * that answer came.
   */
  record Sample(long at, String screen, JsonNode session, long stateAt) {
    String state() {
      return session == null ? "(no session)" : session.path("state").asText("(none)");
    }

    String source() {
      if (session == null || !session.path("state_source").isObject()) {
        return "-";
      }
      JsonNode source = session.path("state_source");
      return source.path("authority").asText() + ": " + source.path("evidence").asText();
    }
  }

  /** A screen as it first appeared, and the look {@link #REACTION} later. */
  record Seen(long at, Sample reported) {}

  /** A model server, an engine and a Claude Code config of one test's own, and what they saw. */
  private static final class Rig implements AutoCloseable {
    final String test;
    final AnthropicModelServer model;
    final ThrowawayEngine engine;
    final Path claudeHome;
    final Path project;
    final SoftAssertions softly = new SoftAssertions();
    private final TmuxProcess tmux;
    private final List<Sample> samples = new ArrayList<>();
    private String admin;
    private String id;
    private Thread looker;
    private WaitProbe probe;
    private volatile boolean closed;

    private Rig(
        String test,
        AnthropicModelServer model,
        ThrowawayEngine engine,
        Path claudeHome,
        Path project) {
      this.test = test;
      this.model = model;
      this.engine = engine;
      this.claudeHome = claudeHome;
      this.project = project;
      this.tmux = new TmuxProcess("tmux", engine.socket, Duration.ofSeconds(5));
    }

    static Rig start(String test, Setup setup, String catalogue) throws Exception {
      AnthropicModelServer model = new AnthropicModelServer();
      Path claudeHome = Files.createTempDirectory("clique-it-claude-home-");
      Path project = Files.createTempDirectory("clique-it-claude-project-").toRealPath();
      Files.writeString(claudeHome.resolve(".claude.json"), claudeConfig(setup, project));
      ThrowawayEngine engine = ThrowawayEngine.prepare().withEnv(claudeEnv(model, claudeHome));
      if (catalogue != null) {
        Files.writeString(engine.home.resolve("clis.toml"), catalogue);
      }
      Rig rig = new Rig(test, model, engine, claudeHome, project);
      try {
        engine.start();
        rig.admin = engine.mintToken(test + "-admin", false);
      } catch (Exception | AssertionError e) {
        rig.close();
        throw e;
      }
      return rig;
    }

    /** Creates the session through the API, starts looking at it, and returns when it began. */
    long create() throws IOException, InterruptedException {
      String body =
          JSON.writeValueAsString(
              Map.of("cli", "claude", "cwd", project.toString(), "mode", "default", "name", test));
      long began = System.nanoTime();
      HttpResponse<String> created = engine.post("/api/sessions", admin, body);
      assertThat(created.statusCode()).as("POST /api/sessions: %s", created.body()).isEqualTo(201);
      id = ThrowawayEngine.json(created.body()).path("id").asText();
      probe = WaitProbe.start(engine, admin, id);
      looker = new Thread(this::look, "looker-" + test);
      looker.setDaemon(true);
      looker.start();
      return began;
    }

    /** Types {@code text} and Enter through the engine; returns when it was sent. */
    long send(String text) throws IOException, InterruptedException {
      return post(JSON.writeValueAsString(Map.of("text", text, "enter", true)));
    }

    String id() {
      return id;
    }

    /** Returns once {@code /api/state} said working at a look since {@code since}. */
    void awaitWorking(long since) throws InterruptedException {
      firstSince(since, sample -> sample.state().equals("working"), TURN, "working");
    }

    /** Presses one named key through the engine; returns when it was sent. */
    long key(String key) throws IOException, InterruptedException {
      return post(JSON.writeValueAsString(Map.of("key", key)));
    }

    private long post(String body) throws IOException, InterruptedException {
      return post("send", body);
    }

    /** Posts {@code body} to the session's {@code route}; returns when it was sent. */
    long post(String route, String body) throws IOException, InterruptedException {
      long sent = System.nanoTime();
      HttpResponse<String> answer = engine.post("/api/sessions/" + id + "/" + route, admin, body);
      assertThat(answer.statusCode()).as("%s %s: %s", route, body, answer.body()).isEqualTo(200);
      return sent;
    }

    /** The session's last {@code lines} lines as {@code GET /peek} gives them. */
    JsonNode peek(int lines) throws IOException, InterruptedException {
      HttpResponse<String> answer =
          engine.get("/api/sessions/" + id + "/peek?lines=" + lines, admin);
      assertThat(answer.statusCode()).as("peek: %s", answer.body()).isEqualTo(200);
      return ThrowawayEngine.json(answer.body()).path("lines");
    }

    /**
     * This session's row once it carries an {@code exit_status}, or after 3 s the last row; {@code
     * row} when it already does.
     */
    JsonNode sessionOnceExited(JsonNode row) throws IOException, InterruptedException {
      long deadline = System.nanoTime() + Duration.ofSeconds(3).toNanos();
      while (!row.path("exit_status").isInt() && System.nanoTime() < deadline) {
        Thread.sleep(POLL.toMillis());
        for (JsonNode s :
            ThrowawayEngine.json(engine.get("/api/state", admin).body()).path("sessions")) {
          if (s.path("id").asText().equals(id)) {
            row = s;
          }
        }
      }
      return row;
    }

    /** The session's processes now. */
    List<ProcessHandle> processes() throws TmuxException {
      return SessionProcesses.of(tmux, id);
    }

    /**
     * Waits for the first look since {@code since} that shows {@code screen}, then checks the state
     * reported {@link #REACTION} later, and notes how long the expected state took.
     */
    Seen expect(
        String screen, Predicate<Sample> shown, String expected, long since, Duration within)
        throws InterruptedException {
      Sample first = firstSince(since, shown, within, screen);
      long deadline = first.at() + REACTION.toNanos();
      long late = first.at() + LATE.toNanos();
      Sample reported = null;
      Long matched = null;
      Long waitLag = null;
      for (int i = indexOf(first); ; i++) {
        Sample sample = sampleAt(i);
        if (matched == null && sample.state().equals(expected)) {
          matched = sample.at();
          waitLag = probe.lagMillis(expected, sample.stateAt());
        }
        if (reported == null && sample.at() >= deadline) {
          reported = sample;
        }
        if (reported != null && (matched != null || sample.at() >= late)) {
          break;
        }
      }
      String delay = matched == null ? "> " + millis(LATE.toNanos()) : millis(matched - first.at());
      note(screen, expected, reported.state(), delay + ", wait " + lag(waitLag), reported.source());
      if (matched != null) {
        softly
            .assertThat(waitLag)
            .as(
                "%s: ms from /api/state showing %s to a wait answering it (answers: %s; %s)",
                screen, expected, probe.answers(), probe.failure())
            .isNotNull()
            .isLessThanOrEqualTo(WaitProbe.WITHIN.toMillis());
      }
      softly
          .assertThat(reported.state())
          .as(
              "%s: the state %s after the screen appeared (%s reached after %s); screen:%n%s",
              screen, millis(REACTION.toNanos()), expected, delay, condensed(first.screen()))
          .isEqualTo(expected);
      return new Seen(first.at(), reported);
    }

    /**
     * Checks that the state stays {@code expected} from {@link #REACTION} after the screen appeared
     * for {@code length}, or for as long as the screen still shows; returns the last look.
     */
    Sample hold(
        String screen, String expected, Seen seen, Duration length, Predicate<Sample> stillShown)
        throws InterruptedException {
      long from = seen.at() + REACTION.toNanos();
      long to = from + length.toNanos();
      Map<String, Integer> counts = new LinkedHashMap<>();
      Sample last = seen.reported();
      int looks = 0;
      for (int i = indexOf(seen.reported()); ; i++) {
        Sample sample = sampleAt(i);
        if (sample.at() > to || !stillShown.test(sample)) {
          break;
        }
        if (sample.at() >= from) {
          counts.merge(sample.state(), 1, Integer::sum);
          looks++;
          last = sample;
        }
      }
      StringBuilder seenStates = new StringBuilder();
      for (Map.Entry<String, Integer> count : counts.entrySet()) {
        if (seenStates.length() > 0) {
          seenStates.append(", ");
        }
        seenStates.append(count.getKey()).append(' ').append(100 * count.getValue() / looks);
        seenStates.append('%');
      }
      note(screen, expected, seenStates.toString(), millis(length.toNanos()), last.source());
      softly
          .assertThat(counts.keySet())
          .as("%s: the states over %s looks (%s)", screen, looks, seenStates)
          .containsOnly(expected);
      return last;
    }

    /**
     * Checks {@code attention.kind} in one look; returns the attention object, or a missing node.
     */
    JsonNode expectAttention(String screen, Sample sample, String kind) {
      JsonNode attention =
          sample.session() == null ? JSON.missingNode() : sample.session().path("attention");
      softly
          .assertThat(attention.path("kind").asText())
          .as(
              "%s: attention.kind (attention: %s)",
              screen, attention.isMissingNode() ? "none" : attention)
          .isEqualTo(kind);
      return attention;
    }

    void verify() {
      softly.assertAll();
    }

    void note(String screen, String expected, String reported, String delay, String source) {
      String line = row(test, screen, expected, reported, delay, source);
      TABLE.add(line);
      System.err.println(line);
    }

    // --- the looks, taken every POLL by a thread of the rig's own ---

    private void look() {
      while (!closed) {
        Sample sample = sampleNow();
        synchronized (samples) {
          samples.add(sample);
          samples.notifyAll();
        }
        try {
          Thread.sleep(POLL.toMillis());
        } catch (InterruptedException e) {
          return;
        }
      }
    }

    private Sample sampleNow() {
      long at = System.nanoTime();
      String screen;
      try {
        // A pane whose process ended is gone for a person, though tmux keeps its last screen.
        screen = Tmux.paneDead(engine.socket, id) ? null : tmux.captureScreen(id);
      } catch (TmuxException e) {
        screen = null;
      }
      JsonNode session = null;
      try {
        HttpResponse<String> state = engine.get("/api/state", admin);
        for (JsonNode s : ThrowawayEngine.json(state.body()).path("sessions")) {
          if (s.path("id").asText().equals(id)) {
            session = s;
          }
        }
      } catch (IOException e) {
        // the engine did not answer this time: the look says so
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return new Sample(at, screen, session, System.nanoTime());
    }

    private Sample firstSince(long since, Predicate<Sample> shown, Duration within, String screen)
        throws InterruptedException {
      long deadline = System.nanoTime() + within.toNanos();
      int i = 0;
      while (true) {
        synchronized (samples) {
          while (i < samples.size()) {
            Sample sample = samples.get(i++);
            if (sample.at() >= since && shown.test(sample)) {
              return sample;
            }
          }
          long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
          if (left <= 0) {
            Sample last = samples.isEmpty() ? null : samples.get(samples.size() - 1);
            throw new AssertionError(
                test
                    + ": the screen \""
                    + screen
                    + "\" did not appear within "
                    + within
                    + "; the last screen:\n"
                    + (last == null ? "(none)" : condensed(last.screen()))
                    + "\nserve stderr:\n"
                    + engine.serveStderr());
          }
          samples.wait(left);
        }
      }
    }

    private int indexOf(Sample sample) {
      synchronized (samples) {
        return samples.indexOf(sample);
      }
    }

    /** The i-th look, waiting for it to be taken. */
    private Sample sampleAt(int i) throws InterruptedException {
      synchronized (samples) {
        while (samples.size() <= i) {
          samples.wait(POLL.toMillis() * 10);
          if (closed) {
            throw new IllegalStateException("the rig is closed");
          }
        }
        return samples.get(i);
      }
    }

    @Override
    public void close() throws IOException {
      closed = true;
      if (probe != null) {
        probe.close();
      }
      if (looker != null) {
        looker.interrupt();
        try {
          looker.join(5_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      try {
        engine.close();
      } finally {
        model.close();
        quietlyDelete(claudeHome);
        quietlyDelete(project);
      }
    }

    /** Claude Code may still be writing its files for a moment after tmux ends it: try again. */
    private static void quietlyDelete(Path root) {
      for (int attempt = 0; attempt < 20; attempt++) {
        try {
          ThrowawayEngine.deleteTree(root);
          if (!Files.exists(root)) {
            return;
          }
        } catch (IOException | UncheckedIOException e) {
          // a file appeared or went away during the walk: look again
        }
        try {
          Thread.sleep(250);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }
}
