package dev.clique.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.Engine;
import dev.clique.engine.testing.ApiClient;
import dev.clique.engine.testing.ApiClient.Answer;
import dev.clique.engine.testing.EngineSandbox;
import dev.clique.engine.token.Scope;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/state?after=N}, the engine's change feed, through the real HTTP API on real tmux:
 * held until a session's state changes, answered the moment the engine sees it, never for a
 * repaint, and held without a thread.
 */
class ChangeFeedIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;
  private EngineSandbox sandbox;
  private Engine engine;
  private ApiClient api;
  private String token;

  @BeforeEach
  void start() throws Exception {
    sandbox = new EngineSandbox(dir);
    engine = sandbox.engine();
    token = engine.tokens().create("test", Set.of(Scope.READ, Scope.WRITE), "").secret();
    api = new ApiClient(engine.url(), token);
  }

  @AfterEach
  void stop() {
    sandbox.close();
  }

  private String idle(String cli) throws Exception {
    Answer created =
        api.post(
            "/api/sessions", "{\"cli\": \"" + cli + "\", \"cwd\": \"" + sandbox.work() + "\"}");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(201);
    String id = created.body().get("id").asText();
    // The clock is proven idle after 8 + 4 s, and once more if its minute turns in the 4 s.
    Answer idle = api.get("/api/sessions/" + id + "/wait?for=idle&timeout=30");
    assertThat(idle.body().get("matched").asBoolean()).as(idle.body().toString()).isTrue();
    return id;
  }

  private long revision() throws Exception {
    Answer state = api.get("/api/state");
    assertThat(state.status()).isEqualTo(200);
    return state.body().get("revision").asLong();
  }

  private static String stateOf(JsonNode state, String id) {
    for (JsonNode session : state.path("sessions")) {
      if (session.path("id").asText().equals(id)) {
        return session.path("state").asText();
      }
    }
    return "gone";
  }

  @Test
  void aHeldStateAnswersAsSoonAsASessionChangesStateNoLaterThanAPollerSeesIt() throws Exception {
    String id = idle("shell");
    long before = revision();
    CompletableFuture<Answer> held = api.getAsync("/api/state?after=" + before + "&timeout=30");
    Thread.sleep(300);
    assertThat(held).as("nothing changed yet: the request is held").isNotDone();

    assertThat(api.post("/api/sessions/" + id + "/send", "{\"text\": \"sleep 1\"}").status())
        .isEqualTo(200);
    Answer working = held.get(5, TimeUnit.SECONDS);
    assertThat(working.status()).isEqualTo(200);
    long moved = working.body().get("revision").asLong();
    assertThat(moved).isGreaterThan(before);
    assertThat(stateOf(working.body(), id)).isEqualTo("working");

    // The end of the command is seen by the engine in tmux: the held answer and a poller every
    // 10 ms learn of it together.
    CompletableFuture<Answer> toIdle = api.getAsync("/api/state?after=" + moved + "&timeout=30");
    long polledAt = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    long heldAt = 0;
    while (System.nanoTime() < deadline && (polledAt == 0 || heldAt == 0)) {
      if (heldAt == 0 && toIdle.isDone()) {
        heldAt = System.nanoTime();
      }
      if (polledAt == 0 && stateOf(api.get("/api/state").body(), id).equals("idle")) {
        polledAt = System.nanoTime();
      }
      Thread.sleep(10);
    }
    assertThat(polledAt).as("the shell became idle").isPositive();
    assertThat(heldAt).as("the held request answered").isPositive();
    long lagMillis = TimeUnit.NANOSECONDS.toMillis(heldAt - polledAt);
    System.err.printf("held answer %d ms after a 10 ms poller saw the change%n", lagMillis);
    assertThat(lagMillis).as("held answer behind the poller, ms").isLessThan(150);
    Answer answered = toIdle.get();
    assertThat(answered.body().get("revision").asLong()).isGreaterThan(moved);
    assertThat(stateOf(answered.body(), id)).isEqualTo("idle");
  }

  @Test
  void aRepaintIsNoChangeTheHeldStateTimesOutWithTheSameRevision() throws Exception {
    String id = idle("clock"); // redraws four times a second, and is idle
    // Under load a session just come to idle was seen to change once more soon after (a real
    // change; the loop prints it). Repaints alone never move the revision, so of three holds one
    // at least lasts its whole time-out unmoved.
    Answer same = null;
    long tookMillis = 0;
    long before = 0;
    for (int attempt = 0; attempt < 3; attempt++) {
      // Each hold starts from idle: the clock's minute may have turned since (a real change,
      // proven over some seconds, before which the revision was read).
      Answer idle = api.get("/api/sessions/" + id + "/wait?for=idle&timeout=30");
      assertThat(idle.body().get("matched").asBoolean()).as(idle.body().toString()).isTrue();
      before = revision();
      long start = System.nanoTime();
      same = api.get("/api/state?after=" + before + "&timeout=1.5");
      tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertThat(same.status()).isEqualTo(200);
      if (same.body().get("revision").asLong() == before
          && stateOf(same.body(), id).equals("idle")) {
        break;
      }
      System.err.printf(
          "the revision moved after %d ms: %s%n", tookMillis, same.body().get("sessions"));
    }
    assertThat(same.body().get("revision").asLong())
        .as("the revision after repaints alone: %s", same.body().get("sessions"))
        .isEqualTo(before);
    assertThat(tookMillis).as("held for its time-out").isBetween(1_400L, 3_000L);
    assertThat(stateOf(same.body(), id)).isEqualTo("idle");
    assertThat(same.body().has("version")).isTrue();
    assertThat(same.body().get("clis").isArray()).isTrue();
  }

  @Test
  void aSessionThatAppearsOrGoesAwayMovesTheRevision() throws Exception {
    long empty = revision();
    CompletableFuture<Answer> held = api.getAsync("/api/state?after=" + empty + "&timeout=30");
    String id = idle("shell");
    Answer appeared = held.get(5, TimeUnit.SECONDS);
    assertThat(appeared.body().get("revision").asLong()).isGreaterThan(empty);

    long now = revision();
    held = api.getAsync("/api/state?after=" + now + "&timeout=30");
    assertThat(api.delete("/api/sessions/" + id).status()).isEqualTo(200);
    // Its pane may be seen stopped first, then the session gone: one change each.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    Answer answer = held.get(5, TimeUnit.SECONDS);
    while (!stateOf(answer.body(), id).equals("gone")) {
      assertThat(stateOf(answer.body(), id)).isEqualTo("stopped");
      assertThat(System.nanoTime()).as("the session is gone from the feed").isLessThan(deadline);
      long seen = answer.body().get("revision").asLong();
      assertThat(seen).isGreaterThan(now);
      now = seen;
      answer = api.get("/api/state?after=" + now + "&timeout=5");
    }
    assertThat(answer.body().get("revision").asLong()).isGreaterThan(now);
  }

  @Test
  void aRevisionTheEngineNeverGaveAnswersAtOnceAndBadParametersAre400() throws Exception {
    long now = revision();
    assertThat(now)
        .as("it starts at the engine's start in milliseconds, above an earlier engine's")
        .isGreaterThan(1_700_000_000_000L);
    long start = System.nanoTime();
    Answer restarted = api.get("/api/state?after=" + (now + 1_000_000) + "&timeout=30");
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(1_000);
    assertThat(restarted.body().get("revision").asLong()).isEqualTo(now);
    assertThat(api.get("/api/state?after=" + now + "&timeout=0").body().get("revision").asLong())
        .isEqualTo(now);

    for (String bad :
        List.of(
            "after=abc",
            "after=-1",
            "after=1.5",
            "after=",
            "after=" + now + "&timeout=soon",
            "after=" + now + "&timeout=-1")) {
      Answer refused = api.get("/api/state?" + bad);
      assertThat(refused.status()).as(bad).isEqualTo(400);
      assertThat(refused.body().get("error").asText())
          .as(bad)
          .containsAnyOf("after must be", "timeout must be");
    }
    Answer readOnly =
        new ApiClient(engine.url(), engine.tokens().create("r", Set.of(Scope.READ), "").secret())
            .get("/api/state?after=" + now + "&timeout=0");
    assertThat(readOnly.status()).as("read scope is enough").isEqualTo(200);
    Answer noToken = new ApiClient(engine.url(), "nope").get("/api/state?after=" + now);
    assertThat(noToken.status()).isEqualTo(401);
  }

  @Test
  void aClientThatHangsUpFreesItsHeldRequest() throws Exception {
    long now = revision();
    List<Socket> clients = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      clients.add(rawGet("/api/state?after=" + now + "&timeout=300"));
    }
    awaitTrue(() -> engine.sessions().changes().held() == 20, "20 requests are held");
    for (Socket client : clients) {
      client.close();
    }
    awaitTrue(
        () -> engine.sessions().changes().held() == 0,
        "a hung-up client's request is let go within a second",
        1_000);
  }

  @Test
  void manyHeldRequestsHoldNoThreadsAndOneChangeAnswersThemAll() throws Exception {
    long now = revision();
    int many = Math.min(200, WaitQuota.forDescriptors(ApiHandler.maxDescriptors()).perToken());
    int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
    List<Socket> clients = new ArrayList<>();
    try {
      for (int i = 0; i < many; i++) {
        clients.add(rawGet("/api/state?after=" + now + "&timeout=120"));
      }
      awaitTrue(() -> engine.sessions().changes().held() == many, many + " requests are held");
      int threadsHeld = ManagementFactory.getThreadMXBean().getThreadCount();
      System.err.printf("threads: %d before, %d with %d held%n", threadsBefore, threadsHeld, many);
      // The HTTP pool has at most 16 threads, far fewer than the requests held: none is a thread's.
      assertThat(threadsHeld - threadsBefore)
          .as("threads added while %d requests are held", many)
          .isLessThanOrEqualTo(16);
      long start = System.nanoTime();
      assertThat(api.get("/healthz").status()).isEqualTo(200);
      assertThat(api.get("/api/state").status()).isEqualTo(200);
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
          .as("with every request held, the engine answers others at once, ms")
          .isLessThan(1_000);

      idle("shell"); // one change
      for (Socket client : clients) {
        String answer = readAnswer(client);
        assertThat(answer).startsWith("HTTP/1.1 200");
        JsonNode body = JSON.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
        assertThat(body.get("revision").asLong()).isGreaterThan(now);
      }
      assertThat(engine.sessions().changes().held()).isZero();
    } finally {
      for (Socket client : clients) {
        client.close();
      }
    }
  }

  /** A GET on a raw connection, left open: the test decides when the client hangs up. */
  private Socket rawGet(String path) throws IOException {
    Socket socket =
        new Socket(InetAddress.getLoopbackAddress(), URI.create(engine.url()).getPort());
    socket.setSoTimeout(30_000);
    OutputStream out = socket.getOutputStream();
    out.write(
        ("GET "
                + path
                + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: Bearer "
                + token
                + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return socket;
  }

  private static String readAnswer(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
  }

  private static void awaitTrue(BooleanSupplier condition, String what) throws Exception {
    awaitTrue(condition, what, 5_000);
  }

  private static void awaitTrue(BooleanSupplier condition, String what, long withinMillis)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(withinMillis);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as(what).isLessThan(deadline);
      Thread.sleep(20);
    }
  }
}
