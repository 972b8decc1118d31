package dev.clique.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.engine.Engine;
import dev.clique.engine.testing.ApiClient;
import dev.clique.engine.testing.ApiClient.Answer;
import dev.clique.engine.testing.EngineSandbox;
import dev.clique.engine.token.Scope;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code peek} and {@code wait} through the real HTTP API, on real tmux. */
class PeekAndWaitIT {
  @TempDir Path dir;
  private EngineSandbox sandbox;
  private Engine engine;
  private ApiClient api;

  @BeforeEach
  void start() throws Exception {
    sandbox = new EngineSandbox(dir);
    engine = sandbox.engine();
    String token = engine.tokens().create("test", Set.of(Scope.READ, Scope.WRITE), "").secret();
    api = new ApiClient(engine.url(), token);
  }

  @AfterEach
  void stop() {
    sandbox.close();
  }

  private String create(String cli) throws Exception {
    Answer created =
        api.post(
            "/api/sessions", "{\"cli\": \"" + cli + "\", \"cwd\": \"" + sandbox.work() + "\"}");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(201);
    return created.body().get("id").asText();
  }

  private String idleShell() throws Exception {
    String id = create("shell");
    Answer idle = api.get("/api/sessions/" + id + "/wait?for=idle&timeout=10");
    assertThat(idle.body().get("matched").asBoolean()).isTrue();
    return id;
  }

  private void send(String id, String text) throws Exception {
    String body = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(text);
    Answer sent = api.post("/api/sessions/" + id + "/send", "{\"text\": " + body + "}");
    assertThat(sent.status()).as(sent.body().toString()).isEqualTo(200);
  }

  private static List<String> lines(Answer answer) {
    List<String> lines = new ArrayList<>();
    answer.body().get("lines").forEach(l -> lines.add(l.asText()));
    return lines;
  }

  @Test
  void peekShowsTextOnlyWithWrappedLinesJoinedAndFramesAndBlanksDropped() throws Exception {
    String id = idleShell();
    send(
        id,
        "clear; printf '\\033[31mred\\033[0m   \\n\\n\\u2500\\u2500\\u2500\\u2500\\n---\\n"
            + "\\u2502 boxed \\u2502\\n%0250d\\nlast\\n' 7");
    Answer done = api.get("/api/sessions/" + id + "/wait?for=idle&timeout=10");
    assertThat(done.body().get("matched").asBoolean()).isTrue();

    Answer peek = api.get("/api/sessions/" + id + "/peek?lines=4");
    assertThat(peek.status()).isEqualTo(200);
    assertThat(peek.body().get("alive").asBoolean()).isTrue();
    assertThat(peek.body().get("activity").asDouble()).isPositive();
    List<String> lines = lines(peek);
    assertThat(lines).hasSize(4);
    assertThat(lines.get(0)).isEqualTo("│ boxed │");
    assertThat(lines.get(1))
        .as("a 250-column line, wrapped at 200, comes back joined")
        .hasSize(250)
        .endsWith("7");
    assertThat(lines.get(2)).isEqualTo("last");
    assertThat(lines.get(3)).as("the prompt, trailing space stripped").matches("bash-[0-9.]+[$#]");

    List<String> more = lines(api.get("/api/sessions/" + id + "/peek?lines=10"));
    assertThat(more).contains("red").doesNotContain("", "────", "---");
    assertThat(String.join("\n", more)).doesNotContain("\u001b");
    assertThat(lines(api.get("/api/sessions/" + id + "/peek")))
        .as("default: the last 6 (here all 5 there are)")
        .isEqualTo(more.subList(Math.max(0, more.size() - 6), more.size()));
    assertThat(lines(api.get("/api/sessions/" + id + "/peek?lines=0"))).hasSize(1);
    assertThat(lines(api.get("/api/sessions/" + id + "/peek?lines=100000")))
        .hasSizeLessThanOrEqualTo(200);
  }

  @Test
  void aRepeatedPeekNeverHidesOutputForLongerThanOneLookAtThePanes() throws Exception {
    String id = idleShell();
    for (int round = 0; round < 5; round++) {
      for (int i = 0; i < 5; i++) {
        api.get("/api/sessions/" + id + "/peek?lines=3"); // warm whatever is cached
      }
      String marker = "mark-" + round;
      send(id, "echo " + marker);
      long deadline = System.nanoTime() + 2_000_000_000L;
      List<String> seen = List.of();
      while (System.nanoTime() < deadline && !seen.contains(marker)) {
        seen = lines(api.get("/api/sessions/" + id + "/peek?lines=3"));
        Thread.sleep(20);
      }
      assertThat(seen).as("within 2 s of the echo").contains(marker);
    }
  }

