package dev.clique.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.testing.MutableClock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WaitRegistryTest {
  private final MutableClock clock = MutableClock.start();
  private final WaitRegistry waits = new WaitRegistry(clock);
  private final Map<String, String> states = new HashMap<>();

  @AfterEach
  void close() {
    waits.close();
  }

  private CompletableFuture<WaitOutcome> await(String id, long timeout, String... wanted) {
    return waits.await(id, Set.of(wanted), timeout, states::get);
  }

  @Test
  void aChangeEndsOnlyTheWaitsForThatSessionAndThatState() {
    states.put("a", "working");
    states.put("b", "working");
    List<CompletableFuture<WaitOutcome>> forIdle = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      forIdle.add(await("a", 60_000, "idle"));
    }
    CompletableFuture<WaitOutcome> forError = await("a", 60_000, "error", "waiting");
    CompletableFuture<WaitOutcome> other = await("b", 60_000, "idle");
    assertThat(waits.pending()).isEqualTo(1_002);

    clock.advanceMillis(1_250);
    states.put("a", "idle");
    waits.changed("a", "idle");
    assertThat(forIdle).allSatisfy(f -> assertThat(f.getNow(null).matched()).isTrue());
    assertThat(forIdle.get(0).getNow(null)).isEqualTo(new WaitOutcome("a", "idle", true, 1.3));
    assertThat(forError).isNotDone();
    assertThat(other).isNotDone();
    assertThat(waits.pending()).isEqualTo(2);

    waits.changed("a", "waiting");
    assertThat(forError.getNow(null).state()).isEqualTo("waiting");
    assertThat(waits.pending()).isEqualTo(1);
  }

  @Test
  void aWaitForTheStateItIsAlreadyInEndsAtOnce() {
    states.put("a", "idle");
    assertThat(await("a", 60_000, "idle").getNow(null))
        .isEqualTo(new WaitOutcome("a", "idle", true, 0));
    assertThat(waits.pending()).isZero();
  }

  @Test
  void timeoutZeroAnswersTheStateNowWithoutWaiting() {
    states.put("a", "working");
    assertThat(await("a", 0, "idle").getNow(null))
        .isEqualTo(new WaitOutcome("a", "working", false, 0));
    assertThat(waits.pending()).isZero();
  }

  @Test
  void aTimeoutAnswersTheStateThenUnmatched() throws Exception {
    states.put("a", "working");
    WaitOutcome outcome = await("a", 50, "idle").get(5, TimeUnit.SECONDS);
    assertThat(outcome.state()).isEqualTo("working");
    assertThat(outcome.matched()).isFalse();
    assertThat(waits.pending()).isZero();
  }

  @Test
  void aGoneSessionAnswersGoneAndACancelledWaitLeavesTheIndex() {
    states.put("a", "working");
    CompletableFuture<WaitOutcome> first = await("a", 60_000, "idle");
    CompletableFuture<WaitOutcome> second = await("a", 60_000, "idle");
    second.cancel(false);
    assertThat(waits.pending()).isEqualTo(1);
    waits.gone("a");
    assertThat(first.getNow(null)).isEqualTo(new WaitOutcome("a", "gone", false, 0));
    assertThat(waits.pending()).isZero();
  }
}
