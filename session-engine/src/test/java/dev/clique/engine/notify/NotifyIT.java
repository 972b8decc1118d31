package dev.clique.engine.notify;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.clique.engine.Engine;
import dev.clique.engine.session.NewSession;
import dev.clique.engine.session.SessionService;
import dev.clique.engine.testing.ApiClient;
import dev.clique.engine.testing.EngineSandbox;
import dev.clique.engine.testing.OperatorCall;
import dev.clique.engine.token.Scope;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real engine, real tmux, and a receiver on loopback that records each notice and when. */
class NotifyIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long DWELL_MILLIS = 3_000;

  private record Arrival(long atMillis, JsonNode body) {}

  @TempDir Path dir;
  private EngineSandbox sandbox;
  private HttpServer receiver;
  private final List<Arrival> arrivals = new CopyOnWriteArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    sandbox = new EngineSandbox(dir);
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext(
        "/",
        exchange -> {
          long at = System.currentTimeMillis();
          byte[] body = exchange.getRequestBody().readAllBytes();
          arrivals.add(new Arrival(at, JSON.readTree(new String(body, StandardCharsets.UTF_8))));
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    receiver.start();
  }

  @AfterEach
  void tearDown() {
    sandbox.close();
    receiver.stop(0);
  }

  @Test
  void aShellAskingIsToldOnceWithItsQuestionWithinTheDwellAndASecond() throws Exception {
    Files.writeString(
        sandbox.home().resolve("notify.toml"),
        String.join(
            "\n",
            "[rules]",
            "dwell_seconds = " + DWELL_MILLIS / 1000,
            "",
            "[[webhook]]",
            "url = \"http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook/secret\"",
            "events = [\"waiting\"]",
            ""));
    Engine engine = sandbox.engine();
    SessionService service = engine.sessions();
    String id =
        service.create(new NewSession("shell", sandbox.work().toString(), "asker", null)).id();
    EngineSandbox.await(service, id, Duration.ofSeconds(15), "idle");

    // The moment the state changes: the engine's own wait completes then, on the watcher's thread.
    AtomicLong changedAt = new AtomicLong();
    service
        .await(id, Set.of("waiting"), 30_000)
        .thenRun(() -> changedAt.set(System.currentTimeMillis()));
    service.send(id, "read -p \"Continue? (y/n) \" a", true, null);
    EngineSandbox.await(service, id, Duration.ofSeconds(15), "waiting");
    long changed = changedAt.get();
    assertThat(changed).isPositive();

    long deadline = System.currentTimeMillis() + DWELL_MILLIS + 10_000;
    while (arrivals.isEmpty() && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
    }
    assertThat(arrivals).as("a notice arrives").isNotEmpty();
    Arrival first = arrivals.get(0);
    long delay = first.atMillis() - changed;
    long told = java.time.Instant.parse(first.body().path("at").asText()).toEpochMilli();
    System.out.printf(
        "waiting -> receiver: %d ms after the state changed (dwell %d ms; told by the rules at +%d"
            + " ms)%n",
        delay, DWELL_MILLIS, told - changed);
    assertThat(delay).isBetween(DWELL_MILLIS, DWELL_MILLIS + 1_000);
    assertThat(first.body().path("event").asText()).isEqualTo("waiting");
    assertThat(first.body().path("session").path("id").asText()).isEqualTo(id);
    assertThat(first.body().path("session").path("name").asText()).isEqualTo("asker");
    assertThat(first.body().path("session").path("engine").asText()).isEqualTo(engine.url());
    assertThat(first.body().path("attention").path("detail").asText()).contains("Continue? (y/n)");

    // Still asking two dwells later: the same episode, told once.
    Thread.sleep(2 * DWELL_MILLIS);
    assertThat(EngineSandbox.view(service, id).state()).isEqualTo("waiting");
    assertThat(arrivals).hasSize(1);

    // The operator sees the target, masked, and how its last delivery ended; a token does not.
    String listed =
        OperatorCall.over(sandbox.home().resolve("engine.sock"), "GET", "/api/notify", "");
    assertThat(listed).startsWith("HTTP/1.1 200");
    JsonNode target = JSON.readTree(listed.substring(listed.indexOf("\r\n\r\n") + 4));
    JsonNode row = target.path("targets").get(0);
    assertThat(row.path("target").asText())
        .isEqualTo("webhook 1 (http://127.0.0.1:" + receiver.getAddress().getPort() + "/***)");
    assertThat(listed).doesNotContain("secret");
    assertThat(row.path("events")).hasSize(1);
    assertThat(row.path("last").path("event").asText()).isEqualTo("waiting");
    assertThat(row.path("last").path("delivered").asBoolean()).isTrue();
    assertThat(row.path("last").path("said").asText()).isEqualTo("answered 204");
    String reader = engine.tokens().create("reader", EnumSet.of(Scope.READ), "").secret();
    assertThat(new ApiClient(engine.url(), reader).get("/api/notify").status()).isEqualTo(403);
  }

  @Test
  void aCliThatExitedByItselfIsToldStoppedOneAPersonStoppedIsNot() throws Exception {
    Files.writeString(
        sandbox.home().resolve("notify.toml"),
        String.join(
            "\n",
            "[[webhook]]",
            "url = \"http://127.0.0.1:" + receiver.getAddress().getPort() + "/\"",
            "events = [\"stopped\"]",
            ""));
    SessionService service = sandbox.engine().sessions();
    String exits =
        service.create(new NewSession("shell", sandbox.work().toString(), "exits", null)).id();
    String killed =
        service.create(new NewSession("shell", sandbox.work().toString(), "killed", null)).id();
    EngineSandbox.await(service, exits, Duration.ofSeconds(15), "idle");
    EngineSandbox.await(service, killed, Duration.ofSeconds(15), "idle");

    service.kill(killed);
    service.send(exits, "exec sh -c 'echo bye-$((6*7)); exit 3'", true, null);
    EngineSandbox.await(service, exits, Duration.ofSeconds(15), "stopped");
    EngineSandbox.await(service, killed, Duration.ofSeconds(15), "stopped");

    long deadline = System.currentTimeMillis() + 10_000;
    while (arrivals.isEmpty() && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
    }
    Thread.sleep(3_000); // the burst window, and more: nothing else may come
    assertThat(arrivals).hasSize(1);
    JsonNode told = arrivals.get(0).body();
    assertThat(told.path("event").asText()).isEqualTo("stopped");
    assertThat(told.path("session").path("id").asText()).isEqualTo(exits);
    assertThat(told.path("exit_status").asInt()).isEqualTo(3);
    assertThat(told.has("sessions")).as("one session, not a burst").isFalse();
    assertThat(told.path("last_line").asText()).as("its dead pane's last line").isEqualTo("bye-42");
    assertThat(told.path("message").asText())
        .endsWith("exited with status 3; its last line: bye-42");
  }

  @Test
  void eightShellsFinishingTogetherAreToldInOneMessageNamingAllEight() throws Exception {
    Files.writeString(
        sandbox.home().resolve("notify.toml"),
        String.join(
            "\n",
            "[rules]",
            "finished_after_seconds = 1",
            "",
            "[[webhook]]",
            "url = \"http://127.0.0.1:" + receiver.getAddress().getPort() + "/\"",
            "events = [\"finished\"]",
            ""));
    SessionService service = sandbox.engine().sessions();
    List<String> ids = new java.util.ArrayList<>();
    for (int i = 1; i <= 8; i++) {
      ids.add(
          service
              .create(new NewSession("shell", sandbox.work().toString(), "worker-" + i, null))
              .id());
    }
    for (String id : ids) {
      EngineSandbox.await(service, id, Duration.ofSeconds(30), "idle");
    }
    // A shell's start, under load, may itself be a second of work: what that told is not the test.
    Thread.sleep(2_500);
    System.out.println("told of the shells' start: " + arrivals);
    arrivals.clear();
    // Each works until one file appears: they end within a moment of each other.
    Path go = sandbox.work().resolve("go");
    for (String id : ids) {
      service.send(id, "while [ ! -e " + go + " ]; do sleep 0.05; done", true, null);
    }
    for (String id : ids) {
      EngineSandbox.await(service, id, Duration.ofSeconds(30), "working");
    }
    Thread.sleep(1_500); // each worked longer than finished_after_seconds
    Files.writeString(go, "");
    for (String id : ids) {
      EngineSandbox.await(service, id, Duration.ofSeconds(30), "idle");
    }
    long deadline = System.currentTimeMillis() + 10_000;
    while (arrivals.isEmpty() && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
    }
    Thread.sleep(3_000); // the burst window, and more: nothing else may come
    assertThat(arrivals).as("one message for the burst: %s", arrivals).hasSize(1);
    JsonNode told = arrivals.get(0).body();
    assertThat(told.path("event").asText()).isEqualTo("finished");
    List<String> named = new java.util.ArrayList<>();
    told.path("sessions").forEach(session -> named.add(session.path("id").asText()));
    assertThat(named).containsExactlyInAnyOrderElementsOf(ids);
    System.out.printf(
        "eight finishing together: %d message, naming %d sessions: %s%n",
        arrivals.size(), named.size(), told.path("message").asText());
  }

  @Test
  void aReceiverThatNeverAnswersLeavesTheStatesAndWaitLagUnchanged() throws Exception {
    Engine engine = sandbox.engine();
    SessionService service = engine.sessions();
    String id =
        service.create(new NewSession("shell", sandbox.work().toString(), "timed", null)).id();
    EngineSandbox.await(service, id, Duration.ofSeconds(15), "idle");
    ApiClient api =
        new ApiClient(
            engine.url(),
            engine.tokens().create("waiter", EnumSet.of(Scope.READ, Scope.WRITE), "").secret());

    long without = median(waitLags(api, service, id, 9));

    // Accepted by the kernel, never read, never answered: each notice waits its whole limit.
    try (ServerSocket hung = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Files.writeString(
          sandbox.home().resolve("notify.toml"),
          String.join(
              "\n",
              "[rules]",
              "dwell_seconds = 0",
              "",
              "[[webhook]]",
              "url = \"http://127.0.0.1:" + hung.getLocalPort() + "/\"",
              ""));
      Path socket = sandbox.home().resolve("engine.sock");
      long deadline = System.currentTimeMillis() + 10_000;
      while (!OperatorCall.over(socket, "GET", "/api/notify", "").contains("webhook 1")
          && System.currentTimeMillis() < deadline) {
        Thread.sleep(50);
      }
      assertThat(OperatorCall.over(socket, "GET", "/api/notify", ""))
          .as("the hung target is read")
          .contains("webhook 1");
      long with = median(waitLags(api, service, id, 9));
      System.out.printf(
          "wait lag for idle -> waiting, median of 9: %d ms without a target, %d ms with a"
              + " receiver that never answers%n",
          without, with);
      assertThat(with).isLessThan(2 * without + 250);
    }
  }

  /** How long a held {@code wait} takes to answer after a shell is asked a question, each time. */
  private static List<Long> waitLags(ApiClient api, SessionService service, String id, int times)
      throws Exception {
    List<Long> lags = new java.util.ArrayList<>();
    for (int i = 0; i < times; i++) {
      var answered =
          api.getAsync("/api/sessions/" + id + "/wait?for=waiting&timeout=20")
              .thenApply(answer -> System.nanoTime());
      Thread.sleep(200); // the wait is held
      long asked = System.nanoTime();
      service.send(id, "read -p \"Round " + i + "? (y/n) \" a", true, null);
      long lag = (answered.get(30, java.util.concurrent.TimeUnit.SECONDS) - asked) / 1_000_000;
      assertThat(EngineSandbox.view(service, id).state()).isEqualTo("waiting");
      lags.add(lag);
      service.send(id, "y", true, null);
      EngineSandbox.await(service, id, Duration.ofSeconds(15), "idle");
    }
    return lags;
  }

  private static long median(List<Long> values) {
    List<Long> sorted = new java.util.ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }

  @Test
  void aSessionAPersonIsLookingAtIsNotToldOnceTheyLeftItIs() throws Exception {
    Files.writeString(
        sandbox.home().resolve("notify.toml"),
        String.join(
            "\n",
            "[rules]",
            "dwell_seconds = 1",
            "",
            "[[webhook]]",
            "url = \"http://127.0.0.1:" + receiver.getAddress().getPort() + "/\"",
            "events = [\"waiting\"]",
            ""));
    SessionService service = sandbox.engine().sessions();
    String id =
        service.create(new NewSession("shell", sandbox.work().toString(), "looked-at", null)).id();
    EngineSandbox.await(service, id, Duration.ofSeconds(15), "idle");

    // A person's terminal: a real tmux client attached to the session, in a pty of its own.
    ProcessBuilder attach =
        new ProcessBuilder(
            "script",
            "-qfc",
            "tmux -L " + sandbox.tmux().socket() + " attach -t '=" + id + "'",
            "/dev/null");
    attach.environment().put("TERM", "xterm");
    attach.environment().remove("TMUX");
    attach.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    attach.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process person = attach.start();
    try {
      awaitWatched(service, id, true);
      service.send(id, "read -p \"Continue? (y/n) \" a", true, null);
      EngineSandbox.await(service, id, Duration.ofSeconds(15), "waiting");
      Thread.sleep(1_000 + 3_000); // the dwell, and three seconds more
      assertThat(arrivals).as("nothing about a session a person is looking at").isEmpty();
    } finally {
      person.destroy(); // the terminal closed: its client detaches
      person.waitFor();
    }
    awaitWatched(service, id, false);

    // Answered, then asking again with no one looking: told.
    service.send(id, "y", true, null);
    EngineSandbox.await(service, id, Duration.ofSeconds(15), "idle");
    service.send(id, "read -p \"Again? (y/n) \" a", true, null);
    EngineSandbox.await(service, id, Duration.ofSeconds(15), "waiting");
    long deadline = System.currentTimeMillis() + 10_000;
    while (arrivals.isEmpty() && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
    }
    assertThat(arrivals).hasSize(1);
    assertThat(arrivals.get(0).body().path("attention").path("detail").asText())
        .contains("Again? (y/n)");
  }

  private static void awaitWatched(SessionService service, String id, boolean watched)
      throws InterruptedException {
    long deadline = System.currentTimeMillis() + 15_000;
    while (service.watched(id, Notifier.LOOKING) != watched
        && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
    }
    assertThat(service.watched(id, Notifier.LOOKING)).as("a person looks at it").isEqualTo(watched);
  }
}
