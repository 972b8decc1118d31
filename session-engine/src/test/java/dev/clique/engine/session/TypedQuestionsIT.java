package dev.clique.engine.session;

import static dev.clique.engine.testing.EngineSandbox.await;
import static dev.clique.engine.testing.EngineSandbox.pane;
import static dev.clique.engine.testing.EngineSandbox.view;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.engine.testing.ApiClient;
import dev.clique.engine.testing.EngineSandbox;
import dev.clique.engine.testing.TestEngine;
import dev.clique.engine.testing.UserTmux;
import dev.clique.engine.token.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Questions a person types at the keyboard, on real tmux: every key goes through {@code tmux
 * send-keys} as a terminal sends it, and the engine is never told that anything was typed. A
 * question is {@code waiting} however its command came to run; the shell's own prompt, whatever it
 * looks like, is never one.
 */
class TypedQuestionsIT {
  private static final Duration PATIENCE = Duration.ofSeconds(15);

  @TempDir Path dir;

  @Test
  void aReadTypedIntoAnEngineSessionWaitsAndIsIdleOnceAnswered() throws Exception {
    try (EngineSandbox sandbox = new EngineSandbox(dir)) {
      SessionService service = sandbox.service();
      String id = idleShell(sandbox, service);

      long typed = System.nanoTime();
      type(sandbox, id, "read -p \"Proceed? (y/n) \" a");
      await(service, id, PATIENCE, "waiting");
      System.err.println(
          "read's question waiting after "
              + Duration.ofNanos(System.nanoTime() - typed).toMillis()
              + " ms: "
              + view(service, id).stateSource().evidence());
      asks(view(service, id), "Proceed? (y/n)", "yes-no");

      type(sandbox, id, "y");
      await(service, id, PATIENCE, "idle");
      assertThat(view(service, id).stateSource().evidence()).doesNotContain("Proceed");
    }
  }

  @Test
  void aPythonInputTypedAfterAReadWaitsWithinTheTimeAReadDoes() throws Exception {
    try (EngineSandbox sandbox = new EngineSandbox(dir)) {
      SessionService service = sandbox.service();
      String id = idleShell(sandbox, service);
      Thread.sleep(1_500); // a person reads the prompt before typing
      Duration read = asked(sandbox, service, id, "read -p \"Proceed? (y/n) \" a");
      type(sandbox, id, "n");
      await(service, id, PATIENCE, "idle");

      Duration python = asked(sandbox, service, id, "python3 -c 'input(\"Proceed? (y/n) \")'");
      assertThat(view(service, id).command()).isEqualTo("python3");
      // Quiet for two seconds (what tells a question from work) and a look, as for the read.
      assertThat(python).as(pane(service, id)).isLessThan(Duration.ofSeconds(5));
      assertThat(read).isLessThan(Duration.ofSeconds(5));

      type(sandbox, id, "y");
      await(service, id, PATIENCE, "idle");
    }
  }

  @Test
  void promptsThatLookLikeQuestionsStayIdleBeforeAndAfterACommand() throws Exception {
    try (EngineSandbox sandbox = new EngineSandbox(dir)) {
      SessionService service = sandbox.service();
      String id = idleShell(sandbox, service);
      for (String ps1 :
          List.of("ready? ", "Proceed? (y/n) ", "Do you want to go on? [Y/n] ", "$ ")) {
        // Set by a builtin: the shell never gives the terminal away, its prompt changes in place.
        type(sandbox, id, "PS1='" + ps1 + "'");
        staysIdle(service, id, ps1);
        // A command that holds the terminal and gives it back to the prompt.
        type(sandbox, id, "sleep 0.3");
        staysIdle(service, id, ps1);
        // A builtin that prints, then the prompt again.
        type(sandbox, id, "echo done");
        staysIdle(service, id, ps1);
      }
    }
  }

  @Test
  void aReadTypedIntoAShellOfAPersonsOwnTmuxWaits() throws Exception {
    try (UserTmux user = new UserTmux(dir.resolve("t"));
        TestEngine engine = watching(user)) {
      user.run("work", "new-session", "-d", "-s", "mine", "bash", "--norc", "--noprofile");
      ApiClient api =
          new ApiClient(engine.url(), engine.mint(EnumSet.of(Scope.READ, Scope.WRITE), ""));
      String id = discovered(api, "mine");
      waitFor(api, id, "idle");

      user.run("work", "send-keys", "-t", "=mine:", "-l", "read -p \"Proceed? (y/n) \" a");
      user.run("work", "send-keys", "-t", "=mine:", "Enter");
      JsonNode session = waitFor(api, id, "waiting");
      System.err.println("discovered shell: " + session.path("state_source"));
      assertThat(session.at("/attention/kind").asText()).isEqualTo("question");
      assertThat(session.at("/attention/detail").asText()).isEqualTo("Proceed? (y/n)");
      assertThat(session.at("/state_source/evidence").asText())
          .isEqualTo("generic question yes-no: Proceed? (y/n)");

      user.run("work", "send-keys", "-t", "=mine:", "-l", "y");
      user.run("work", "send-keys", "-t", "=mine:", "Enter");
      waitFor(api, id, "idle");
    }
  }

