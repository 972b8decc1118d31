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
        DiscoveredSession found =
            DiscoveredSession.await(
                engine, own, "pi", project, RealPiIT::started, "@earendil-works/pi-coding-agent");

        model.then(new Step.Text(ANSWER));
        JsonNode transcript = found.ask(env, PROMPT, ANSWER);
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
        found.report(transcript, recorded, "its own view");
      }
    } finally {
      ThrowawayEngine.deleteTree(home);
      ThrowawayEngine.deleteTree(project);
    }
  }
}
