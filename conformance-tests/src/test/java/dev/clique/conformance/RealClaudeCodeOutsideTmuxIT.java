package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.models.AnthropicModelServer;
import dev.clique.models.ScriptedModelServer.Step;
import dev.clique.models.ScriptedModelServer.Tokens;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real Claude Code, run by a person in a plain terminal (a pseudo-terminal this test holds, as
 * a terminal tab or an editor's terminal does; no tmux anywhere), against the scripted model
 * server, found by {@code clique serve} without a hook of clique's: listed within about a second
 * with its terminal and pid, its state from the registry it keeps itself ({@code
 * sessions/<pid>.json}: idle, busy, waiting for a permission prompt), its conversation equal to
 * what was typed and answered, its usage equal to what the server sent, a peek of its conversation,
 * read-only, and stopped within about a second of its end.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RealClaudeCodeOutsideTmuxIT {
  /**
   * The "about a second": one look a second (or Claude Code's registry, written about a
   * second after its start), with room for a machine that runs several suites at once (1.2 to 1.9 s
   * seen at a load of 13 on 2 cores; OutsideTmuxIT holds the engine alone to 1.5 s).
   */
  private static final Duration WITHIN = Duration.ofMillis(2_500);

  private static final Duration START = Duration.ofSeconds(40);
  private static final Duration TURN = Duration.ofSeconds(30);

  @Test
  void aClaudeCodeInAPlainTerminalIsSeenWithItsRegistryStateConversationAndUsage()
      throws Exception {
    Path home = Files.createTempDirectory("clique-it-claude-home-");
    Path project = Files.createTempDirectory("clique-it-claude-project-").toRealPath();
    Path noTmux = Files.createTempDirectory("clique-it-no-tmux-");
    Tokens tokens = new Tokens(1234, 56, 700, 300);
    try (AnthropicModelServer model = new AnthropicModelServer()) {
      model.answering(tokens);
      Files.writeString(
          home.resolve(".claude.json"),
          RealClaudeCodeIT.claudeConfig(RealClaudeCodeIT.Setup.READY, project));
      // A machine where Claude Code ran before: its registry folder is there to be watched.
      Path claudeConfig = Files.createDirectories(home.resolve(".claude"));
      Files.createDirectories(claudeConfig.resolve("sessions"));
      Map<String, String> claudeEnv = RealClaudeCodeIT.claudeEnv(model, home);
      try (ThrowawayEngine engine =
              ThrowawayEngine.prepare()
                  .withEnv(
                      Map.of(
                          "CLIQUE_DISCOVER", "on",
                          "TMUX_TMPDIR", noTmux.toString(),
                          "CLAUDE_CONFIG_DIR", claudeConfig.toString()))
                  .start();
          PlainTerminal terminal =
              openOnceItLooks(
                  engine, project, claudeEnv, List.of("claude", "--permission-mode", "default"))) {
        String admin = engine.mintToken("outside-admin", false);
        long pid = terminal.pid;
        JsonNode found =
            engine.awaitSession(admin, s -> s.path("source").path("pid").asLong() == pid, START);
        Duration took = terminal.sinceFork();
        System.err.printf(
            "claude-outside | found %d ms after its fork at %s%n",
            took.toMillis(), java.time.Instant.now().minus(took));
        engine
            .serveStderr()
            .lines()
            .filter(line -> line.contains("outside tmux:"))
            .forEach(line -> System.err.println("claude-outside | engine: " + line));
        assertThat(took).as("found within about a second of its start").isLessThan(WITHIN);
        String id = found.path("id").asText();
        assertThat(found.path("cli").asText()).isEqualTo("claude");
        assertThat(found.path("adopted").asBoolean(true)).isFalse();
        assertThat(found.path("source").path("tty").asText()).matches("/dev/pts/[0-9]+");
        assertThat(found.path("source").has("socket")).isFalse();
        assertThat(found.path("cwd").asText()).isEqualTo(project.toString());

        JsonNode idle =
            engine.awaitSession(
                admin, s -> s.path("id").asText().equals(id) && isRegistry(s, "idle"), START);
        assertThat(idle.path("cli_version").asText())
            .isEqualTo(AgentClis.pinned("@anthropic-ai/claude-code"));

        // Two prompts, typed into the person's own terminal; each answer read as Claude Code
        // recorded it, the state from its registry only.
        String[][] exchanges = {
          {"Where is the login test?", "The login test lives in LoginTest.java."},
          {"And the signup test?", "SignupTest.java, beside it."}
        };
        for (String[] exchange : exchanges) {
          model.then(new Step.Text(exchange[1]));
          CompletableFuture<JsonNode> working = waitFor(engine, admin, id, "working");
          terminal.type(exchange[0]);
          terminal.enter();
          assertThat(working.get(TURN.toSeconds(), TimeUnit.SECONDS).path("matched").asBoolean())
              .as("working while it answers " + exchange[0])
              .isTrue();
          engine.awaitTranscript(admin, id, exchange[1], TURN);
          engine.awaitSession(
              admin, s -> s.path("id").asText().equals(id) && isRegistry(s, "idle"), TURN);
        }
        JsonNode turns = RecordedConversation.turns(engine, admin, id, 4, Duration.ofSeconds(10));
        assertThat(turns)
            .as("the conversation, as Claude Code recorded it")
            .isEqualTo(RecordedConversation.expectedTurns(exchanges));
        JsonNode transcript =
            ThrowawayEngine.json(engine.get("/api/sessions/" + id + "/transcript", admin).body());
        assertThat(transcript.path("transcript_source").path("exact").asBoolean())
            .as(transcript.path("transcript_source").toString())
            .isTrue();
        Map<String, Long> sent = UsageProof.sent(tokens, model.turns().size());
        assertThat(
                UsageProof.await(engine, admin, id, "claude-outside", sent, Duration.ofSeconds(10)))
            .as("usage read from Claude Code's transcript, beside what the server sent")
            .isEqualTo(sent);

        JsonNode peek =
            ThrowawayEngine.json(engine.get("/api/sessions/" + id + "/peek?lines=4", admin).body());
        assertThat(peek.path("screen").asBoolean(true)).isFalse();
        assertThat(peek.path("from").asText()).isEqualTo("conversation");
        assertThat(peek.path("lines").toString())
            .contains("> And the signup test?")
            .contains("SignupTest.java, beside it.");

        HttpResponse<String> send =
            engine.post("/api/sessions/" + id + "/send", admin, "{\"text\":\"hi\"}");
        assertThat(send.statusCode()).as(send.body()).isEqualTo(403);
        assertThat(send.body()).contains("runs outside tmux");

        // A command to approve: the registry says it waits for a permission prompt.
        model.then(
            new Step.ShellCall("echo clique-marker > marker.txt", "Writing a marker"),
            new Step.Text("The marker is written."));
        terminal.type("Write the marker file");
        terminal.enter();
        JsonNode asking =
            engine.awaitSession(
                admin, s -> s.path("id").asText().equals(id) && isRegistry(s, "waiting"), TURN);
        assertThat(asking.path("attention").path("kind").asText()).isEqualTo("permission");
        assertThat(asking.path("attention").path("detail").asText()).isEqualTo("permission prompt");
        Thread.sleep(1_000); // its status says waiting as it draws the question: read, then answer
        terminal.enter(); // "1. Yes"
        engine.awaitTranscript(admin, id, "The marker is written.", TURN);
        engine.awaitSession(
            admin, s -> s.path("id").asText().equals(id) && isRegistry(s, "idle"), TURN);
        assertThat(project.resolve("marker.txt")).exists();

        // The terminal is closed: Claude Code ends, and the session is stopped within a second.
        long ended = terminal.closeAndAwaitEnd();
        JsonNode stopped =
            engine.awaitSession(
                admin,
                s -> s.path("id").asText().equals(id) && s.path("state").asText().equals("stopped"),
                Duration.ofSeconds(10));
        Duration stopping = Duration.ofNanos(System.nanoTime() - ended);
        System.err.printf("claude-outside | stopped %d ms after its end%n", stopping.toMillis());
        assertThat(stopping).as("stopped within about a second of its end").isLessThan(WITHIN);
        assertThat(stopped.path("alive").asBoolean(true)).isFalse();
      } finally {
        System.err.println("claude-outside | what the terminal showed: " + home.resolve("screen"));
      }
    } finally {
      for (Path dir : List.of(project, noTmux, home)) {
        try {
          ThrowawayEngine.deleteTree(dir);
        } catch (IOException e) {
          // Claude Code may have written a last file; the temporary folder is the system's
        }
      }
    }
  }

  private static boolean isRegistry(JsonNode session, String state) {
    return session.path("state").asText().equals(state)
        && session.path("state_source").path("authority").asText().equals("registry");
  }

  /** A wait for {@code state}, asked now, answered when it comes (or in {@link #TURN}). */
  private static CompletableFuture<JsonNode> waitFor(
      ThrowawayEngine engine, String token, String id, String state) throws Exception {
    CompletableFuture<JsonNode> answer =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return ThrowawayEngine.json(
                    engine
                        .get(
                            "/api/sessions/"
                                + id
                                + "/wait?for="
                                + state
                                + "&timeout="
                                + TURN.toSeconds(),
                            token)
                        .body());
              } catch (IOException e) {
                throw new IllegalStateException(e);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(200); // the wait is held before the keys go
    return answer;
  }

  /**
   * A plain terminal running {@code command}, opened once the engine looks for CLIs outside tmux
   * (its HTTP answers before): what is timed is how soon a running engine finds one.
   */
  private static PlainTerminal openOnceItLooks(
      ThrowawayEngine engine, Path folder, Map<String, String> env, List<String> command)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START.toNanos();
    while (!engine.serveStderr().contains("outside tmux: looking for CLIs")) {
      assertThat(System.nanoTime()).as("the engine looks outside tmux").isLessThan(deadline);
      Thread.sleep(50);
    }
    Thread.sleep(1_000); // a running engine, past its first look
    return PlainTerminal.open(folder, env, command);
  }
}
