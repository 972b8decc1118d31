package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.conformance.ScreenWatch.Look;
import dev.clique.engine.tmux.TmuxException;
import dev.clique.models.OpenAiModelServer;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.assertj.core.api.SoftAssertions;

/**
 * One real CLI of OpenAI's API (Codex, Copilot CLI) under a throwaway engine, with its own model
 * server, outside-traffic trap and project: what a suite does with its session, the same for both.
 * A suite's own rig starts the CLI its way and says how its prompt reaches the model.
 */
abstract class OpenAiCliRig implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final Duration POLL = Duration.ofMillis(100);

  /** "Visible within about a second of the screen", plus one poll. */
  static final Duration VISIBLE = Duration.ofMillis(1_100);

  /** How long a state is looked for after its screen unless the scenario says. */
  static final Duration PATIENCE = Duration.ofSeconds(6);

  final String cli;
  final String name;
  final OpenAiModelServer model;
  final OutsideTrafficTrap trap;
  final ThrowawayEngine engine;
  final Path project;
  final String admin;
  private final long started = System.nanoTime();
  String id;
  ScreenWatch watch;

  /** Per observed screen: who decided its state ({@code state_source}: authority, evidence). */
  final Map<String, String> sources = new LinkedHashMap<>();

  OpenAiCliRig(
      String cli,
      String name,
      OpenAiModelServer model,
      OutsideTrafficTrap trap,
      ThrowawayEngine engine,
      Path project,
      String admin) {
    this.cli = cli;
    this.name = name;
    this.model = model;
    this.trap = trap;
    this.engine = engine;
    this.project = project;
    this.admin = admin;
  }

  /** Whether {@code userText}, the last user text of a request, is {@code prompt} as typed. */
  abstract boolean carries(String userText, String prompt);

  /** Creates the session, watched with {@code soft}'s assertions. */
  void create(SoftAssertions soft, String mode) throws IOException, InterruptedException {
    Map<String, String> body = new LinkedHashMap<>();
    body.put("cli", cli);
    body.put("cwd", project.toString());
    body.put("name", cli + "-" + name);
    if (mode != null) {
      body.put("mode", mode);
    }
    watch =
        ScreenWatch.ofNewSession(cli + "-real", engine, admin, body, model, soft).withSoon(VISIBLE);
    id = watch.id();
  }

  JsonNode state(String path) throws IOException, InterruptedException {
    HttpResponse<String> response = engine.get(path, admin);
    assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }

  /** This session's row of {@code GET /api/state}. */
  JsonNode session() throws IOException, InterruptedException {
    for (JsonNode row : state("/api/state").path("sessions")) {
      if (id.equals(row.path("id").asText())) {
        return row;
      }
    }
    throw new AssertionError("no session " + id + " in /api/state");
  }

  String state() throws IOException, InterruptedException {
    return session().path("state").asText();
  }

  /** The pane as a person sees it now; "" once it is gone. */
  String screen() throws IOException, InterruptedException {
    return watch.look().screen();
  }

  /** The session's processes now. */
  List<ProcessHandle> processes() throws TmuxException {
    return watch.processes();
  }

  boolean tmuxSessionExists() {
    try {
      return Tmux.sessions(engine.socket).contains(id);
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  void send(Map<String, Object> body) throws IOException, InterruptedException {
    watch.send(body);
  }

  /**
   * Types {@code prompt} and Enter in one {@code POST /send {"text", "enter": true}}, and checks
   * that it reached the model as a turn, as a person typing it would expect.
   */
  void prompt(SoftAssertions soft, String prompt) throws IOException, InterruptedException {
    send(Map.of("text", prompt, "enter", true));
    BooleanSupplier reached =
        () ->
            model.mainTurns().stream()
                .anyMatch(r -> carries(OpenAiModelServer.lastUserText(r), prompt));
    // A first CLI of the run, on a loaded machine, was seen working on a submitted prompt for
    // over a second before its request reached the model: the wait is for the request.
    boolean submitted = waitUntil(reached, Duration.ofSeconds(10));
    soft.assertThat(submitted)
        .as("POST /send {\"text\": \"%s\", \"enter\": true} submitted the prompt", prompt)
        .isTrue();
    if (!submitted) {
      // TEST-ONLY WORKAROUND, not what a client should need: the prompt that did not reach the
      // model is reported as a failure above (Codex 0.169.0 takes an Enter that it handles within
      // 120 ms of the typed text as part of a paste, a newline in the composer, though the engine
      // presses Enter only once the pane shows the text, and 200 ms later). A second Enter on its
      // own submits, so the later screens can still be seen.
      System.err.printf("[%s] workaround: a second Enter to submit %s%n", name, prompt);
      System.err.printf(
          "[%s] the model got %s; the pane shows:%n%s%n",
          name, model.received().stream().map(OpenAiModelServer::lastUserText).toList(), screen());
      send(Map.of("key", "Enter"));
      assertThat(waitUntil(reached, Duration.ofSeconds(5)))
          .as("the prompt reached the model after the workaround Enter")
          .isTrue();
    }
  }

  /**
   * Waits up to {@code appear} for the screen, then up to {@code patience} (default: {@link
   * #PATIENCE}) for {@code expected}, which must come within {@link #VISIBLE}; one table row.
   */
  Look observe(
      String screen, Predicate<String> shown, String expected, Duration appear, Duration patience)
      throws Exception {
    Look look =
        watch.expectState(
            screen,
            watch.awaitScreen(screen, shown, appear),
            expected,
            patience == null ? PATIENCE : patience);
    if (expected.equals(look.state())) {
      sources.put(screen, look.source());
    }
    return look;
  }

  /** Checks that the state stays {@code expected} for {@code duration}; one table row. */
  void holds(String screen, String expected, Duration duration) throws Exception {
    watch.holds(screen + " (still, " + duration.toSeconds() + " s)", expected, duration);
  }

  long since() {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
  }

  /** What outlives the engine and must be stopped before the model server goes; none here. */
  void stopStrays() {}

  @Override
  public void close() throws IOException {
    List<String> outside = trap.attempts();
    if (!outside.isEmpty()) {
      System.err.printf("[%s] refused outside traffic (via the proxy): %s%n", name, outside);
    }
    if (watch != null) {
      watch.close();
    }
    try {
      engine.close();
    } finally {
      stopStrays();
      model.close();
      trap.close();
    }
  }

  static boolean waitUntil(BooleanSupplier condition, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.sleep(POLL.toMillis());
    }
    return condition.getAsBoolean();
  }
}
