package dev.clique.client;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.clique.client.Fixtures.CLAUDE_ID;
import static dev.clique.client.Fixtures.SHELL_ID;
import static dev.clique.client.Fixtures.assertNoToken;
import static dev.clique.client.Fixtures.clientOf;
import static dev.clique.client.Fixtures.contract;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.clique.client.CliqueException.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The asynchronous twins answer what the blocking calls answer, and can be called off. */
class CliqueClientAsyncTest {
  @RegisterExtension static WireMockExtension engine = Fixtures.stubEngine();

  private final CliqueClient client = clientOf(engine).build();

  private static void answer(String path, String contractFile) {
    engine.stubFor(get(urlPathEqualTo(path)).willReturn(okJson(contract(contractFile))));
  }

  private static <T> T await(CompletableFuture<T> future) throws Exception {
    return future.get(10, TimeUnit.SECONDS);
  }

  @Test
  void everyTwinAnswersWhatItsBlockingCallAnswers() throws Exception {
    answer("/api/state", "state.json");
    answer("/healthz", "healthz.json");
    answer("/api/sessions/" + CLAUDE_ID + "/peek", "peek.json");
    answer("/api/sessions/" + CLAUDE_ID + "/wait", "wait-matched.json");
    answer("/api/sessions/" + CLAUDE_ID + "/transcript", "transcript.json");

    assertThat(await(client.stateAsync())).isEqualTo(client.state());
    assertThat(await(client.stateAsync(5, Duration.ofSeconds(20))))
        .isEqualTo(client.state(5, Duration.ofSeconds(20)));
    assertThat(await(client.sessionsAsync())).isEqualTo(client.sessions());
    assertThat(await(client.sessionAsync(CLAUDE_ID))).isEqualTo(client.session(CLAUDE_ID));
    assertThat(await(client.sessionAsync("no-such-session"))).isEmpty();
    assertThat(await(client.peekAsync(CLAUDE_ID))).isEqualTo(client.peek(CLAUDE_ID));
    assertThat(await(client.peekAsync(CLAUDE_ID, 40))).isEqualTo(client.peek(CLAUDE_ID, 40));
    assertThat(
            await(
                client.waitForAsync(
                    CLAUDE_ID, Duration.ofSeconds(60), SessionState.IDLE, SessionState.WAITING)))
        .isEqualTo(
            client.waitFor(
                CLAUDE_ID, Duration.ofSeconds(60), SessionState.IDLE, SessionState.WAITING));
    assertThat(await(client.conversationAsync(CLAUDE_ID)))
        .isEqualTo(client.conversation(CLAUDE_ID));
    assertThat(await(client.healthAsync())).isEqualTo(client.health());
    engine.verify(
        2,
        getRequestedFor(
            urlEqualTo("/api/sessions/" + CLAUDE_ID + "/wait?for=idle,waiting&timeout=60")));
  }

  @Test
  void aFailedCallCompletesTheFutureWithTheSameCliqueException() {
    engine.stubFor(
        get(urlPathEqualTo("/api/sessions/" + SHELL_ID + "/transcript"))
            .willReturn(
                aResponse()
                    .withStatus(404)
                    .withHeader("Content-Type", "application/json")
                    .withBody(contract("error-not-found.json"))));

    CompletableFuture<Conversation> future = client.conversationAsync(SHELL_ID);

    assertThatThrownBy(() -> await(future))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOfSatisfying(
            CliqueException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND);
              assertThat(e.getMessage()).isEqualTo("clique API returned 404: no such session");
              assertNoToken(e);
            });
  }

  @Test
  void aSlowAsyncCallTimesOutLikeABlockingOne() {
    engine.stubFor(get(anyUrl()).willReturn(okJson(contract("healthz.json")).withFixedDelay(2000)));
    CliqueClient impatient = clientOf(engine).timeout(Duration.ofMillis(250)).build();

    assertThatThrownBy(() -> await(impatient.healthAsync()))
        .cause()
        .isInstanceOfSatisfying(
            CliqueException.class, e -> assertThat(e.kind()).isEqualTo(Kind.TIMEOUT))
        .hasMessage("clique API did not answer within 0.25 s");
  }

  @Test
  void cancellingAPendingWaitAbortsItsHttpCall() throws Exception {
    engine.stubFor(
        get(urlPathEqualTo("/api/sessions/" + CLAUDE_ID + "/wait"))
            .willReturn(okJson(contract("wait-matched.json")).withFixedDelay(10_000)));
    OkHttpClient shared = new OkHttpClient();
    CliqueClient waiting = clientOf(engine).okHttpClient(shared).build();

    CompletableFuture<WaitResult> future =
        waiting.waitForAsync(CLAUDE_ID, Duration.ofSeconds(60), SessionState.IDLE);
    awaitUntil(() -> shared.dispatcher().runningCallsCount() == 1);
    awaitUntil(() -> !engine.getAllServeEvents().isEmpty());
    long start = System.nanoTime();
    boolean cancelled = future.cancel(true);
    awaitUntil(() -> shared.dispatcher().runningCallsCount() == 0);
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(cancelled).isTrue();
    assertThat(future).isCancelled();
    assertThatThrownBy(future::join).isInstanceOf(CancellationException.class);
    assertThat(took).isLessThan(Duration.ofSeconds(2));
  }

  @Test
  void manyWaitsRunAtOnceWithoutQueueingBehindEachOther() throws Exception {
    engine.stubFor(
        get(urlPathEqualTo("/api/sessions/" + CLAUDE_ID + "/wait"))
            .willReturn(okJson(contract("wait-matched.json")).withFixedDelay(1500)));

    List<CompletableFuture<WaitResult>> waits = new ArrayList<>();
    long start = System.nanoTime();
    for (int i = 0; i < 12; i++) {
      waits.add(client.waitForAsync(CLAUDE_ID, Duration.ofSeconds(5), SessionState.IDLE));
    }
    CompletableFuture.allOf(waits.toArray(new CompletableFuture<?>[0])).get(20, TimeUnit.SECONDS);
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    // OkHttp's default dispatcher runs 5 calls per host at once: 12 would need three rounds.
    assertThat(took).isLessThan(Duration.ofMillis(1500 * 2));
    assertThat(waits).allSatisfy(w -> assertThat(w.join().matched()).isTrue());
  }

  private static void awaitUntil(java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within 5 s");
      }
      Thread.sleep(10);
    }
  }
}
