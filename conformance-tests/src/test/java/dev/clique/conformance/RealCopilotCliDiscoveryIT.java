package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.models.OpenAiModelServer;
import dev.clique.models.ScriptedModelServer.Step;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real GitHub Copilot CLI, started by a person in their own tmux (on a socket of a throwaway
 * {@code TMUX_TMPDIR}, no clique involved, no {@code --session-id}), then found by {@code clique
 * serve}: recognised by its package, listed with its state read from its screen (no hooks of
 * clique's run in it), its conversation read from the record its own process marks in use,
 * read-only until adopted. Its home and model server are the suite's own (see {@link
 * RealCopilotCliIT}).
 */
@ExtendWith(LeavesRealThingsUntouched.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RealCopilotCliDiscoveryIT {
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration TURN = Duration.ofSeconds(30);

  @Test
  void aCopilotStartedOutsideCliqueIsFoundWithItsStateAndConversation() throws Exception {
    Path home = Files.createTempDirectory("clique-it-copilot-home-");
    Path project = Files.createTempDirectory("clique-it-copilot-project-").toRealPath();
    try (OpenAiModelServer model = new OpenAiModelServer()) {
      Map<String, String> env = new LinkedHashMap<>();
      env.put("PATH", AgentClis.path());
      env.put("HOME", home.toString());
      env.put("COPILOT_HOME", home.resolve(".copilot").toString());
      env.put(
          "XDG_CACHE_HOME",
          Files.createDirectories(Path.of("target", "copilot-cache")).toAbsolutePath().toString());
      env.put("COPILOT_PROVIDER_BASE_URL", model.baseUrl());
      env.put("COPILOT_PROVIDER_TYPE", "openai");
      env.put("COPILOT_PROVIDER_WIRE_API", "responses");
      env.put("COPILOT_PROVIDER_API_KEY", "sk-scripted-not-a-key");
      env.put("COPILOT_MODEL", "gpt-test");
      env.put("COPILOT_OFFLINE", "true");
      env.put("COPILOT_AUTO_UPDATE", "false");
      // As a person starts it: their own server, their own session, `copilot` found on PATH.
      try (PersonsTmux own = PersonsTmux.startedBy(project, env, "copilot");
          ThrowawayEngine engine = ThrowawayEngine.prepare().withEnv(own.discoverClis()).start()) {
        Path socket = own.socket;
        String admin = engine.mintToken("discovery-admin", false);
        JsonNode found =
            engine.awaitSession(
                admin,
                s -> s.path("source").path("socket").asText().equals(socket.toString()),
                START);
        String id = found.path("id").asText();
        assertThat(found.path("cli").asText()).isEqualTo("copilot");
        assertThat(found.path("adopted").asBoolean(true)).isFalse();
        assertThat(found.path("cwd").asText()).isEqualTo(project.toString());

        JsonNode trust =
            engine.awaitSession(
                admin,
                s ->
                    s.path("id").asText().equals(id)
                        && screenShows(own, "Do you trust the files in this folder?")
                        && s.path("state").asText().equals("waiting"),
                START);
        assertThat(trust.path("attention").path("kind").asText()).isEqualTo("trust");
        own.pressEnter(env);
        engine.awaitSession(
            admin,
            s ->
                s.path("id").asText().equals(id)
                    && readyPrompt(own)
                    && s.path("state").asText().equals("idle"),
            START);

        // The person types into their own terminal; the model answers.
        model.then(new Step.Text("The login test lives in LoginTest.java."));
        own.type(env, "Where is the login test?");
        engine.awaitSession(
            admin,
            s ->
                s.path("id").asText().equals(id)
                    && s.path("state").asText().equals("idle")
                    && screenShows(own, "LoginTest.java"),
            TURN);

        JsonNode transcript = engine.awaitTranscript(admin, id, "LoginTest.java", TURN);
        assertThat(transcript.path("turns").toString())
            .contains("Where is the login test?")
            .contains("The login test lives in LoginTest.java.");
        System.err.printf(
            "copilot-discovery | transcript_source: %s%n", transcript.path("transcript_source"));
        assertThat(transcript.path("transcript_source").path("exact").asBoolean())
            .as(transcript.path("transcript_source").toString())
            .isTrue();
        assertThat(transcript.path("transcript_source").path("evidence").asText())
            .contains("inuse.");

        assertThat(
                engine
                    .post("/api/sessions/" + id + "/send", admin, "{\"text\":\"hi\"}")
                    .statusCode())
            .as("a discovered session is read-only until adopted")
            .isEqualTo(403);
      }
    } finally {
      // Copilot ended with its tmux server, before its folders are removed.
      quietlyDelete(home);
      quietlyDelete(project);
    }
  }

  /** Its input box with the footer of a Copilot that waits for a prompt. */
  private static boolean readyPrompt(PersonsTmux own) {
    String screen = own.screen();
    return screen.contains("/ commands · ? help")
        && !screen.contains("Do you trust the files in this folder?");
  }

  private static boolean screenShows(PersonsTmux own, String text) {
    return own.screen().contains(text);
  }

  private static void quietlyDelete(Path root) throws InterruptedException {
    for (int attempt = 0; attempt < 20 && Files.exists(root); attempt++) {
      try {
        ThrowawayEngine.deleteTree(root);
      } catch (IOException | RuntimeException e) {
        Thread.sleep(250); // Copilot may still be writing for a moment
      }
    }
  }
}
