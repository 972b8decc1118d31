package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.models.OpenAiModelServer;
import dev.clique.models.ScriptedModelServer.Step;
import dev.clique.models.ScriptedModelServer.Tokens;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real Codex, run by a person in a plain terminal (no tmux), against the scripted OpenAI
 * server, found by {@code clique serve} from its process alone (Codex writes no registry): listed
 * with its terminal and pid, its conversation read from the rollout it holds open, its usage equal
 * to what the server sent, its state from the rollout's last turn, and stopped once it ends.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RealCodexOutsideTmuxIT {
  private static final Duration START = Duration.ofSeconds(40);
  private static final Duration TURN = Duration.ofSeconds(30);

  @Test
  void aCodexInAPlainTerminalIsSeenWithItsConversationAndUsage() throws Exception {
    Path home = Files.createTempDirectory("clique-it-codex-home-");
    Path codexHome = Files.createDirectories(home.resolve("codex-home"));
    Path project = Files.createTempDirectory("clique-it-codex-project-").toRealPath();
    Path noTmux = Files.createTempDirectory("clique-it-no-tmux-");
    Tokens tokens = new Tokens(1234, 56, 700, 0);
    try (OpenAiModelServer model = new OpenAiModelServer();
        OutsideTrafficTrap trap = new OutsideTrafficTrap()) {
      model.answering(tokens);
      Files.writeString(
          codexHome.resolve("config.toml"),
          model.codexConfig("hooks = false")
              + "\n[projects.\""
              + project
              + "\"]\ntrust_level = \"trusted\"\n");
      Map<String, String> env = new LinkedHashMap<>();
      env.put("PATH", AgentClis.path());
      env.put("HOME", home.toString());
      env.put("CODEX_HOME", codexHome.toString());
      env.put("SCRIPTED_OPENAI_KEY", "sk-scripted-not-a-key");
      for (String proxy : List.of("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy")) {
        env.put(proxy, trap.url());
      }
      env.put("NO_PROXY", "127.0.0.1,localhost");
      env.put("no_proxy", "127.0.0.1,localhost");
      try (ThrowawayEngine engine =
              ThrowawayEngine.prepare()
                  .withEnv(Map.of("CLIQUE_DISCOVER", "on", "TMUX_TMPDIR", noTmux.toString()))
                  .start();
          PlainTerminal terminal =
              openOnceItLooks(engine, project, env, List.of("codex", "--no-daemon"))) {
        String admin = engine.mintToken("codex-outside", false);
        long pid = terminal.pid;
        JsonNode found =
            engine.awaitSession(
                admin, s -> s.path("cli").asText().equals("codex") && isOrIsUnder(s, pid), START);
        System.err.printf(
            "codex-outside | found %d ms after its fork: %s%n",
            terminal.sinceFork().toMillis(), found.path("source"));
        String id = found.path("id").asText();
        assertThat(found.path("adopted").asBoolean(true)).isFalse();
        assertThat(found.path("source").path("tty").asText()).matches("/dev/pts/[0-9]+");

        String[][] exchanges = {
          {"First prompt", "First answer."},
          {"Second prompt", "Second answer."}
        };
        Thread.sleep(3_000); // its first screen
        for (String[] exchange : exchanges) {
          model.then(new Step.Text(exchange[1]));
          terminal.type(exchange[0]);
          terminal.enter();
          engine.awaitTranscript(admin, id, exchange[1], TURN);
        }
        JsonNode turns = RecordedConversation.turns(engine, admin, id, 4, Duration.ofSeconds(10));
        assertThat(turns)
            .as("the conversation, read from the rollout Codex holds open")
            .isEqualTo(RecordedConversation.expectedTurns(exchanges));
        engine
            .serveStderr()
            .lines()
            .filter(line -> line.contains("WARN") || line.contains("outside tmux:"))
            .forEach(line -> System.err.println("codex-outside | engine: " + line));
        Map<String, Long> sent = UsageProof.sent(tokens, model.mainTurns().size());
        assertThat(UsageProof.await(engine, admin, id, "codex-outside", sent, TURN))
            .as("usage read from Codex's rollout, beside what the server sent")
            .isEqualTo(sent);
        JsonNode idle =
            engine.awaitSession(
                admin,
                // Idle is also what a process alone says: the transcript's word is awaited (it is
                // read again at most every few seconds).
                s ->
                    s.path("id").asText().equals(id)
                        && s.path("state").asText().equals("idle")
                        && s.path("state_source").path("authority").asText().equals("transcript"),
                TURN);
        System.err.printf("codex-outside | after its answers: %s%n", idle.path("state_source"));
        assertThat(idle.path("state_source").path("authority").asText()).isEqualTo("transcript");
        assertThat(
                engine
                    .post("/api/sessions/" + id + "/send", admin, "{\"text\":\"hi\"}")
                    .statusCode())
            .isEqualTo(403);

        long ended = terminal.closeAndAwaitEnd();
        engine.awaitSession(
            admin,
            s -> s.path("id").asText().equals(id) && s.path("state").asText().equals("stopped"),
            Duration.ofSeconds(10));
        System.err.printf(
            "codex-outside | stopped %d ms after its end%n",
            Duration.ofNanos(System.nanoTime() - ended).toMillis());
      }
    } finally {
      for (Path dir : List.of(project, noTmux, home)) {
        try {
          ThrowawayEngine.deleteTree(dir);
        } catch (IOException e) {
          // a last file of Codex's; the temporary folder is the system's
        }
      }
    }
  }

  /** Whether the session's process is the terminal's command or runs under it. */
  private static boolean isOrIsUnder(JsonNode session, long pid) {
    long at = session.path("source").path("pid").asLong();
    for (int depth = 0; depth < 8 && at > 1; depth++) {
      if (at == pid) {
        return true;
      }
      at = ProcessHandle.of(at).flatMap(ProcessHandle::parent).map(ProcessHandle::pid).orElse(0L);
    }
    return false;
  }

  /**
   * A plain terminal running {@code command}, opened once the engine looks for CLIs outside tmux
   * (its HTTP answers before): what is timed is how soon a running engine finds one.
   */
  private static PlainTerminal openOnceItLooks(
      ThrowawayEngine engine, Path folder, Map<String, String> env, List<String> command)
      throws IOException, InterruptedException {
    engine.serveStderrOnceItSays("outside tmux: looking for CLIs");
    return PlainTerminal.open(folder, env, command);
  }
}
