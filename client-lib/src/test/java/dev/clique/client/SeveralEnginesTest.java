package dev.clique.client;

import static dev.clique.client.Fixtures.CLAUDE_ID;
import static dev.clique.client.Fixtures.SHELL_ID;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clique.fake.FakeEngine;
import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One client over several engines: merged lists, calls routed by id, engines that fail named. */
class SeveralEnginesTest {
  private static final String TOKEN_A = "mxp_AAAApQ9rT7vW2xY5aB8cD1eF4gH6iJ0kL3mN5oP7qR9s";
  private static final String TOKEN_B = "mxp_BBBBpQ9rT7vW2xY5aB8cD1eF4gH6iJ0kL3mN5oP7qR9s";

  private FakeEngine a;
  private FakeEngine b;

  @BeforeEach
  void engines() throws IOException {
    a = FakeEngine.start().servingTheContract(FakeEngine.ANY);
    b = FakeEngine.start().servingTheContract(FakeEngine.ANY);
  }

  @AfterEach
  void stop() {
    a.close();
    b.close();
  }

  private CliqueClient overBoth(Duration timeout) {
    Map<String, CliqueClient> engines = new LinkedHashMap<>();
    engines.put(
        "laptop", CliqueClient.builder().baseUrl(a.url()).token(TOKEN_A).timeout(timeout).build());
    engines.put(
        "box", CliqueClient.builder().baseUrl(b.url()).token(TOKEN_B).timeout(timeout).build());
    return CliqueClient.overEngines(engines);
  }

