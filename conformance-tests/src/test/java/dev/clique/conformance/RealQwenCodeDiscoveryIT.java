package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.models.ChatCompletionsModelServer;
import dev.clique.models.ScriptedModelServer.Step;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real Qwen Code, started by a person in their own tmux (on a socket of a throwaway {@code
 * TMUX_TMPDIR}, no clique involved, no {@code --session-id}), then found by {@code clique serve}:
 * recognised by its package, listed with its version and its state read from its screen (no hooks
 * of clique's run in it), its conversation read from the chat its own process names in {@code
 * ~/.qwen/sessions/<pid>.json}, turn for turn as Qwen Code recorded it. Its home and model server
 * are the suite's own (see {@link RealQwenCodeIT}).
 */
@ExtendWith(LeavesRealThingsUntouched.class)
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class RealQwenCodeDiscoveryIT {
  private static final String PROMPT = "Where is the login test?";
  private static final String ANSWER = "The login test lives in LoginTest.java.";

  @Test
  void aQwenCodeStartedOutsideCliqueIsFoundWithItsVersionStateAndConversation() throws Exception {
    Path home = Files.createTempDirectory("clique-it-qwen-home-");
    Path project = Files.createTempDirectory("clique-it-qwen-project-").toRealPath();
    try (ChatCompletionsModelServer model = new ChatCompletionsModelServer()) {
      Map<String, String> env =
          RealQwenCodeIT.personsHome(home, RealQwenCodeIT.settings(false, true), model);
      // As a person starts it: their own server, their own session, `qwen` found on PATH.
      try (PersonsTmux own = PersonsTmux.startedBy(project, env, "qwen");
          ThrowawayEngine engine = ThrowawayEngine.prepare().withEnv(own.discoverClis()).start()) {
        DiscoveredSession found =
            DiscoveredSession.await(
                engine, own, "qwen", project, RealQwenCodeIT::started, "@qwen-code/qwen-code");

        model.then(new Step.Text(ANSWER));
        JsonNode transcript = found.ask(env, PROMPT, ANSWER);
        assertThat(transcript.path("transcript_source").path("exact").asBoolean())
            .as(transcript.path("transcript_source").toString())
            .isTrue();
        Path chat = RecordedConversation.onlyFile(home.resolve(".qwen/projects"), ".jsonl");
        JsonNode recorded = QwenOwnRecord.turns(chat);
        assertThat(recorded)
            .as("Qwen Code's own chat")
            .isEqualTo(RecordedConversation.expectedTurns(new String[][] {{PROMPT, ANSWER}}));
        assertThat(transcript.path("turns"))
            .as("the conversation the engine read, against %s", chat)
            .isEqualTo(recorded);
        found.report(transcript, recorded, "its own chat");
      }
    } finally {
      ThrowawayEngine.deleteTree(home);
      ThrowawayEngine.deleteTree(project);
    }
  }
}
