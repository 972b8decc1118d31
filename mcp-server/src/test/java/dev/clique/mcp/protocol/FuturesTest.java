package dev.clique.mcp.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** A cancel of the last step reaches the one under way; a failure reaches the next as itself. */
class FuturesTest {
  @Test
  void cancellingTheLastStepCancelsTheFirstWhileItRuns() {
    CompletableFuture<String> call = new CompletableFuture<>();

    CompletableFuture<Integer> answer =
        Futures.recover(Futures.map(call, String::length), failure -> -1);
    answer.cancel(true);

    assertThat(call).isCancelled();
  }

  @Test
  void cancellingTheLastStepCancelsTheSecondCallOnceTheFirstIsDone() {
    CompletableFuture<String> first = new CompletableFuture<>();
    CompletableFuture<String> second = new CompletableFuture<>();

    CompletableFuture<String> answer = Futures.map(Futures.then(first, done -> second), s -> s);
    first.complete("waited");
    answer.cancel(true);

    assertThat(second).isCancelled();
    assertThat(first).isCompleted();
  }

  @Test
  void aCancelledStepIsNeverAnswered() {
    CompletableFuture<String> call = new CompletableFuture<>();
    CompletableFuture<String> answer = Futures.map(call, s -> s);

    answer.cancel(true);
    call.complete("too late");

    assertThat(answer).isCancelled();
  }

  @Test
  void aFailureReachesTheNextStepAsItsOwnCause() throws Exception {
    IllegalStateException refused = new IllegalStateException("refused");
    CompletableFuture<String> call = new CompletableFuture<>();

    CompletableFuture<Throwable> seen =
        Futures.recover(
            Futures.map(Futures.map(call, s -> s), s -> (Throwable) null), failure -> failure);
    call.completeExceptionally(refused);

    assertThat(seen.get()).isSameAs(refused);
  }

  @Test
  void whatAStepThrowsIsTheFailure() {
    IllegalArgumentException bad = new IllegalArgumentException("bad");

    CompletableFuture<Object> answer =
        Futures.map(
            CompletableFuture.completedFuture("x"),
            s -> {
              throw bad;
            });
    CompletableFuture<Object> started =
        Futures.start(
            () -> {
              throw bad;
            });

    assertThatThrownBy(answer::get).isInstanceOf(ExecutionException.class).hasCause(bad);
    assertThatThrownBy(started::get).isInstanceOf(ExecutionException.class).hasCause(bad);
  }

  @Test
  void aFailureIsReplacedAsAsked() throws Exception {
    CompletableFuture<String> answer =
        Futures.mapFailure(
            CompletableFuture.failedFuture(new IllegalStateException("inner")),
            failure -> new ProtocolError(JsonRpc.INTERNAL_ERROR, "outer: " + failure.getMessage()));

    assertThatThrownBy(answer::get)
        .hasCauseInstanceOf(ProtocolError.class)
        .cause()
        .hasMessage("outer: inner");
  }
}
