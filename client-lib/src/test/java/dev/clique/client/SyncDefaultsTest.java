package dev.clique.client;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.clique.client.Fixtures.CLAUDE_ID;
import static dev.clique.client.Fixtures.clientOf;
import static dev.clique.client.Fixtures.contract;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.clique.client.CliqueException.Kind;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The blocking calls are defaults over the asynchronous ones: a fake implements only those. */
class SyncDefaultsTest {
  @RegisterExtension static WireMockExtension engine = Fixtures.stubEngine();

  /** Every call answers the one future the test gives it. */
  private static CliqueClient answering(CompletableFuture<?> answer) {
    return new CliqueClient() {
      @SuppressWarnings("unchecked")
      private <T> CompletableFuture<T> answer() {
        return (CompletableFuture<T>) answer;
      }

      @Override
      public String baseUrl() {
        return "http://fake.invalid";
      }

      @Override
      public CompletableFuture<EngineState> stateAsync() {
        return answer();
      }

      @Override
      public CompletableFuture<EngineState> stateAsync(long after, Duration timeout) {
        return answer();
      }

      @Override
      public CompletableFuture<EngineState> listingAsync() {
        return answer();
      }

      @Override
      public CompletableFuture<List<Session>> sessionsAsync() {
        return answer();
      }

      @Override
      public CompletableFuture<Optional<Session>> sessionAsync(String id) {
        return answer();
      }

      @Override
      public CompletableFuture<Pane> peekAsync(String id) {
        return answer();
      }

      @Override
      public CompletableFuture<Pane> peekAsync(String id, int lines) {
        return answer();
      }

      @Override
      public CompletableFuture<WaitResult> waitForAsync(
          String id, Duration timeout, SessionState... states) {
        return answer();
      }

      @Override
      public CompletableFuture<Conversation> conversationAsync(String id) {
        return answer();
      }

      @Override
      public CompletableFuture<Health> healthAsync() {
        return answer();
      }
    };
  }

  @Test
  void aBlockingCallGivesWhatItsTwinCompletesWith() throws Exception {
    CliqueClient fake = answering(CompletableFuture.completedFuture(List.of()));
    assertThat(fake.sessions()).isEmpty();
  }

  @Test
  void aBlockingCallThrowsTheCliqueExceptionItself() {
    CliqueException failure =
        new CliqueException(
            Kind.NOT_FOUND, "clique API returned 404: no such session", 404, null, null);
    CompletableFuture<Pane> failed = CompletableFuture.failedFuture(failure);
    assertThatThrownBy(() -> answering(failed).peek("x")).isSameAs(failure);
    // Derived futures wrap their failure in a CompletionException: it is unwrapped too.
    CompletableFuture<Pane> derived = failed.thenApply(pane -> pane);
    assertThatThrownBy(() -> answering(derived).peek("x")).isSameAs(failure);
  }

  @Test
  void anUncheckedFailureIsThrownAsItIs() {
    IllegalStateException failure = new IllegalStateException("broken");
    CompletableFuture<Health> failed = CompletableFuture.failedFuture(failure);
    assertThatThrownBy(() -> answering(failed).health()).isSameAs(failure);
    assertThatThrownBy(
            () -> answering(CompletableFuture.failedFuture(new Exception("checked"))).health())
        .isInstanceOf(CompletionException.class)
        .hasRootCauseMessage("checked");
  }

  @Test
  void anInterruptedCallIsAbortedAndTheThreadStaysInterrupted() throws Exception {
    engine.stubFor(
        get(urlPathEqualTo("/api/sessions/" + CLAUDE_ID + "/wait"))
            .willReturn(okJson(contract("wait-matched.json")).withFixedDelay(5000)));
    CliqueClient client = clientOf(engine).build();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
    Thread waiter =
        new Thread(
            () -> {
              try {
                client.waitFor(CLAUDE_ID, Duration.ofSeconds(30), SessionState.IDLE);
              } catch (Throwable e) {
                thrown.set(e);
              }
              stillInterrupted.set(Thread.currentThread().isInterrupted());
            });
    waiter.start();
    Thread.sleep(300);
    long start = System.nanoTime();
    waiter.interrupt();
    waiter.join(5000);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    assertThat(thrown.get())
        .isInstanceOf(CliqueException.class)
        .hasMessage("clique API did not answer within 45 s");
    assertThat(((CliqueException) thrown.get()).kind()).isEqualTo(Kind.TIMEOUT);
    assertThat(stillInterrupted.get()).isTrue();
  }
}
