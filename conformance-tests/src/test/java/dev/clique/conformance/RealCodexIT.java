package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.conformance.ScreenWatch.Look;
import dev.clique.models.OpenAiModelServer;
import dev.clique.models.ScriptedModelServer.Step;
import dev.clique.models.ScriptedModelServer.Tokens;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real Codex 0.169.0 as a clique session, against a scripted Responses API on loopback: each
 * screen a person sees, and the state {@code GET /api/state} reports for it and how soon.
 *
 * <p>Every test has its own engine (home, tmux socket, port), its own {@code HOME} and {@code
 * CODEX_HOME} with a config that reaches only loopback: the model provider is the scripted server,
 * update checks, analytics, feedback, plugins and the background app-server are off, and the one
 * fetch no setting stops (the TUI's announcement tip) goes through {@code HTTPS_PROXY} to a
 * loopback trap that refuses it. The state is polled every 100 ms, together with the pane itself:
 * the delay is from the first poll that showed the screen to the first that reported the state. A
 * line per screen goes to stderr: screen, expected, reported, delay.
 *
 * <p>Input goes through {@code POST /api/sessions/{id}/send}, as a client of the engine would send
 * it. The assertions are what a person watching would name; several fail on an engine that reads
 * Codex from its pane alone.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class RealCodexIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final Duration VISIBLE = OpenAiCliRig.VISIBLE;
  private static final Duration POLL = OpenAiCliRig.POLL;

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void theConversationIsReadFromTheCodexHomeOnlyThePaneWasGiven() throws Exception {
    SoftAssertions soft = new SoftAssertions();
    String[][] exchanges = {
      {"First prompt", "First answer."},
      {"Second prompt", "Second answer."},
      {"Third prompt", "Third answer."}
    };
    // Each answer reports these counts; OpenAI counts the cached part inside its input.
    Tokens tokens = new Tokens(1234, 56, 700, 0);
    try (Rig rig = Rig.start("pane-home", true, true, "", true)) {
      rig.model.answering(tokens);
      rig.create(soft, "workspace-write");
      rig.observe(
          "pane-home: ready prompt", Rig::readyPrompt, "idle", Duration.ofSeconds(30), null);
      for (String[] exchange : exchanges) {
        rig.model.then(new Step.Text(exchange[1]));
        rig.prompt(soft, exchange[0]);
        rig.observe(
            "pane-home: " + exchange[1],
            screen -> screen.contains(exchange[1]) && Rig.readyPrompt(screen),
            "idle",
            Duration.ofSeconds(20),
            Duration.ofSeconds(6));
      }
      Path rollout = RecordedConversation.onlyFile(rig.codexHome.resolve("sessions"), ".jsonl");
      JsonNode turns =
          RecordedConversation.turns(rig.engine, rig.admin, rig.id, 6, Duration.ofSeconds(10));
      System.err.printf(
          "codex-real | conversation turns: %d read by clique, %d in Codex's own view"
              + " (%d prompts answered on its screen, %d turns the model got)%n",
          turns.size(), 2 * exchanges.length, exchanges.length, rig.model.mainTurns().size());
      RecordedConversation.keep(
          rollout, "codex-" + AgentClis.pinned("@openai/codex") + "-rollout.jsonl");
      soft.assertThat(turns)
          .as("the conversation, read under the CODEX_HOME only the pane had (%s)", rollout)
          .isEqualTo(RecordedConversation.expectedTurns(exchanges));
      Map<String, Long> sent = UsageProof.sent(tokens, rig.model.mainTurns().size());
      soft.assertThat(
              UsageProof.await(
                  rig.engine, rig.admin, rig.id, "codex-real", sent, Duration.ofSeconds(10)))
          .as("usage read from Codex's rollout, beside what the server sent")
          .isEqualTo(sent);
    }
    soft.assertAll();
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void theFolderTrustScreenIsWaitingAndTheReadyPromptAfterItIsIdle() throws Exception {
    SoftAssertions soft = new SoftAssertions();
    try (Rig rig = Rig.start("trust", false, true, "")) {
      rig.create(soft, null);
      rig.observe(
          "trust: folder trust screen",
          screen -> screen.contains("Trust this folder?"),
          "waiting",
          Duration.ofSeconds(30),
          Duration.ofSeconds(6));
      rig.holds("trust: folder trust screen", "waiting", Duration.ofSeconds(5));
      JsonNode attention = rig.session().path("attention");
      soft.assertThat(attention.path("kind").asText(null))
          .as("attention.kind on the folder trust screen: %s", attention)
          .isEqualTo("trust");

      rig.send(Map.of("key", "Enter"));
      rig.observe(
          "trust: ready prompt after trusting",
          Rig::readyPrompt,
          "idle",
          Duration.ofSeconds(20),
          Duration.ofSeconds(6));
      soft.assertThat(Files.readString(rig.codexHome.resolve("config.toml")))
          .as("Codex saved the trust decision")
          .contains("trust_level = \"trusted\"");
      soft.assertThat(rig.engine.awaitCliVersion(rig.admin, rig.id, Duration.ofSeconds(5)))
          .as("cli_version of the session")
          .isEqualTo(AgentClis.pinned("@openai/codex"));
    }
    soft.assertAll();
  }

  @Test
  @Timeout(value = 150, unit = TimeUnit.SECONDS)
  void aSlowStreamedAnswerIsWorkingUntilItIsDoneAndThenIdle() throws Exception {
    SoftAssertions soft = new SoftAssertions();
    String answer =
        "Counting slowly: one, two, three, four, five, six, seven, eight, nine, ten, eleven, twelve."
            + " All done counting.";
    try (Rig rig = Rig.start("stream", true, true, "")) {
      rig.create(soft, "workspace-write");
      rig.observe("stream: ready prompt", Rig::readyPrompt, "idle", Duration.ofSeconds(30), null);

      rig.model.then(new Step.SlowText(answer, 24, Duration.ofSeconds(12)));
      rig.prompt(soft, "Count to twelve slowly");
      rig.observe(
          "stream: answer streaming in",
          screen -> screen.contains("Counting slowly: one, two") && !screen.contains("Worked for"),
          "working",
          Duration.ofSeconds(20),
          Duration.ofSeconds(4));
      // Every look while the answer is still coming in must say working.
      List<String> notWorking = new ArrayList<>();
      long until = System.nanoTime() + Duration.ofSeconds(25).toNanos();
      while (System.nanoTime() < until) {
        String state = rig.state();
        // The screen after the state: Codex's Stop hook comes as the last words are drawn, so a
        // look at the screen taken before the state may still miss them.
        String screen = rig.screen();
        if (screen.contains("Worked for") || screen.contains("All done counting.")) {
          break;
        }
        if (!"working".equals(state)) {
          notWorking.add(state + " at " + rig.since() + " ms");
        }
        Thread.sleep(POLL.toMillis());
      }
      soft.assertThat(notWorking)
          .as("states other than working while the answer was still streaming")
          .isEmpty();

      rig.observe(
          "stream: answer done",
          screen -> screen.contains("All done counting.") && screen.contains("Worked for"),
          "idle",
          Duration.ofSeconds(20),
          Duration.ofSeconds(6));
      rig.holds("stream: answer done", "idle", Duration.ofSeconds(3));
    }
    soft.assertAll();
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void aKillEndsTheSessionAndEveryProcessOfIt() throws Exception {
    SoftAssertions soft = new SoftAssertions();
    try (Rig rig = Rig.start("kill", true, true, "")) {
      rig.create(soft, "workspace-write");
      rig.observe("kill: ready prompt", Rig::readyPrompt, "idle", Duration.ofSeconds(30), null);
      rig.model.then(new Step.Text("Ready when you are."));
      rig.prompt(soft, "Hello");
      rig.observe(
          "kill: answered",
          screen -> screen.contains("Ready when you are.") && Rig.readyPrompt(screen),
          "idle",
          Duration.ofSeconds(20),
          null);
      List<ProcessHandle> processes = rig.processes();
      System.err.printf(
          "[kill] session processes: %s%n",
          processes.stream().map(SessionProcesses::describe).toList());
      HttpResponse<String> killed =
          rig.engine.post("/api/sessions/" + rig.id + "/kill", rig.admin, "{}");
      soft.assertThat(killed.statusCode()).as("kill: %s", killed.body()).isEqualTo(200);
      rig.observe(
          "kill: killed",
          screen -> !rig.tmuxSessionExists(),
          "stopped",
          Duration.ofSeconds(5),
          Duration.ofSeconds(5));
      List<String> survivors = SessionProcesses.survivors(processes, Duration.ofSeconds(5));
      rig.watch.table(
          "kill: processes after kill", "0", survivors.size() + " of " + processes.size(), -1, "");
      soft.assertThat(survivors).as("processes of the session 5 s after kill").isEmpty();
      SessionProcesses.stop(processes);
    }
    soft.assertAll();
  }

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void aShellCallThatNeedsApprovalIsWaitingUntilApprovedThenWorkingThenIdle() throws Exception {
    SoftAssertions soft = new SoftAssertions();
    try (Rig rig = Rig.start("approval", true, true, "")) {
      approveAShellCall(soft, rig, "approval");
      // The engine installed Codex's own hooks: they, not the pane, said waiting and done.
      soft.assertThat(rig.sources)
          .as("who decided the approval prompt and the done screen")
          .containsEntry("approval: approval prompt", "hook PermissionRequest Bash")
          .containsEntry("approval: done", "hook Stop");
    }
    soft.assertAll();
  }

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void withHooksThatNeverFireThePaneStillTellsTheApprovalAndTheDone() throws Exception {
    SoftAssertions soft = new SoftAssertions();
    // [features] hooks = false: Codex runs none of the hooks the engine gives it.
    try (Rig rig = Rig.start("no-hooks", true, false, "")) {
      approveAShellCall(soft, rig, "no hooks");
      soft.assertThat(rig.sources.get("no hooks: approval prompt"))
          .as("who decided the approval prompt")
          .startsWith("pane ");
      soft.assertThat(rig.sources.get("no hooks: done"))
          .as("who decided the done screen")
          .startsWith("pane ");
    }
    soft.assertAll();
  }

  /** A shell call Codex asks to approve, approved with Enter, then its answer. */
  private static void approveAShellCall(SoftAssertions soft, Rig rig, String label)
      throws Exception {
    String command = "mkdir -p ../codex-build-cache && sleep 3 && echo cached";
    rig.create(soft, "workspace-write");
    rig.observe(label + ": ready prompt", Rig::readyPrompt, "idle", Duration.ofSeconds(30), null);

    rig.model.then(
        new Step.ShellCall(command, "Create the build cache next to the project?"),
        new Step.Text("The build cache is ready."));
    rig.prompt(soft, "Prepare the build cache");
    rig.observe(
        label + ": approval prompt",
        screen -> screen.contains("Would you like to run the following command?"),
        "waiting",
        Duration.ofSeconds(20),
        Duration.ofSeconds(15));
    // Codex rewrites the terminal title every second while it waits ("[ ! ] Action Required"):
    // past the engine's 8 s + 4 s proof window the prompt must still read as waiting.
    rig.holds(label + ": approval prompt", "waiting", Duration.ofSeconds(15));
    JsonNode attention = rig.session().path("attention");
    soft.assertThat(attention.path("kind").asText(null))
        .as("attention.kind on the approval prompt: %s", attention)
        .isEqualTo("permission");
    soft.assertThat(attention.path("detail").asText(""))
        .as("attention.detail on the approval prompt names the command")
        .contains("mkdir -p ../codex-build-cache");

    // "Press enter to confirm": the first choice, "Yes, proceed", is selected.
    rig.send(Map.of("key", "Enter"));
    rig.observe(
        label + ": approved, command running",
        screen ->
            screen.contains("You approved codex to run")
                && screen.contains("Running mkdir -p ../codex-build-cache"),
        "working",
        Duration.ofSeconds(10),
        Duration.ofSeconds(3));
    rig.observe(
        label + ": done",
        screen -> screen.contains("The build cache is ready.") && screen.contains("Worked for"),
        "idle",
        Duration.ofSeconds(20),
        Duration.ofSeconds(6));
    soft.assertThat(rig.project.resolveSibling("codex-build-cache"))
        .as("the approved command ran")
        .isDirectory();
  }

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void anApiErrorIsError() throws Exception {
    SoftAssertions soft = new SoftAssertions();
    try (Rig rig = Rig.start("error", true, true, "")) {
      rig.create(soft, null);
      rig.observe("error: ready prompt", Rig::readyPrompt, "idle", Duration.ofSeconds(30), null);

      rig.model.then(
          new Step.Failure(
              400, "invalid_request_error", "The scripted model rejected this request."));
      rig.prompt(soft, "Summarise the README");
      rig.observe(
          "error: API error (400)",
          screen -> screen.contains("The scripted model rejected this request."),
          "error",
          Duration.ofSeconds(20),
          Duration.ofSeconds(6));
      rig.holds("error: API error (400)", "error", Duration.ofSeconds(3));
      JsonNode attention = rig.session().path("attention");
      soft.assertThat(attention.path("kind").asText(null))
          .as("attention.kind after the API error: %s", attention)
          .isEqualTo("error");

      // ChatGPT's usage limit: nothing is broken, a person waits or switches.
      Instant resets = Instant.now().plus(Duration.ofHours(3)).truncatedTo(ChronoUnit.MINUTES);
      rig.model.then(new Step.UsageLimit("The usage limit has been reached", resets));
      rig.prompt(soft, "Summarise the README again");
      rig.observe(
          "error: usage limit (429 usage_limit_reached)",
          screen -> screen.contains("hit your usage limit"),
          "waiting",
          Duration.ofSeconds(20),
          Duration.ofSeconds(6));
      JsonNode limited = rig.session().path("attention");
      rig.watch.table("error: usage limit attention", "", limited.toString(), -1, "");
      soft.assertThat(limited.path("kind").asText(null))
          .as("attention on Codex's usage limit: %s", limited)
          .isEqualTo("usage_limit");
      soft.assertThat(limited.path("detail").asText(""))
          .as("its detail is Codex's words")
          .contains("hit your usage limit");
      soft.assertThat(limited.path("resets_at").asText(null))
          .as("when it lifts, from the time Codex shows (%s sent)", resets)
          .isEqualTo(resets.toString());
      // Codex offers a cheaper model under its message: the person keeps the model and goes on.
      if (rig.screen().contains("Keep current model")) {
        rig.send(Map.of("key", "Escape"));
      }
      rig.model.then(new Step.Text("The README has one heading."));
      rig.prompt(soft, "Try again");
      rig.observe(
          "error: answer after the usage limit",
          screen -> screen.contains("The README has one heading.") && Rig.readyPrompt(screen),
          "idle",
          Duration.ofSeconds(20),
          Duration.ofSeconds(6));
    }
    soft.assertAll();
  }

  @Test
  @Timeout(value = 90, unit = TimeUnit.SECONDS)
  void aCodexThatExitsAtStartIsStopped() throws Exception {
    SoftAssertions soft = new SoftAssertions();
    // A config.toml that does not parse: Codex prints the error and exits before its TUI starts.
    try (Rig rig = Rig.start("exit", true, true, "model = \"unterminated\n")) {
      JsonNode codex = null;
      for (JsonNode cli : rig.state("/api/state").path("clis")) {
        if ("codex".equals(cli.path("id").asText())) {
          codex = cli;
        }
      }
      assertThat(codex).as("the engine lists codex").isNotNull();
      List<String> modes = new ArrayList<>();
      codex.path("modes").forEach(m -> modes.add(m.asText()));
      soft.assertThat(modes)
          .as("the modes Codex 0.169.0's --sandbox takes")
          .containsExactly("read-only", "workspace-write", "danger-full-access");
      HttpResponse<String> bad =
          rig.engine.post(
              "/api/sessions",
              rig.admin,
              JSON.writeValueAsString(
                  Map.of("cli", "codex", "cwd", rig.project.toString(), "mode", "auto")));
      soft.assertThat(bad.statusCode())
          .as("a mode Codex does not take is refused: %s", bad.body())
          .isEqualTo(400);

      rig.create(soft, null);
      Look exit =
          rig.observe(
              "exit: Codex exits at start",
              screen -> !rig.tmuxSessionExists() || Tmux.paneDead(rig.engine.socket, rig.id),
              "stopped",
              Duration.ofSeconds(20),
              Duration.ofSeconds(5));
      rig.watch.awaitExitStatus(exit);
      JsonNode stopped = rig.session();
      soft.assertThat(stopped.path("exit_status").isInt())
          .as("a CLI that exited says how: %s", stopped)
          .isTrue();
      String lastLines =
          rig.state("/api/sessions/" + rig.id + "/peek?lines=20").path("lines").toString();
      rig.watch.table(
          "exit: exit status, last lines",
          "1, error",
          stopped.path("exit_status") + ", " + lastLines,
          -1,
          "");
      soft.assertThat(lastLines).as("its last screen stays readable").contains("config.toml");
    }
    soft.assertAll();
  }

  /** One real Codex under a throwaway engine, with its own model server, homes and project. */
  private static final class Rig extends OpenAiCliRig {
    final Path codexHome;

    private Rig(
        String name,
        OpenAiModelServer model,
        OutsideTrafficTrap trap,
        ThrowawayEngine engine,
        Path project,
        Path codexHome,
        String admin) {
      super("codex", name, model, trap, engine, project, admin);
      this.codexHome = codexHome;
    }

    /**
     * An engine whose panes find the real codex, with a {@code CODEX_HOME} that talks only to
     * loopback; {@code trusted}: the project is already trusted (no trust screen); {@code
     * extraConfig}: appended to config.toml.
     */
    static Rig start(String name, boolean trusted, boolean hooks, String extraConfig)
        throws IOException, InterruptedException {
      return start(name, trusted, hooks, extraConfig, false);
    }

    /**
     * As {@link #start(String, boolean, boolean, String)}; {@code paneOnlyHome}: {@code CODEX_HOME}
     * is given to the pane alone (its command is {@code env CODEX_HOME=... codex}), not to the
     * engine.
     */
    static Rig start(
        String name, boolean trusted, boolean hooks, String extraConfig, boolean paneOnlyHome)
        throws IOException, InterruptedException {
      OpenAiModelServer model = new OpenAiModelServer();
      OutsideTrafficTrap trap = new OutsideTrafficTrap();
      ThrowawayEngine engine = ThrowawayEngine.prepare();
      try {
        Path home = Files.createDirectories(engine.home.resolve("codex-user-home"));
        Path codexHome = Files.createDirectories(engine.home.resolve("codex-home"));
        // A project of its own beside the engine's files: a git repository, as most are, which
        // is what makes Codex ask whether to trust the folder.
        Path project = Files.createDirectories(engine.workdir.resolve("workspace").resolve("app"));
        Files.writeString(project.resolve("README.md"), "# app\n");
        git(project, "init", "-q");
        Files.writeString(
            codexHome.resolve("config.toml"), config(model, project, trusted, hooks) + extraConfig);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", AgentClis.path());
        env.put("HOME", home.toString());
        if (paneOnlyHome) {
          Files.writeString(
              engine.home.resolve("clis.toml"),
              "[cli.codex]\ncommand = \"env\"\nargs = [\"CODEX_HOME="
                  + codexHome
                  + "\", \""
                  + AgentClis.bin().resolve("codex")
                  + "\", \"--no-daemon\"]\n");
        } else {
          env.put("CODEX_HOME", codexHome.toString());
        }
        env.put("SCRIPTED_OPENAI_KEY", "sk-scripted-not-a-key");
        for (String proxy : List.of("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy")) {
          env.put(proxy, trap.url());
        }
        env.put("NO_PROXY", "127.0.0.1,localhost");
        env.put("no_proxy", "127.0.0.1,localhost");
        engine.withEnv(env).start();
        String admin = engine.mintToken("codex-" + name, false);
        return new Rig(name, model, trap, engine, project, codexHome, admin);
      } catch (IOException | InterruptedException | RuntimeException | Error e) {
        engine.close();
        model.close();
        trap.close();
        throw e;
      }
    }

    /** The config.toml of a Codex that reaches nothing but the scripted model on loopback. */
    static String config(OpenAiModelServer model, Path project, boolean trusted, boolean hooks) {
      String toml = model.codexConfig("hooks = " + hooks);
      if (trusted) {
        toml += "\n[projects.\"" + project + "\"]\ntrust_level = \"trusted\"\n";
      }
      return toml + "\n";
    }

    @Override
    boolean carries(String userText, String prompt) {
      return userText.equals(prompt);
    }

    static boolean readyPrompt(String screen) {
      return screen.contains("? for shortcuts") && !screen.contains("Trust this folder?");
    }

    /**
     * A Codex app-server daemon, should one have started, outlives the pane and the tmux server:
     * stop any process of this rig's own CODEX_HOME (its path is in the daemon's argv).
     */
    @Override
    void stopStrays() {
      String mine = codexHome.toString();
      ProcessHandle.allProcesses()
          .filter(p -> p.info().commandLine().map(c -> c.contains(mine)).orElse(false))
          .forEach(
              p -> {
                System.err.printf("[%s] stopping a stray Codex process %d%n", name, p.pid());
                p.destroy();
              });
    }

    private static void git(Path dir, String... args) throws IOException, InterruptedException {
      List<String> command = new ArrayList<>(List.of("git"));
      command.addAll(List.of(args));
      Process git = new ProcessBuilder(command).directory(dir.toFile()).inheritIO().start();
      assertThat(git.waitFor()).as("git %s", String.join(" ", args)).isZero();
    }
  }
}