  @Test
  void theSessionsOfEveryEngineAreListedEachWithItsEngineAndAnIdThatNamesIt() throws Exception {
    EngineState state = overBoth(Duration.ofSeconds(5)).state();

    assertThat(state.sessions())
        .extracting(Session::id)
        .containsExactly(
            "laptop:" + CLAUDE_ID, "laptop:" + SHELL_ID, "box:" + CLAUDE_ID, "box:" + SHELL_ID);
    assertThat(state.sessions())
        .extracting(s -> s.engine().orElseThrow())
        .containsExactly("laptop", "laptop", "box", "box");
    assertThat(state.sessions().get(0).json())
        .startsWith("{\"id\":\"laptop:" + CLAUDE_ID + "\",\"engine\":\"laptop\",")
        .contains("\"created\":1767168912.44"); // decimals as the engine wrote them
    assertThat(state.engines())
        .extracting(EngineReport::name, EngineReport::ok, EngineReport::error)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("laptop", true, java.util.Optional.empty()),
            org.assertj.core.groups.Tuple.tuple("box", true, java.util.Optional.empty()));
    assertThat(state.json())
        .contains("\"engines\":[{\"name\":\"laptop\",\"ok\":true,\"error\":null}");
    assertThat(state.clis())
        .extracting(Cli::id)
        .containsExactly("claude", "codex", "gemini", "shell");
  }

  @Test
  void eachEngineSeesOnlyItsOwnToken() throws Exception {
    CliqueClient client = overBoth(Duration.ofSeconds(5));
    client.sessions();
    client.peek("box:" + SHELL_ID);
    client.conversation("laptop:" + CLAUDE_ID);

    assertThat(a.requests)
        .isNotEmpty()
        .allSatisfy(r -> assertThat(r.header("authorization")).isEqualTo("Bearer " + TOKEN_A));
    assertThat(b.requests)
        .isNotEmpty()
        .allSatisfy(r -> assertThat(r.header("authorization")).isEqualTo("Bearer " + TOKEN_B));
    assertThat(b.requestsTo("/api/sessions/" + SHELL_ID + "/peek")).hasSize(1);
    assertThat(a.requestsTo("/api/sessions/" + SHELL_ID + "/peek")).isEmpty();
    assertThat(a.requestsTo("/api/sessions/" + CLAUDE_ID + "/transcript")).hasSize(1);
  }

  @Test
  void anEngineThatRefusesItsTokenIsNamedAndTheOthersSessionsAreStillListed() throws Exception {
    b.failEveryRequest(FakeEngine.Fault.UNAUTHORIZED);

    EngineState state = overBoth(Duration.ofSeconds(5)).state();

    assertThat(state.sessions()).extracting(s -> s.engine().orElseThrow()).containsOnly("laptop");
    EngineReport box = state.engines().get(1);
    assertThat(box.name()).isEqualTo("box");
    assertThat(box.ok()).isFalse();
    assertThat(box.error().orElseThrow()).contains("401").doesNotContain(TOKEN_B.substring(4));
  }

  @Test
  void anEngineSlowerThanItsTimeOutIsNamedAndTheAnswerDoesNotWaitForIt() throws Exception {
    b.failEveryRequest(FakeEngine.Fault.SILENT);
    long start = System.nanoTime();

    EngineState state = overBoth(Duration.ofMillis(700)).state();

    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
    assertThat(state.sessions()).hasSize(2);
    assertThat(state.engines().get(1).error().orElseThrow())
        .contains("did not answer within 0.7 s");
    b.releaseAll();
  }

  @Test
  void anEngineThatIsDownIsNamedAndOnlyWhenNoneAnswersDoesTheCallFail() throws Exception {
    CliqueClient client = overBoth(Duration.ofSeconds(5));
    b.close();

    EngineState state = client.state();
    assertThat(state.sessions()).hasSize(2);
    assertThat(state.engines().get(1).ok()).isFalse();

    a.close();
    assertThatThrownBy(client::sessions)
        .isInstanceOf(CliqueException.class)
        .hasMessageContaining("no engine answered")
        .hasMessageContaining("laptop: ")
        .hasMessageContaining("box: ");
  }

  @Test
  void callsOnOneSessionGoToItsEngineAndAnswerWithItsEnginesId() throws Exception {
    CliqueClient client = overBoth(Duration.ofSeconds(5));

    Session session = client.session("box:" + CLAUDE_ID).orElseThrow();
    assertThat(session.id()).isEqualTo("box:" + CLAUDE_ID);
    assertThat(session.engine()).contains("box");

    WaitResult waited = client.waitFor("box:" + CLAUDE_ID, Duration.ofSeconds(1));
    assertThat(waited.id()).isEqualTo("box:" + CLAUDE_ID);
    assertThat(waited.json()).contains("\"id\":\"box:" + CLAUDE_ID + "\",\"engine\":\"box\"");
    assertThat(b.requestsTo("/api/sessions/" + CLAUDE_ID + "/wait")).hasSize(1);
    assertThat(a.requestsTo("/api/sessions/" + CLAUDE_ID + "/wait")).isEmpty();

    b.failEveryRequest(FakeEngine.Fault.ERROR_500);
    assertThatThrownBy(() -> client.peek("box:" + CLAUDE_ID))
        .isInstanceOf(CliqueException.class)
        .hasMessageStartingWith("engine box: ")
        .satisfies(e -> assertThat(((CliqueException) e).status()).hasValue(500));
    b.stopFailing();

    assertThat(client.session(CLAUDE_ID)).isEmpty();
    assertThat(client.session("desk:" + CLAUDE_ID)).isEmpty();
    assertThatThrownBy(() -> client.peek("desk:" + CLAUDE_ID))
        .isInstanceOf(CliqueException.class)
        .hasMessageContaining("`<engine>:<id>`")
        .hasMessageContaining("laptop, box")
        .satisfies(
            e ->
                assertThat(((CliqueException) e).kind()).isEqualTo(CliqueException.Kind.NOT_FOUND));
  }

  @Test
  void theSameEnginesRevisionsGiveTheSameRevision() throws Exception {
    CliqueClient client = overBoth(Duration.ofSeconds(5));

    assertThat(client.state().revision()).isEqualTo(client.state().revision());
  }

  @Test
  void aHeldStateAnswersAtTheFirstEngineThatChangesAndCancelsTheOthersHold() throws Exception {
    CliqueClient client = overBoth(Duration.ofSeconds(5));
    EngineState first = client.state();
    String changed =
        FakeEngine.contract("state.json")
            .replace("1767171300125", "1767171300999")
            .replace("\"api refactor\"", "\"api refactor, renamed\"");
    b.on(
        "/api/state",
        exchange -> {
          if (exchange.getRequestURI().getRawQuery() == null) {
            FakeEngine.json(200, FakeEngine.contract("state.json")).send(exchange);
          } else {
            b.hang(FakeEngine.contract("state.json")).send(exchange);
          }
        });
    a.on(
        "/api/state",
        exchange -> {
          String query = exchange.getRequestURI().getRawQuery();
          FakeEngine.json(200, query == null ? FakeEngine.contract("state.json") : changed)
              .send(exchange);
        });

    CompletableFuture<EngineState> held =
        client.stateAsync(first.revision(), Duration.ofSeconds(30));
    EngineState next = held.get(10, TimeUnit.SECONDS);

    assertThat(next.revision()).isNotEqualTo(first.revision());
    assertThat(next.sessions()).extracting(Session::name).contains("api refactor, renamed");
    assertThat(next.sessions()).hasSize(4); // box's sessions are those it had
    assertThat(a.last("/api/state").rawQuery()).isEqualTo("after=1767171300125&timeout=30");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (b.abandoned.get() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(b.abandoned.get()).as("box's hold was cancelled").isEqualTo(1);
  }

  @Test
  void aRevisionTheClientNeverGaveAnswersAtOnce() throws Exception {
    EngineState state = overBoth(Duration.ofSeconds(5)).state(42, Duration.ofSeconds(30));

    assertThat(state.sessions()).hasSize(4);
    assertThat(a.requests).extracting(FakeEngine.Request::rawQuery).containsOnlyNulls();
  }

  @Test
  void healthSumsTheEnginesThatAnsweredAndIsOkOnlyWhenAllAre() throws Exception {
    CliqueClient client = overBoth(Duration.ofSeconds(5));
    a.on("/healthz", FakeEngine.json(200, FakeEngine.contract("healthz.json")));
    b.on("/healthz", FakeEngine.json(200, FakeEngine.contract("healthz.json")));

    Health health = client.health();
    assertThat(health.ok()).isTrue();
    assertThat(health.sessions()).hasValue(4);

    b.failEveryRequest(FakeEngine.Fault.ERROR_500);
    Health half = client.health();
    assertThat(half.ok()).isFalse();
    assertThat(half.sessions()).hasValue(2);
    assertThat(half.json()).contains("\"name\":\"box\",\"ok\":false");
  }

  @Test
  void engineNamesAreCheckedAndThereIsAtLeastOne() {
    CliqueClient one = CliqueClient.builder().baseUrl(a.url()).token(TOKEN_A).build();
    assertThatThrownBy(() -> CliqueClient.overEngines(Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one engine");
    for (String bad : List.of("", "a:b", "-x", "with space", "x".repeat(65))) {
      assertThatThrownBy(() -> CliqueClient.overEngines(Map.of(bad, one)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("is not an engine name");
    }
    assertThat(CliqueClient.overEngines(Map.of("a.b_c-1", one)).toString())
        .isEqualTo("CliqueClient{engines=[a.b_c-1]}");
  }
}
