package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.models.OpenAiModelServer;
import dev.clique.models.ScriptedModelServer.Step;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
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
    Path tmpdir = Files.createTempDirectory("clique-it-tmux-");
    Path socketDir =
        tmpdir.resolve("tmux-" + Files.getAttribute(Path.of("/proc/self/"), "unix:uid"));
    Files.createDirectories(socketDir);
    Files.setPosixFilePermissions(socketDir, PosixFilePermissions.fromString("rwx------"));
    Path socket = socketDir.resolve("work");
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
      person(
          socket,
          env,
          "new-session",
          "-d",
          "-s",
          "work",
          "-x",
          "200",
          "-y",
          "50",
          "-c",
          project.toString(),
          "copilot");
      try (ThrowawayEngine engine =
          ThrowawayEngine.prepare()
              .withEnv(Map.of("CLIQUE_DISCOVER", "on", "TMUX_TMPDIR", tmpdir.toString()))
              .start()) {
        String admin = engine.mintToken("discovery-admin", false);
        JsonNode found =
            await(
                engine,
                admin,
                s -> s.path("source").path("socket").asText().equals(socket.toString()),
                START);
        String id = found.path("id").asText();
        assertThat(found.path("cli").asText()).isEqualTo("copilot");
        assertThat(found.path("adopted").asBoolean(true)).isFalse();
        assertThat(found.path("cwd").asText()).isEqualTo(project.toString());

        JsonNode trust =
            await(
                engine,
                admin,
                s ->
                    s.path("id").asText().equals(id)
                        && screenShows(socket, "Do you trust the files in this folder?")
                        && s.path("state").asText().equals("waiting"),
                START);
        assertThat(trust.path("attention").path("kind").asText()).isEqualTo("trust");
        person(socket, env, "send-keys", "-t", "=work:", "Enter");
        await(
            engine,
            admin,
            s ->
                s.path("id").asText().equals(id)
                    && readyPrompt(socket)
                    && s.path("state").asText().equals("idle"),
            START);

        // The person types into their own terminal; the model answers.
        model.then(new Step.Text("The login test lives in LoginTest.java."));
        type(socket, env, "Where is the login test?");
        await(
            engine,
            admin,
            s ->
                s.path("id").asText().equals(id)
                    && s.path("state").asText().equals("idle")
                    && screenShows(socket, "LoginTest.java"),
            TURN);

        JsonNode transcript = transcript(engine, admin, id, "LoginTest.java", TURN);
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
      killServers(socketDir); // Copilot ends before its folders are removed
      ThrowawayEngine.deleteTree(tmpdir);
      quietlyDelete(home);
      quietlyDelete(project);
    }
  }

  private static JsonNode await(
      ThrowawayEngine engine, String token, Predicate<JsonNode> wanted, Duration within)
      throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      last = engine.get("/api/state", token).body();
      for (JsonNode session : ThrowawayEngine.json(last).path("sessions")) {
        if (wanted.test(session)) {
          return session;
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no session as wanted within " + within + ": " + last);
  }

  private static JsonNode transcript(
      ThrowawayEngine engine, String token, String id, String text, Duration within)
      throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    JsonNode answer = null;
    while (System.nanoTime() < deadline) {
      answer =
          ThrowawayEngine.json(engine.get("/api/sessions/" + id + "/transcript", token).body());
      if (answer.path("turns").toString().contains(text)) {
        return answer;
      }
      Thread.sleep(200);
    }
    return answer;
  }

  /** Types a line into the pane and submits it, as a person at the terminal does. */
  private static void type(Path socket, Map<String, String> env, String text) throws Exception {
    person(socket, env, "send-keys", "-t", "=work:", "-l", text);
    Thread.sleep(300);
    person(socket, env, "send-keys", "-t", "=work:", "Enter");
  }

  /** Its input box with the footer of a Copilot that waits for a prompt. */
  private static boolean readyPrompt(Path socket) {
    String screen = screen(socket);
    return screen.contains("/ commands · ? help")
        && !screen.contains("Do you trust the files in this folder?");
  }

  private static boolean screenShows(Path socket, String text) {
    return screen(socket).contains(text);
  }

  /** The pane of session {@code work}, its wrapped lines joined; empty while there is none. */
  private static String screen(Path socket) {
    try {
      return person(socket, Map.of(), "capture-pane", "-p", "-J", "-t", "=work:");
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  /** {@code tmux -S socket ARGS}, as a person's terminal runs it, with {@code env} on top. */
  private static String person(Path socket, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(List.of("tmux", "-S", socket.toString(), "-f", "/dev/null"));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(k -> k.startsWith("CLIQUE_") || k.startsWith("TMUX"));
    builder.environment().putAll(env);
    Process process = builder.start();
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      throw new IOException("tmux " + String.join(" ", args) + " failed: " + err);
    }
    return out;
  }

  /** Stops every server on a socket of the throwaway directory, and nothing else. */
  private static void killServers(Path socketDir) throws IOException, InterruptedException {
    if (!Files.isDirectory(socketDir)) {
      return;
    }
    try (DirectoryStream<Path> sockets = Files.newDirectoryStream(socketDir)) {
      for (Path socket : sockets) {
        new ProcessBuilder("tmux", "-S", socket.toString(), "kill-server")
            .redirectErrorStream(true)
            .start()
            .waitFor(10, TimeUnit.SECONDS);
      }
    }
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
