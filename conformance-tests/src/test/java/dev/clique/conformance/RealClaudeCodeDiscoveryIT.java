package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.models.AnthropicModelServer;
import dev.clique.models.ScriptedModelServer.Step;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real Claude Code, started by a person in their own tmux (on a socket of a throwaway {@code
 * TMUX_TMPDIR}, no clique involved), then found by {@code clique serve} and by {@code clique mcp
 * --embedded}: listed with its true state, its conversation read from the transcript its own
 * process names, read-only until adopted. Its config and model server are the suite's own (see
 * {@link RealClaudeCodeIT}); clique's own environment knows nothing of them, so the transcript is
 * found from the process's environment.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RealClaudeCodeDiscoveryIT {
  private static final Duration START = Duration.ofSeconds(40);
  private static final Duration TURN = Duration.ofSeconds(30);

  /**
   * A person's Claude Code set-up: its config dir (onboarding done, the project trusted), a project
   * folder, and the scripted model server it reaches, nothing else. Closing it stops the server and
   * removes both folders.
   */
  private record PersonsClaude(
      AnthropicModelServer model, Path home, Path project, Map<String, String> env)
      implements AutoCloseable {
    static PersonsClaude configured() throws IOException {
      Path home = Files.createTempDirectory("clique-it-claude-home-");
      Path project = Files.createTempDirectory("clique-it-claude-project-").toRealPath();
      AnthropicModelServer model = new AnthropicModelServer();
      Files.writeString(
          home.resolve(".claude.json"),
          RealClaudeCodeIT.claudeConfig(RealClaudeCodeIT.Setup.READY, project));
      return new PersonsClaude(model, home, project, RealClaudeCodeIT.claudeEnv(model, home));
    }

    @Override
    public void close() throws IOException {
      model.close();
      try {
        quietlyDelete(home);
        quietlyDelete(project);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Test
  void aClaudeCodeStartedOutsideCliqueIsFoundWithItsStateAndConversation() throws Exception {
    try (PersonsClaude claude = PersonsClaude.configured()) {
      AnthropicModelServer model = claude.model();
      Path project = claude.project();
      Map<String, String> claudeEnv = claude.env();
      // As a person starts it: their own server, their own session, `claude` found on PATH (in
      // the mode that asks before a command, which this version's default "auto" would not).
      try (PersonsTmux own =
              PersonsTmux.startedBy(project, claudeEnv, "claude --permission-mode default");
          ThrowawayEngine engine = ThrowawayEngine.prepare().withEnv(own.discoverClis()).start()) {
        Path socket = own.socket;
        String admin = engine.mintToken("discovery-admin", false);
        JsonNode found =
            engine.awaitSession(
                admin,
                s -> s.path("source").path("socket").asText().equals(socket.toString()),
                START);
        String id = found.path("id").asText();
        assertThat(found.path("cli").asText()).isEqualTo("claude");
        assertThat(found.path("adopted").asBoolean(true)).isFalse();
        assertThat(found.path("source").path("session").asText()).isEqualTo("work");
        assertThat(found.path("cwd").asText()).isEqualTo(project.toString());

        JsonNode ready =
            engine.awaitSession(
                admin,
                s ->
                    s.path("id").asText().equals(id)
                        && readyPrompt(own)
                        && s.path("state").asText().equals("idle"),
                START);
        assertThat(ready.path("state").asText()).isEqualTo("idle");

        // The person types into their own terminal; the model answers.
        model.then(new Step.Text("The login test lives in LoginTest.java."));
        own.type(claudeEnv, "Where is the login test?");
        engine.awaitSession(
            admin,
            s ->
                s.path("id").asText().equals(id)
                    && s.path("state").asText().equals("idle")
                    && screenShows(own, "LoginTest.java"),
            TURN);

        // A command to approve: the pane asks, and the session waits for the person.
        model.then(
            new Step.ShellCall("echo clique-marker > marker.txt", "Writing a marker"),
            new Step.Text("The marker is written."));
        own.type(claudeEnv, "Write the marker file");
        JsonNode asking =
            engine.awaitSession(
                admin,
                s ->
                    s.path("id").asText().equals(id)
                        && s.path("state").asText().equals("waiting")
                        && screenShows(own, "Do you want to proceed?"),
                TURN);
        assertThat(asking.path("attention").path("kind").asText()).isEqualTo("permission");
        approve(own, claudeEnv);
        engine.awaitSession(
            admin,
            s ->
                s.path("id").asText().equals(id)
                    && s.path("state").asText().equals("idle")
                    && screenShows(own, "The marker is written."),
            TURN);
        assertThat(project.resolve("marker.txt")).exists();

        JsonNode transcript = engine.awaitTranscript(admin, id, "The marker is written.", TURN);
        assertThat(transcript.path("turns").toString())
            .contains("Where is the login test?")
            .contains("The login test lives in LoginTest.java.")
            .contains("Write the marker file")
            .contains("The marker is written.");
        assertThat(transcript.path("transcript_source").path("exact").asBoolean())
            .as(transcript.path("transcript_source").toString())
            .isTrue();
        assertThat(transcript.path("transcript_source").path("evidence").asText())
            .contains("sessions/");

        assertThat(
                engine
                    .post("/api/sessions/" + id + "/send", admin, "{\"text\":\"hi\"}")
                    .statusCode())
            .isEqualTo(403);

        // Only the throwaway directory was looked at: every discovery line names it.
        List<String> lines =
            engine.serveStderr().lines().filter(line -> line.contains("discovery:")).toList();
        assertThat(lines).isNotEmpty();
        assertThat(lines)
            .allMatch(line -> line.contains(own.tmpdir.toString()), "name " + own.tmpdir);
      }
      // Claude Code ended with its tmux server, before its folders are removed.
    }
  }

  /**
   * The "done when": in a terminal in their project, a person types {@code tmux new -s work
   * claude} and asks one thing; then {@code bin/clique mcp --embedded}, with nothing set up but
   * discovery and a home, lists that session as idle and reads its conversation.
   */
  @Test
  void aPersonsTmuxNewClaudeIsSeenByTheEmbeddedMcpServerWithItsStateAndConversation()
      throws Exception {
    try (PersonsClaude claude = PersonsClaude.configured();
        PersonsTmux own =
            PersonsTmux.typedInATerminal(
                claude.project(), claude.env(), "tmux new -s work claude");
        ThrowawayEngine home = ThrowawayEngine.prepare()) {
      Path socket = own.socket;
      awaitScreen(own, RealClaudeCodeDiscoveryIT::readyPrompt, START);
      claude.model().then(new Step.Text("The login test lives in LoginTest.java."));
      own.type(claude.env(), "Where is the login test?");
      awaitScreen(own, s -> readyPrompt(s) && screenShows(s, "LoginTest.java"), TURN);

      Map<String, String> env = home.env();
      env.putAll(own.discoverClis());
      List<String> command = List.of(Launcher.script().toString(), "mcp", "--embedded");
      try (Spawned mcp = Spawned.start(command, env, home.workdir)) {
        McpDialogue dialogue = new McpDialogue(mcp);
        dialogue.initialize("2025-06-18");
        JsonNode work = null;
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        JsonNode listed = null;
        while (work == null || !work.path("state").asText().equals("idle")) {
          assertThat(System.nanoTime())
              .as("list_sessions shows the session idle; last: " + listed)
              .isLessThan(deadline);
          Thread.sleep(200);
          listed = dialogue.callTool("list_sessions", Map.of());
          work = null;
          for (JsonNode session : listed.at("/result/structuredContent/sessions")) {
            if (session.path("source").path("session").asText().equals("work")) {
              work = session;
            }
          }
        }
        assertThat(work.path("cli").asText()).isEqualTo("claude");
        assertThat(work.path("cwd").asText()).isEqualTo(claude.project().toString());
        assertThat(work.path("adopted").asBoolean(true)).isFalse();
        assertThat(work.path("source").path("socket").asText()).isEqualTo(socket.toString());

        String id = work.path("id").asText();
        JsonNode turns = null;
        deadline = System.nanoTime() + TURN.toNanos();
        while (turns == null || !turns.toString().contains("LoginTest.java")) {
          assertThat(System.nanoTime())
              .as("the conversation has the answer; last: " + turns)
              .isLessThan(deadline);
          Thread.sleep(200);
          turns =
              dialogue
                  .callTool("conversation", Map.of("id", id))
                  .at("/result/structuredContent/turns");
        }
        assertThat(turns.toString())
            .contains("Where is the login test?")
            .contains("The login test lives in LoginTest.java.");
        assertThat(turns.get(0).path("role").asText()).isEqualTo("user");
        mcp.closeStdin();
        assertThat(mcp.waitFor(Duration.ofSeconds(10))).isZero();
      }
    }
  }

  /** Waits until the pane of {@code own}'s session {@code work} shows what {@code wanted} wants. */
  private static void awaitScreen(PersonsTmux own, Predicate<String> wanted, Duration within)
      throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    String screen = own.screen();
    while (!wanted.test(screen)) {
      assertThat(System.nanoTime())
          .as("the pane shows what is wanted:\n" + screen)
          .isLessThan(deadline);
      Thread.sleep(100);
      screen = own.screen();
    }
  }

  /**
   * Presses Enter on the permission question, as a person does once they have read it; again if the
   * question is still up after a few seconds (a key that came while it was still being drawn).
   */
  private static void approve(PersonsTmux own, Map<String, String> env) throws Exception {
    for (int attempt = 0; attempt < 3; attempt++) {
      Thread.sleep(1_000);
      own.pressEnter(env);
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (System.nanoTime() < deadline) {
        if (!screenShows(own, "Do you want to proceed?")) {
          return;
        }
        Thread.sleep(100);
      }
    }
  }

  /** Its prompt with its idle footer (the shortcuts hint, or the mode it cycles), not working. */
  private static boolean readyPrompt(PersonsTmux own) {
    return readyPrompt(own.screen());
  }

  private static boolean readyPrompt(String screen) {
    return (screen.contains("? for shortcuts") || screen.contains("shift+tab to cycle"))
        && !screen.contains("esc to interrupt");
  }

  private static boolean screenShows(PersonsTmux own, String text) {
    return own.screen().contains(text);
  }

  private static boolean screenShows(String screen, String text) {
    return screen.contains(text);
  }

  private static void quietlyDelete(Path root) throws InterruptedException {
    for (int attempt = 0; attempt < 20 && Files.exists(root); attempt++) {
      try {
        ThrowawayEngine.deleteTree(root);
      } catch (IOException | RuntimeException e) {
        Thread.sleep(250); // Claude Code may still be writing for a moment
      }
    }
  }
}
