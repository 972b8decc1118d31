package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.models.AnthropicModelServer;
import dev.clique.models.ScriptedModelServer.Step;
import java.nio.file.Files;
import java.nio.file.Path;
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
        DiscoveredSession found =
            DiscoveredSession.await(
                engine, own, "opencode", project, RealOpencodeIT::started, "opencode-ai");

        model.then(new Step.Text(ANSWER));
        JsonNode transcript = found.ask(env, PROMPT, ANSWER);
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
        found.report(transcript, recorded, "its own export");
      }
    } finally {
      ThrowawayEngine.deleteTree(home);
      ThrowawayEngine.deleteTree(project);
    }
  }
}