  @Test
  void aQuestionInAPersonsTmuxOutlastsItsServerBeingTooSlowToAnswer() throws Exception {
    try (UserTmux user = new UserTmux(dir.resolve("t"));
        TestEngine engine = watching(user)) {
      user.run("slow", "new-session", "-d", "-s", "mine", "bash", "--norc", "--noprofile");
      ApiClient api =
          new ApiClient(engine.url(), engine.mint(EnumSet.of(Scope.READ, Scope.WRITE), ""));
      String id = discovered(api, "mine");
      waitFor(api, id, "idle");
      user.run("slow", "send-keys", "-t", "=mine:", "-l", "read -p \"Proceed? (y/n) \" a");
      user.run("slow", "send-keys", "-t", "=mine:", "Enter");
      waitFor(api, id, "waiting");

      // The server stopped for longer than a listing waits for it: slow, not gone.
      long server = Long.parseLong(user.run("slow", "display-message", "-p", "#{pid}").strip());
      List<String> seen = new ArrayList<>();
      new ProcessBuilder("kill", "-STOP", Long.toString(server)).start().waitFor();
      try {
        long until = System.nanoTime() + Duration.ofSeconds(6).toNanos();
        while (System.nanoTime() < until) {
          for (JsonNode session : api.get("/api/state").body().path("sessions")) {
            if (session.path("id").asText().equals(id)) {
              seen.add(session.path("state").asText());
            }
          }
          Thread.sleep(200);
        }
      } finally {
        new ProcessBuilder("kill", "-CONT", Long.toString(server)).start().waitFor();
      }
      assertThat(seen).isNotEmpty().doesNotContain("stopped");
      JsonNode session = waitFor(api, id, "waiting");
      assertThat(session.at("/attention/detail").asText())
          .as("after the server answered again: %s", session)
          .isEqualTo("Proceed? (y/n)");
    }
  }

  /** An engine that watches the person's tmux of {@code user}, shells and all. */
  private TestEngine watching(UserTmux user) throws Exception {
    return TestEngine.startWith(
        Files.createDirectories(dir.resolve("home")),
        Map.of(
            "CLIQUE_DISCOVER", "on",
            "CLIQUE_DISCOVER_SHELLS", "on",
            "TMUX_TMPDIR", user.tmpdir().toString()));
  }

  /** Types {@code command}, which asks "Proceed? (y/n) ": how long it took to read waiting. */
  private static Duration asked(
      EngineSandbox sandbox, SessionService service, String id, String command) throws Exception {
    long typed = System.nanoTime();
    type(sandbox, id, command);
    await(service, id, PATIENCE, "waiting");
    Duration took = Duration.ofNanos(System.nanoTime() - typed);
    SessionView view = view(service, id);
    System.err.printf(
        "%s: waiting after %d ms, %s%n", command, took.toMillis(), view.stateSource().evidence());
    asks(view, "Proceed? (y/n)", "yes-no");
    return took;
  }

  /** A new shell session, once idle at its prompt. */
  private static String idleShell(EngineSandbox sandbox, SessionService service) throws Exception {
    String id = sandbox.create(service, "shell").id();
    await(service, id, PATIENCE, "idle");
    return id;
  }

  /** Types {@code text} and Enter into the session's pane as a person at its terminal does. */
  private static void type(EngineSandbox sandbox, String id, String text) throws Exception {
    sandbox.tmux().outside("send-keys", "-t", "=" + id + ":", "-l", text);
    sandbox.tmux().outside("send-keys", "-t", "=" + id + ":", "Enter");
  }

  private static void asks(SessionView view, String detail, String pattern) {
    assertThat(view.attention().kind()).as(view.toString()).isEqualTo("question");
    assertThat(view.attention().detail()).isEqualTo(detail);
    assertThat(view.stateSource().authority()).isEqualTo("pane");
    assertThat(view.stateSource().evidence())
        .isEqualTo("generic question " + pattern + ": " + detail);
  }

  /**
   * Looked at every 100 ms for four seconds from the keys typed: the echo is output (work), then
   * the prompt is idle; never waiting.
   */
  private static void staysIdle(SessionService service, String id, String ps1) throws Exception {
    List<String> seen = new ArrayList<>();
    long end = System.nanoTime() + Duration.ofSeconds(4).toNanos();
    while (System.nanoTime() < end) {
      seen.add(view(service, id).state());
      Thread.sleep(100);
    }
    assertThat(seen)
        .as("PS1 '%s', every 100 ms; pane:%n%s", ps1, pane(service, id))
        .doesNotContain("waiting")
        .endsWith("idle", "idle", "idle", "idle", "idle");
  }

  private static String discovered(ApiClient api, String tmuxSession) throws Exception {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    JsonNode state = null;
    while (System.nanoTime() < deadline) {
      state = api.get("/api/state").body();
      for (JsonNode session : state.path("sessions")) {
        if (session.path("source").path("session").asText().equals(tmuxSession)) {
          return session.path("id").asText();
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the shell was not discovered: " + state);
  }

  /** Waits (the engine's own wait) for {@code state}, and answers the session as listed then. */
  private static JsonNode waitFor(ApiClient api, String id, String state) throws Exception {
    JsonNode waited =
        api.get("/api/sessions/" + id + "/wait?for=" + state + "&timeout=" + PATIENCE.toSeconds())
            .body();
    assertThat(waited.path("matched").asBoolean())
        .as("%s never %s: %s; its screen:%n%s", id, state, waited, screen(api, id))
        .isTrue();
    for (JsonNode session : api.get("/api/state").body().path("sessions")) {
      if (session.path("id").asText().equals(id)) {
        return session;
      }
    }
    throw new AssertionError("no session " + id);
  }

  private static String screen(ApiClient api, String id) throws Exception {
    return api.get("/api/sessions/" + id + "/peek?lines=20").body().path("lines").toString();
  }
}