  @Test
  void peekOfAStoppedSessionIsEmptyAndOfAnUnknownOneIs404() throws Exception {
    String id = idleShell();
    assertThat(api.post("/api/sessions/" + id + "/kill", "").status()).isEqualTo(200);
    Answer stopped = api.get("/api/sessions/" + id + "/peek");
    assertThat(stopped.status()).isEqualTo(200);
    assertThat(stopped.body().toString())
        .isEqualTo("{\"lines\":[],\"alive\":false,\"activity\":0,\"screen\":true}");

    Answer unknown = api.get("/api/sessions/no-such-id/peek");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.body().get("error").asText()).isEqualTo("no such session");
  }

  @Test
  void aWaitIsWokenWhenACommandEndsAndSaysHowLongItWaited() throws Exception {
    String id = idleShell();
    send(id, "sleep 1");
    long start = System.nanoTime();
    Answer idle = api.get("/api/sessions/" + id + "/wait?for=idle&timeout=10");
    double seconds = (System.nanoTime() - start) / 1e9;
    JsonNode body = idle.body();
    assertThat(body.get("id").asText()).isEqualTo(id);
    assertThat(body.get("state").asText()).isEqualTo("idle");
    assertThat(body.get("matched").asBoolean()).isTrue();
    assertThat(seconds).as("woken soon after sleep 1 ends, never before").isBetween(0.9, 3.0);
    assertThat(body.get("waited").asDouble()).isBetween(0.8, 3.0);
  }

  @Test
  void aWaitIsWokenByAQuestionAndByAnError() throws Exception {
    String prompter = create("prompter");
    Answer waiting = api.get("/api/sessions/" + prompter + "/wait?for=waiting,error&timeout=15");
    assertThat(waiting.body().get("state").asText()).isEqualTo("waiting");
    assertThat(waiting.body().get("matched").asBoolean()).isTrue();

    String shell = idleShell();
    CompletableFuture<Answer> error =
        api.getAsync("/api/sessions/" + shell + "/wait?for=error&timeout=15");
    send(shell, "python3 " + EngineSandbox.fixture("crash.py"));
    Answer failed = error.get(20, TimeUnit.SECONDS);
    assertThat(failed.body().get("state").asText()).isEqualTo("error");
    assertThat(failed.body().get("matched").asBoolean()).isTrue();
  }

  @Test
  void anAttentionSignalWakesAWaitForWaiting() throws Exception {
    String id = idleShell();
    CompletableFuture<Answer> waiting =
        api.getAsync("/api/sessions/" + id + "/wait?for=waiting&timeout=10");
    Thread.sleep(200);
    engine.sessions().attention(id, "waiting");
    Answer answer = waiting.get(10, TimeUnit.SECONDS);
    assertThat(answer.body().get("matched").asBoolean()).isTrue();
    assertThat(api.get("/api/state").body().get("sessions").get(0).get("signal").asText())
        .isEqualTo("waiting");
  }

  @Test
  void aSessionDeletedWhileWaitedOnAnswersGone() throws Exception {
    String id = idleShell();
    CompletableFuture<Answer> pending =
        api.getAsync("/api/sessions/" + id + "/wait?for=error&timeout=30");
    Thread.sleep(300);
    assertThat(pending).isNotDone();
    assertThat(api.delete("/api/sessions/" + id).status()).isEqualTo(200);
    Answer gone = pending.get(5, TimeUnit.SECONDS);
    assertThat(gone.status()).isEqualTo(200);
    assertThat(gone.body().get("state").asText()).isEqualTo("gone");
    assertThat(gone.body().get("matched").asBoolean()).isFalse();
  }

  @Test
  void timeoutZeroAnswersAtOnceAndATimeoutIsNotAMatch() throws Exception {
    String id = idleShell();
    long start = System.nanoTime();
    Answer now = api.get("/api/sessions/" + id + "/wait?for=working&timeout=0");
    assertThat((System.nanoTime() - start) / 1e6).isLessThan(500);
    assertThat(now.body().get("matched").asBoolean()).isFalse();
    assertThat(now.body().get("state").asText()).isEqualTo("idle");
    assertThat(now.body().get("waited").asDouble()).isZero();

    Answer already = api.get("/api/sessions/" + id + "/wait?timeout=0");
    assertThat(already.body().get("matched").asBoolean()).as("default: idle").isTrue();

    Answer late = api.get("/api/sessions/" + id + "/wait?for=error&timeout=0.5");
    assertThat(late.body().get("matched").asBoolean()).isFalse();
    assertThat(late.body().get("waited").asDouble()).isBetween(0.4, 2.0);
  }

  @Test
  void aWaitOnAnUnknownSessionIs404AndAnUnknownStateIs400() throws Exception {
    assertThat(api.get("/api/sessions/nope/wait").status()).isEqualTo(404);
    String id = idleShell();
    assertThat(api.get("/api/sessions/" + id + "/wait?for=sleepy").status()).isEqualTo(400);
    assertThat(api.get("/api/sessions/" + id + "/wait?timeout=-1").status()).isEqualTo(400);
  }
}
