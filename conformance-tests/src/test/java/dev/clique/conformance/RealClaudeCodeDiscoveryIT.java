package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.models.AnthropicModelServer;
import dev.clique.models.ScriptedModelServer.Step;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real Claude Code, started by a person in their own tmux ({@code tmux new -d -s work claude},
 * on a socket of a throwaway {@code TMUX_TMPDIR}, no clique involved), then found by {@code clique
 * serve}: listed with its true state, its conversation read from the transcript its own process
 * names, read-only until adopted. Its config and model server are the suite's own (see {@link
 * RealClaudeCodeIT}); the engine's own environment knows nothing of them, so the transcript is
 * found from the process's environment.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RealClaudeCodeDiscoveryIT {
  private static final Duration START = Duration.ofSeconds(40);
  private static final Duration TURN = Duration.ofSeconds(30);

  @Test
  void aClaudeCodeStartedOutsideCliqueIsFoundWithItsStateAndConversation() throws Exception {
    Path tmpdir = Files.createTempDirectory("clique-it-tmux-");
    Path socketDir =
        tmpdir.resolve("tmux-" + Files.getAttribute(Path.of("/proc/self/"), "unix:uid"));
    Files.createDirectories(socketDir);
    Files.setPosixFilePermissions(socketDir, PosixFilePermissions.fromString("rwx------"));
    Path socket = socketDir.resolve("work");
    Path claudeHome = Files.createTempDirectory("clique-it-claude-home-");
    Path project = Files.createTempDirectory("clique-it-claude-project-").toRealPath();
    try (AnthropicModelServer model = new AnthropicModelServer()) {
      Files.writeString(
          claudeHome.resolve(".claude.json"),
          RealClaudeCodeIT.claudeConfig(RealClaudeCodeIT.Setup.READY, project));
      Map<String, String> claudeEnv = RealClaudeCodeIT.claudeEnv(model, claudeHome);
      // As a person starts it: their own server, their own session, `claude` found on PATH (in
      // the mode that asks before a command, which this version's default "auto" would not).
      person(
          socket,
          claudeEnv,
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
          "claude --permission-mode default");
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
        assertThat(found.path("cli").asText()).isEqualTo("claude");
        assertThat(found.path("adopted").asBoolean(true)).isFalse();
        assertThat(found.path("source").path("session").asText()).isEqualTo("work");
        assertThat(found.path("cwd").asText()).isEqualTo(project.toString());

        JsonNode ready =
            await(
                engine,
                admin,
                s ->
                    s.path("id").asText().equals(id)
                        && readyPrompt(socket)
                        && s.path("state").asText().equals("idle"),
                START);
        assertThat(ready.path("state").asText()).isEqualTo("idle");

        // The person types into their own terminal; the model answers.
        model.then(new Step.Text("The login test lives in LoginTest.java."));
        type(socket, claudeEnv, "Where is the login test?");
        await(
            engine,
            admin,
            s ->
                s.path("id").asText().equals(id)
                    && s.path("state").asText().equals("idle")
                    && screenShows(socket, "LoginTest.java"),
            TURN);

        // A command to approve: the pane asks, and the session waits for the person.
        model.then(
            new Step.ShellCall("echo clique-marker > marker.txt", "Writing a marker"),
            new Step.Text("The marker is written."));
        type(socket, claudeEnv, "Write the marker file");
        JsonNode asking =
            await(
                engine,
                admin,
                s ->
                    s.path("id").asText().equals(id)
                        && s.path("state").asText().equals("waiting")
                        && screenShows(socket, "Do you want to proceed?"),
                TURN);
        assertThat(asking.path("attention").path("kind").asText()).isEqualTo("permission");
        approve(socket, claudeEnv);
        await(
            engine,
            admin,
            s ->
                s.path("id").asText().equals(id)
                    && s.path("state").asText().equals("idle")
                    && screenShows(socket, "The marker is written."),
            TURN);
        assertThat(project.resolve("marker.txt")).exists();

        JsonNode transcript = transcript(engine, admin, id, "The marker is written.", TURN);
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
        assertThat(lines).allMatch(line -> line.contains(tmpdir.toString()), "name " + tmpdir);
      }
    } finally {
      killServers(socketDir);
      ThrowawayEngine.deleteTree(tmpdir);
      quietlyDelete(claudeHome);
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

  /**
   * Presses Enter on the permission question, as a person does once they have read it; again if the
   * question is still up after a few seconds (a key that came while it was still being drawn).
   */
  private static void approve(Path socket, Map<String, String> env) throws Exception {
    for (int attempt = 0; attempt < 3; attempt++) {
      Thread.sleep(1_000);
      person(socket, env, "send-keys", "-t", "=work:", "Enter");
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (System.nanoTime() < deadline) {
        if (!screenShows(socket, "Do you want to proceed?")) {
          return;
        }
        Thread.sleep(100);
      }
    }
  }

  /** Types a line into the pane and submits it, as a person at the terminal does. */
  private static void type(Path socket, Map<String, String> env, String text) throws Exception {
    person(socket, env, "send-keys", "-t", "=work:", "-l", text);
    Thread.sleep(300);
    person(socket, env, "send-keys", "-t", "=work:", "Enter");
  }

  /** Its prompt with its idle footer (the shortcuts hint, or the mode it cycles), not working. */
  private static boolean readyPrompt(Path socket) {
    return (screenShows(socket, "? for shortcuts") || screenShows(socket, "shift+tab to cycle"))
        && !screenShows(socket, "esc to interrupt");
  }

  private static boolean screenShows(Path socket, String text) {
    try {
      return person(socket, Map.of(), "capture-pane", "-p", "-J", "-t", "=work:").contains(text);
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
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
        Thread.sleep(250); // Claude Code may still be writing for a moment
      }
    }
  }
}
