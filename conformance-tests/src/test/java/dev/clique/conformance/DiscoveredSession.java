package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A real CLI a person started in their own tmux, as the engine discovered it: what every discovery
 * suite checks of it (found with its CLI, folder and version, idle at its ready prompt, idle again
 * once a typed prompt was answered, its conversation read, read-only until adopted). Each suite
 * keeps only how its CLI is set up, what its ready prompt looks like and its own record.
 */
final class DiscoveredSession {
  static final Duration START = Duration.ofSeconds(60);
  static final Duration TURN = Duration.ofSeconds(30);

  final ThrowawayEngine engine;
  final String admin;
  final PersonsTmux own;
  final String id;
  final String cli;
  private final Predicate<String> ready;

  private DiscoveredSession(
      ThrowawayEngine engine,
      String admin,
      PersonsTmux own,
      String id,
      String cli,
      Predicate<String> ready) {
    this.engine = engine;
    this.admin = admin;
    this.own = own;
    this.id = id;
    this.cli = cli;
    this.ready = ready;
  }

  /**
   * Waits until the engine lists the session running in {@code own}, checks what it says of it
   * ({@code cli}, not adopted, {@code project} as its folder), then that it is idle once its screen
   * is {@code ready} and runs {@code pkg} at its pinned version.
   */
  static DiscoveredSession await(
      ThrowawayEngine engine,
      PersonsTmux own,
      String cli,
      Path project,
      Predicate<String> ready,
      String pkg)
      throws Exception {
    String admin = engine.mintToken("discovery-admin", false);
    JsonNode found =
        engine.awaitSession(
            admin,
            s -> s.path("source").path("socket").asText().equals(own.socket.toString()),
            START);
    String id = found.path("id").asText();
    assertThat(found.path("cli").asText()).isEqualTo(cli);
    assertThat(found.path("adopted").asBoolean(true)).isFalse();
    assertThat(found.path("cwd").asText()).isEqualTo(project.toString());
    DiscoveredSession session = new DiscoveredSession(engine, admin, own, id, cli, ready);
    session.awaitIdle(s -> true, START);
    assertThat(session.cliVersion(Duration.ofSeconds(5)))
        .as("cli_version of the discovered session")
        .isEqualTo(AgentClis.pinned(pkg));
    return session;
  }

  /**
   * The person types {@code prompt} into their own terminal; returns the conversation the engine
   * reads once the session is idle with {@code answer} on its screen.
   */
  JsonNode ask(Map<String, String> env, String prompt, String answer) throws Exception {
    own.type(env, prompt);
    awaitIdle(screen -> screen.contains(answer), TURN);
    JsonNode transcript = engine.awaitTranscript(admin, id, answer, TURN);
    System.err.printf(
        "%s-discovery | transcript_source: %s%n", cli, transcript.path("transcript_source"));
    return transcript;
  }

  /** Prints what was found beside the CLI's own record, and checks a send is refused. */
  void report(JsonNode transcript, JsonNode recorded, String where) throws Exception {
    System.err.printf(
        "%s-discovery | cli %s, cli_version %s, turns %d read, %d in %s%n",
        cli,
        cli,
        cliVersion(Duration.ofSeconds(1)),
        transcript.path("turns").size(),
        recorded.size(),
        where);
    assertThat(
            engine.post("/api/sessions/" + id + "/send", admin, "{\"text\":\"hi\"}").statusCode())
        .as("a discovered session is read-only until adopted")
        .isEqualTo(403);
  }

  String cliVersion(Duration within) throws Exception {
    return engine.awaitCliVersion(admin, id, within);
  }

  private void awaitIdle(Predicate<String> shown, Duration within) throws Exception {
    engine.awaitSession(
        admin,
        s ->
            s.path("id").asText().equals(id)
                && s.path("state").asText().equals("idle")
                && shown.test(own.screen())
                && ready.test(own.screen()),
        within);
  }
}
