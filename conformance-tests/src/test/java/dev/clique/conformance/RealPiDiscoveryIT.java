package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.models.AnthropicModelServer;
import dev.clique.models.ScriptedModelServer.Step;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real pi, started by a person in their own tmux (on a socket of a throwaway {@code
 * TMUX_TMPDIR}, no clique involved, no {@code --session-id}), then found by {@code clique serve}:
 * recognised by the name its process takes ({@code pi}, its arguments hidden), listed with its
 * version and its state read from its screen (no extension of clique's loaded in it), its
 * conversation read from the session file of its folder written since it started, turn for turn as
 * pi's own session manager reads it. Its home and model server are the suite's own (see {@link
 * RealPiIT}).
 */
@ExtendWith(LeavesRealThingsUntouched.class)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RealPiDiscoveryIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration TURN = Duration.ofSeconds(30);
  private static final String PROMPT = "Where is the login test?";
  private static final String ANSWER = "The login test lives in LoginTest.java.";

  @Test
  void aPiStartedOutsideCliqueIsFoundWithItsVersionStateAndConversation() throws Exception {
    Path home = Files.createTempDirectory("clique-it-pi-home-");
    Path project = Files.createTempDirectory("clique-it-pi-project-").toRealPath();
    try (AnthropicModelServer model =
        new AnthropicModelServer(AnthropicModelServer.PI_SHELL_TOOL)) {
      Path agent = RealPiIT.modelsOf(home, model.url());
      Files.writeString(
          agent.resolve("settings.json"),
          JSON.writeValueAsString(
              Map.of("defaultProvider", "scripted", "defaultModel", RealPiIT.MODEL)));
      Map<String, String> env = RealPiIT.offlineEnvironment(home);
      // As a person starts it: their own server, their own session, `pi` found on PATH.
      try (PersonsTmux own = PersonsTmux.startedBy(project, env, "pi");
          ThrowawayEngine engine = ThrowawayEngine.prepare().withEnv(own.discoverClis()).start()) {
        String admin = engine.mintToken("discovery-admin", false);
        JsonNode found =
            engine.awaitSession(
                admin,
                s -> s.path("source").path("socket").asText().equals(own.socket.toString()),
                START);
        String id = found.path("id").asText();
        assertThat(found.path("cli").asText()).isEqualTo("pi");
        assertThat(found.path("adopted").asBoolean(true)).isFalse();
        assertThat(found.path("cwd").asText()).isEqualTo(project.toString());
        engine.awaitSession(
            admin,
            s ->
                s.path("id").asText().equals(id)
                    && RealPiIT.started(own.screen())
                    && s.path("state").asText().equals("idle"),
            START);
        assertThat(engine.awaitCliVersion(admin, id, Duration.ofSeconds(5)))
            .as("cli_version of the discovered session")
            .isEqualTo(AgentClis.pinned("@earendil-works/pi-coding-agent"));

        // The person types into their own terminal; the model answers.
        model.then(new Step.Text(ANSWER));
        own.type(env, PROMPT);
        engine.awaitSession(
            admin,
            s ->
                s.path("id").asText().equals(id)
                    && s.path("state").asText().equals("idle")
                    && own.screen().contains(ANSWER)
                    && RealPiIT.started(own.screen()),
            TURN);

        JsonNode transcript = engine.awaitTranscript(admin, id, ANSWER, TURN);
        System.err.printf(
            "pi-discovery | transcript_source: %s%n", transcript.path("transcript_source"));
        assertThat(transcript.path("transcript_source").path("evidence").asText())
            .as(transcript.path("transcript_source").toString())
            .contains("since the process started");
        Path session = RecordedConversation.onlyFile(home.resolve(".pi/agent/sessions"), ".jsonl");
        JsonNode recorded = PiOwnView.of(session);
        assertThat(recorded)
            .as("pi's own view of its session file")
            .isEqualTo(RecordedConversation.expectedTurns(new String[][] {{PROMPT, ANSWER}}));
        assertThat(transcript.path("turns"))
            .as("the conversation the engine read, against %s", session)
            .isEqualTo(recorded);
        System.err.printf(
            "pi-discovery | cli %s, cli_version %s, turns %d read, %d in its own view%n",
            found.path("cli").asText(),
            engine.awaitCliVersion(admin, id, Duration.ofSeconds(1)),
            transcript.path("turns").size(),
            recorded.size());

        assertThat(
                engine
                    .post("/api/sessions/" + id + "/send", admin, "{\"text\":\"hi\"}")
                    .statusCode())
            .as("a discovered session is read-only until adopted")
            .isEqualTo(403);
      }
    } finally {
      ThrowawayEngine.deleteTree(home);
      ThrowawayEngine.deleteTree(project);
    }
  }
}
