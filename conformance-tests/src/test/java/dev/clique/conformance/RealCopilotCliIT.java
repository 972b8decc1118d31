package dev.clique.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.clique.conformance.ScreenWatch.Look;
import dev.clique.models.OpenAiModelServer;
import dev.clique.models.ScriptedModelServer;
import dev.clique.models.ScriptedModelServer.Step;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real GitHub Copilot CLI 1.0.102 as a clique session, against a scripted Responses API on
 * loopback: each screen a person sees, and the state {@code GET /api/state} reports for it and how
 * soon.
 *
 * <p>Copilot reaches only loopback: its own model provider ({@code COPILOT_PROVIDER_BASE_URL}, type
 * {@code openai}, {@code COPILOT_PROVIDER_WIRE_API=responses}, a fake key), {@code
 * COPILOT_OFFLINE=true} (no GitHub sign-in, telemetry, web tools or auto-update), and every proxy
 * variable pointing at a loopback trap that refuses and records what tried to go out. Each rig has
 * its own engine, {@code HOME} and {@code COPILOT_HOME}; only Copilot's unpacked program (its
 * {@code XDG_CACHE_HOME}, 235 MB) is shared between them, under {@code target/}. One session is
 * taken through the scenarios in turn, as a person would: the folder-trust screen, the ready
 * prompt, a streamed answer, a command that needs approval, the approval, the done screen, an API
 * error, its conversation against Copilot's own record, and a kill. A line per screen goes to
 * stderr: screen, expected, reported, delay.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class RealCopilotCliIT {
  private static final ScriptedModelServer.Tokens TOKENS =
      new ScriptedModelServer.Tokens(1234, 56, 700, 0);

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final Duration VISIBLE = OpenAiCliRig.VISIBLE;
  private static final Duration POLL = OpenAiCliRig.POLL;

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void oneSessionFromFolderTrustThroughApprovalAndAnApiErrorToItsKill() throws Exception {
    SoftAssertions soft = new SoftAssertions();
    try (Rig rig = Rig.start("one", "")) {
      // Each answer reports these counts; OpenAI counts the cached part inside its input.
      rig.model.answering(TOKENS);
      rig.create(soft, null);
      rig.observe(
          "trust: folder trust screen",
          screen -> screen.contains("Do you trust the files in this folder?"),
          "waiting",
          Duration.ofSeconds(60),
          Duration.ofSeconds(6));
      soft.assertThat(rig.session().path("attention").path("kind").asText(null))
          .as("attention.kind on the folder trust screen")
          .isEqualTo("trust");
      rig.send(Map.of("key", "Enter")); // "1. Yes", for this session only
      rig.observe(
          "ready prompt after trusting",
          Rig::readyPrompt,
          "idle",
          Duration.ofSeconds(30),
          Duration.ofSeconds(6));
      soft.assertThat(rig.engine.awaitCliVersion(rig.admin, rig.id, Duration.ofSeconds(5)))
          .as("cli_version of the session")
          .isEqualTo(AgentClis.pinned("@github/copilot"));

      String answer =
          "Counting slowly: one, two, three, four, five, six, seven, eight, nine, ten, eleven,"
              + " twelve. All done counting.";
      rig.model.then(new Step.SlowText(answer, 24, Duration.ofSeconds(10)));
      rig.prompt(soft, "Count to twelve slowly");
      rig.observe(
          "stream: answer streaming in",
          screen -> screen.contains("Counting slowly: one") && !screen.contains("All done"),
          "working",
          Duration.ofSeconds(20),
          Duration.ofSeconds(4));
      List<String> notWorking = new ArrayList<>();
      long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (System.nanoTime() < until) {
        String state = rig.state();
        if (rig.screen().contains("All done counting.")) {
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
          screen -> screen.contains("All done counting.") && Rig.readyPrompt(screen),
          "idle",
          Duration.ofSeconds(20),
          Duration.ofSeconds(6));
      rig.holds("stream: answer done", "idle", Duration.ofSeconds(3));
      // What no Copilot hook sends is refused and changes nothing: no event name, another CLI's
      // event, an input that is no object, no JSON at all.
      for (String bad :
          List.of(
              "{\"input\": {}}",
              "{\"hook_event_name\": \"Stop\", \"input\": {}}",
              "{\"hook_event_name\": \"userPromptSubmitted\", \"input\": \"working\"}",
              "{\"hook_event_name\": \"userPromptSubmitted\", \"input\": {}",
              "[\"permissionRequest\"]")) {
        HttpResponse<String> refused =
            rig.engine.post("/api/sessions/" + rig.id + "/hook", rig.admin, bad);
        soft.assertThat(refused.statusCode()).as("hook %s: %s", bad, refused.body()).isEqualTo(400);
      }
      soft.assertThat(rig.state()).as("the state after the refused hook events").isEqualTo("idle");

      String command = "sleep 3 && echo approved > approved.txt";
      rig.model.then(
          new Step.ToolCall(
              "bash",
              JSON.writeValueAsString(
                  Map.of("command", command, "description", "Write approved.txt"))),
          new Step.Text("The file is written."));
      rig.prompt(soft, "Write approved.txt");
      rig.observe(
          "approval: run this command?",
          screen -> screen.contains("Do you want to run this command?"),
          "waiting",
          Duration.ofSeconds(20),
          Duration.ofSeconds(6));
      rig.holds("approval: run this command?", "waiting", Duration.ofSeconds(5));
      JsonNode attention = rig.session().path("attention");
      soft.assertThat(attention.path("kind").asText(null))
          .as("attention.kind on the approval: %s", attention)
          .isEqualTo("permission");
      soft.assertThat(attention.path("detail").asText(""))
          .as("attention.detail names the command")
          .contains("echo approved > approved.txt");
      rig.send(Map.of("key", "Enter")); // "1. Yes"
      rig.observe(
          "approval: approved, command running",
          screen ->
              !screen.contains("Do you want to run this command?")
                  && !screen.contains("The file is written."),
          "working",
          Duration.ofSeconds(10),
          Duration.ofSeconds(3));
      rig.observe(
          "approval: done",
          screen -> screen.contains("The file is written.") && Rig.readyPrompt(screen),
          "idle",
          Duration.ofSeconds(20),
          Duration.ofSeconds(6));
      soft.assertThat(rig.project.resolve("approved.txt")).as("the approved command ran").exists();
      soft.assertThat(rig.sources)
          .as("Copilot's own hooks decided the approval and the done screens")
          .containsEntry("approval: run this command?", "hook permissionRequest bash")
          .containsEntry("approval: done", "hook agentStop")
          .containsEntry("stream: answer done", "hook agentStop");

      // Copilot retries a 500 five times (about 15 s) before it gives up on screen.
      for (int i = 0; i < 6; i++) {
        rig.model.then(new Step.Failure(500, "server_error", "The scripted model failed."));
      }
      rig.prompt(soft, "Summarise the README");
      rig.observe(
          "error: API error (500, retries spent)",
          screen -> screen.contains("Failed to get response from the AI model"),
          "error",
          Duration.ofSeconds(60),
          Duration.ofSeconds(6));
      rig.holds("error: API error (500, retries spent)", "error", Duration.ofSeconds(3));
      soft.assertThat(rig.session().path("attention").path("kind").asText(null))
          .as("attention.kind after the API error")
          .isEqualTo("error");

      // Its provider's usage limit: a 429 for every try. Copilot retries five times (about 50 s)
      // before it gives up on screen; nothing is broken, a person waits or switches.
      for (int i = 0; i < 6; i++) {
        rig.model.then(
            new Step.UsageLimit(
                "You've hit your usage limit.", java.time.Instant.now().plusSeconds(600)));
      }
      rig.prompt(soft, "Summarise the changelog");
      // The line it gives up with (the 500's is still above it), not a retry's notice of the
      // last error.
      Pattern gaveUp = Pattern.compile("retried \\d+ times[^\n]*(?:\n[^\n]*)?Last error: 429");
      rig.observe(
          "usage limit (429, retries spent)",
          screen -> gaveUp.matcher(screen).find(),
          "waiting",
          Duration.ofSeconds(90),
          Duration.ofSeconds(6));
      JsonNode limited = rig.session().path("attention");
      soft.assertThat(limited.path("kind").asText(null))
          .as("attention.kind after the usage limit (attention: %s)", limited)
          .isEqualTo("usage_limit");
      soft.assertThat(limited.path("detail").asText(""))
          .as("attention.detail: Copilot's words")
          .contains("Last error: 429 You've hit your usage limit.");

      Path events =
          rig.copilotHome.resolve("session-state").resolve(rig.id).resolve("events.jsonl");
      ArrayNode own = ownTurns(events);
      JsonNode turns =
          RecordedConversation.turns(
              rig.engine, rig.admin, rig.id, own.size(), Duration.ofSeconds(10));
      System.err.printf(
          "copilot-real | conversation turns: %d read by clique, %d in Copilot's own record%n",
          turns.size(), own.size());
      RecordedConversation.keep(
          events, "copilot-" + AgentClis.pinned("@github/copilot") + "-events.jsonl");
      soft.assertThat(own)
          .as("Copilot's own record holds the three prompts and two answers")
          .hasSize(5);
      soft.assertThat(turns)
          .as("the conversation, turn for turn, against %s", events)
          .isEqualTo(own);
      // Three answers reported their tokens (the failed and limited tries none): the slow one,
      // the command call and the answer after it.
      Map<String, Long> sent = UsageProof.sent(TOKENS, 3);
      soft.assertThat(
              UsageProof.await(
                  rig.engine, rig.admin, rig.id, "copilot-real", sent, Duration.ofSeconds(10)))
          .as("usage read from Copilot's events, beside what the server sent")
          .isEqualTo(sent);
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
      soft.assertThat(rig.trap.attempts()).as("requests that tried to leave loopback").isEmpty();
    }
    soft.assertAll();
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void aCopilotThatExitsAtStartIsStoppedWithItsStatus() throws Exception {
    SoftAssertions soft = new SoftAssertions();
    // A session id that is no UUID: Copilot says so and exits 1 before its TUI starts.
    try (Rig rig =
        Rig.start(
            "exit",
            "[cli.copilot]\ncommand = \"copilot\"\nargs = [\"--session-id\", \"not-a-uuid\"]\n")) {
      rig.create(soft, null);
      Look exit =
          rig.observe(
              "exit: Copilot exits at start",
              screen -> !rig.tmuxSessionExists() || Tmux.paneDead(rig.engine.socket, rig.id),
              "stopped",
              Duration.ofSeconds(30),
              Duration.ofSeconds(5));
      rig.watch.awaitExitStatus(exit);
      JsonNode stopped = rig.session();
      String lastLines =
          rig.state("/api/sessions/" + rig.id + "/peek?lines=20").path("lines").toString();
      rig.watch.table(
          "exit: exit status, last lines",
          "1",
          stopped.path("exit_status") + ", " + lastLines,
          -1,
          "");
      soft.assertThat(stopped.path("exit_status").asInt(-1))
          .as("a CLI that exited says how: %s", stopped)
          .isEqualTo(1);
      soft.assertThat(lastLines)
          .as("its last screen stays readable")
          .contains("No session or task matched");
    }
    soft.assertAll();
  }

  /** The turns of Copilot's own record, read here on their own: its user and assistant messages. */
  static ArrayNode ownTurns(Path events) throws IOException {
    ArrayNode turns = JSON.createArrayNode();
    for (String line : Files.readAllLines(events)) {
      JsonNode event = JSON.readTree(line);
      String type = event.path("type").asText();
      String text = event.path("data").path("content").asText("").strip();
      String role =
          type.equals("user.message")
              ? "user"
              : type.equals("assistant.message") ? "assistant" : null;
      if (role == null || text.isEmpty()) {
        continue;
      }
      if (!turns.isEmpty() && turns.get(turns.size() - 1).path("role").asText().equals(role)) {
        String joined = turns.get(turns.size() - 1).path("text").asText() + "\n\n" + text;
        ((com.fasterxml.jackson.databind.node.ObjectNode) turns.get(turns.size() - 1))
            .put("text", joined);
      } else {
        turns.addObject().put("role", role).put("text", text);
      }
    }
    return turns;
  }

  /** One real Copilot under a throwaway engine, with its own model server, homes and project. */
  private static final class Rig extends OpenAiCliRig {
    final Path copilotHome;

    private Rig(
        String name,
        OpenAiModelServer model,
        OutsideTrafficTrap trap,
        ThrowawayEngine engine,
        Path project,
        Path copilotHome,
        String admin) {
      super("copilot", name, model, trap, engine, project, admin);
      this.copilotHome = copilotHome;
    }

    /**
     * An engine whose panes find the real copilot, reaching only loopback; {@code clis}: an
     * override.
     */
    static Rig start(String name, String clis) throws IOException, InterruptedException {
      OpenAiModelServer model = new OpenAiModelServer();
      OutsideTrafficTrap trap = new OutsideTrafficTrap();
      ThrowawayEngine engine = ThrowawayEngine.prepare();
      try {
        Path home = Files.createDirectories(engine.home.resolve("copilot-user-home"));
        Path copilotHome = Files.createDirectories(home.resolve(".copilot"));
        Path project = Files.createDirectories(engine.workdir.resolve("workspace").resolve("app"));
        Files.writeString(project.resolve("README.md"), "# app\n");
        if (!clis.isEmpty()) {
          Files.writeString(engine.home.resolve("clis.toml"), clis);
        }
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", AgentClis.path());
        env.put("HOME", home.toString());
        env.put("COPILOT_HOME", copilotHome.toString());
        // Copilot unpacks its program (235 MB) under the cache on first start: once for the suite.
        env.put(
            "XDG_CACHE_HOME",
            Files.createDirectories(Path.of("target", "copilot-cache"))
                .toAbsolutePath()
                .toString());
        env.put("COPILOT_PROVIDER_BASE_URL", model.baseUrl());
        env.put("COPILOT_PROVIDER_TYPE", "openai");
        env.put("COPILOT_PROVIDER_WIRE_API", "responses");
        env.put("COPILOT_PROVIDER_API_KEY", "sk-scripted-not-a-key");
        env.put("COPILOT_MODEL", "gpt-test");
        env.put("COPILOT_OFFLINE", "true");
        env.put("COPILOT_AUTO_UPDATE", "false");
        for (String proxy : List.of("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy")) {
          env.put(proxy, trap.url());
        }
        env.put("NO_PROXY", "127.0.0.1,localhost");
        env.put("no_proxy", "127.0.0.1,localhost");
        engine.withEnv(env).start();
        String admin = engine.mintToken("copilot-" + name, false);
        return new Rig(name, model, trap, engine, project, copilotHome, admin);
      } catch (IOException | InterruptedException | RuntimeException | Error e) {
        engine.close();
        model.close();
        trap.close();
        throw e;
      }
    }

    /** Copilot sends the prompt after a {@code <current_datetime>} envelope of its own. */
    @Override
    boolean carries(String userText, String prompt) {
      return userText.endsWith(prompt);
    }

    /** Its input box with the footer of a Copilot that waits for a prompt. */
    static boolean readyPrompt(String screen) {
      return screen.contains("/ commands · ? help")
          && !screen.contains("Do you trust the files in this folder?")
          && !screen.contains("Do you want to run this command?");
    }
  }
}
