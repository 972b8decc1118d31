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
 * The real opencode, started by a person in their own tmux (on a socket of a throwaway {@code
 * TMUX_TMPDIR}, no clique involved, no {@code --session}), then found by {@code clique serve}:
 * recognised by its native binary, listed with its version and its state read from its screen (no
 * plugin of clique's loaded in it), its conversation read from the database its process holds open,
 * turn for turn as opencode's own {@code export} prints it. Its home and model server are the
 * suite's own (see {@link RealOpencodeIT}).
 */
@ExtendWith(LeavesRealThingsUntouched.class)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RealOpencodeDiscoveryIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration TURN = Duration.ofSeconds(30);
  private static final String PROMPT = "Where is the login test?";
  private static final String ANSWER = "The login test lives in LoginTest.java.";

  @Test
  void anOpencodeStartedOutsideCliqueIsFoundWithItsVersionStateAndConversation() throws Exception {
    Path home = Files.createTempDirectory("clique-it-opencode-home-");
    Path project = Files.createTempDirectory("clique-it-opencode-project-").toRealPath();
    try (AnthropicModelServer model = new AnthropicModelServer("bash")) {
      RealOpencodeIT.configFolder(home, RealOpencodeIT.config(model.url()));
      Map<String, String> env = RealOpencodeIT.paneEnvironment(home);
      // As a person starts it: their own server, their own session, `opencode` found on PATH.
      try (PersonsTmux own = PersonsTmux.startedBy(project, env, "opencode");
          ThrowawayEngine engine = ThrowawayEngine.prepare().withEnv(own.discoverClis()).start()) {
        String admin = engine.mintToken("discovery-admin", false);
        JsonNode found =
            engine.awaitSession(
                admin,
                s -> s.path("source").path("socket").asText().equals(own.socket.toString()),
                START);
        String id = found.path("id").asText();
        assertThat(found.path("cli").asText()).isEqualTo("opencode");
        assertThat(found.path("adopted").asBoolean(true)).isFalse();
        assertThat(found.path("cwd").asText()).isEqualTo(project.toString());
        engine.awaitSession(
            admin,
            s ->
                s.path("id").asText().equals(id)
                    && RealOpencodeIT.started(own.screen())
                    && s.path("state").asText().equals("idle"),
            START);
        assertThat(engine.awaitCliVersion(admin, id, Duration.ofSeconds(5)))
            .as("cli_version of the discovered session")
            .isEqualTo(AgentClis.pinned("opencode-ai"));

        // The person types into their own terminal; the model answers.
        model.then(new Step.Text(ANSWER));
        own.type(env, PROMPT);
        engine.awaitSession(
            admin,
            s ->
                s.path("id").asText().equals(id)
                    && s.path("state").asText().equals("idle")
                    && own.screen().contains(ANSWER)
                    && RealOpencodeIT.started(own.screen()),
            TURN);

        JsonNode transcript = engine.awaitTranscript(admin, id, ANSWER, TURN);
        System.err.printf(
            "opencode-discovery | transcript_source: %s%n", transcript.path("transcript_source"));
        assertThat(transcript.path("transcript_source").path("evidence").asText())
            .as(transcript.path("transcript_source").toString())
            .contains("in the database pid");
        JsonNode sessions =
            JSON.readTree(
                RealOpencodeIT.opencode(project, home, "session", "list", "--format", "json"));
        assertThat(sessions.size()).as("opencode's sessions: %s", sessions).isEqualTo(1);
        String session = sessions.path(0).path("id").asText();
        JsonNode recorded =
            RealOpencodeIT.ownTurns(
                JSON.readTree(RealOpencodeIT.opencode(project, home, "export", session)));
        assertThat(recorded)
            .as("opencode's own export of its session")
            .isEqualTo(RecordedConversation.expectedTurns(new String[][] {{PROMPT, ANSWER}}));
        assertThat(transcript.path("turns"))
            .as("the conversation the engine read, against its export of %s", session)
            .isEqualTo(recorded);
        System.err.printf(
            "opencode-discovery | cli %s, cli_version %s, turns %d read, %d in its own export%n",
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
