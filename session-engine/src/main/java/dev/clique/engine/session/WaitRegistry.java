package dev.clique.engine.session;

import java.time.Clock;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * The pending waits, indexed by session and by the state each waits for, so a state change
 * completes exactly the waits it ends: the work is per change, never per pending wait. A wait holds
 * no thread; its time-out is one entry in a timer queue.
 */
final class WaitRegistry implements AutoCloseable {
  private final Clock clock;
  private final ScheduledThreadPoolExecutor timer;
  // session id -> state name -> the waits for that state
  private final Map<String, Map<String, Set<PendingWait>>> index = new ConcurrentHashMap<>();
  private final AtomicInteger pending = new AtomicInteger();

  WaitRegistry(Clock clock) {
    this.clock = clock;
    this.timer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread thread = new Thread(r, "session-wait-timer");
              thread.setDaemon(true);
              return thread;
            });
    this.timer.setRemoveOnCancelPolicy(true);
  }

  /**
   * A wait for session {@code id} to be in one of {@code states}. {@code current} answers a
   * session's state now, or null when it is gone.
   */
  CompletableFuture<WaitOutcome> await(
      String id, Set<String> states, long timeoutMillis, Function<String, String> current) {
    PendingWait wait = new PendingWait(id, states, clock.millis());
    if (timeoutMillis <= 0) {
      wait.settle(current.apply(id), true);
      return wait.future;
    }
    Map<String, Set<PendingWait>> byState =
        index.computeIfAbsent(id, k -> new ConcurrentHashMap<>());
    for (String state : states) {
      byState.computeIfAbsent(state, k -> ConcurrentHashMap.newKeySet()).add(wait);
    }
    pending.incrementAndGet();
    ScheduledFuture<?> timeout =
        timer.schedule(
            () -> wait.settle(current.apply(id), true), timeoutMillis, TimeUnit.MILLISECONDS);
    wait.onEnd(
        () -> {
          timeout.cancel(false);
          for (String state : states) {
            Set<PendingWait> waits = byState.get(state);
            if (waits != null) {
              waits.remove(wait);
            }
          }
          pending.decrementAndGet();
        });
    // A caller that gives up (its client went away) cancels the future: the wait ends too.
    wait.future.whenComplete((outcome, failure) -> wait.end());
    // The state may have changed between the caller's look and the registration above.
    wait.settle(current.apply(id), false);
    return wait.future;
  }

  /** Session {@code id} is now in {@code state}: the waits for it end. */
  void changed(String id, String state) {
    Map<String, Set<PendingWait>> byState = index.get(id);
    if (byState == null) {
      return;
    }
    Set<PendingWait> waits = byState.get(state);
    if (waits == null) {
      return;
    }
    for (PendingWait wait : waits) {
      wait.settle(state, false);
    }
  }

  /** Session {@code id} was deleted: its waits answer {@code gone}. */
  void gone(String id) {
    Map<String, Set<PendingWait>> byState = index.remove(id);
    if (byState == null) {
      return;
    }
    for (Set<PendingWait> waits : byState.values()) {
      for (PendingWait wait : waits) {
        wait.settle(null, true);
      }
    }
  }

  /** How many waits are pending now. */
  int pending() {
    return pending.get();
  }

  @Override
  public void close() {
    timer.shutdownNow();
    for (Map<String, Set<PendingWait>> byState : index.values()) {
      for (Set<PendingWait> waits : byState.values()) {
        for (PendingWait wait : waits) {
          wait.future.cancel(false);
        }
      }
    }
  }

  private final class PendingWait {
    final String id;
    final Set<String> states;
    final long startMillis;
    final CompletableFuture<WaitOutcome> future = new CompletableFuture<>();

    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile Runnable cleanUp = () -> {};

    PendingWait(String id, Set<String> states, long startMillis) {
      this.id = id;
      this.states = states;
      this.startMillis = startMillis;
    }

    /** What ending it undoes: its place in the index and the timer, and the count. */
    void onEnd(Runnable cleanUp) {
      this.cleanUp = cleanUp;
    }

    /** Leaves the index, once, whoever ends it first. */
    void end() {
      if (ended.compareAndSet(false, true)) {
        cleanUp.run();
      }
    }

    /**
     * Leaves the index before answering, so that whoever hears the answer finds it gone (the count
     * of pending waits included).
     */
    private void answer(WaitOutcome outcome) {
      if (!future.isDone()) {
        end();
        future.complete(outcome);
      }
    }

    /**
     * Ends the wait if {@code state} is one it waits for, or if {@code finalAnswer} (its time is up
     * or the session is gone). A null state means the session is gone.
     */
    void settle(String state, boolean finalAnswer) {
      if (state == null) {
        answer(new WaitOutcome(id, "gone", false, waited()));
      } else if (states.contains(state)) {
        answer(new WaitOutcome(id, state, true, waited()));
      } else if (finalAnswer) {
        answer(new WaitOutcome(id, state, false, waited()));
      }
    }

    double waited() {
      return Math.round((clock.millis() - startMillis) / 100.0) / 10.0;
    }
  }
}
