package dev.clique.client.internal;

import dev.clique.client.CliqueException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import okhttp3.Call;

/** A future of one HTTP call; cancelling the future cancels the call, so the socket is let go. */
final class CallFuture<T> extends CompletableFuture<T> {
  private final Call call;
  private final Failures failures;
  private final Duration limit;

  CallFuture(Call call, Failures failures, Duration limit) {
    this.call = call;
    this.failures = failures;
    this.limit = limit;
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    if (cancelled) {
      call.cancel();
    }
    return cancelled;
  }

  /**
   * What a blocking caller gets when its thread is interrupted: as OkHttp's interruption, a
   * time-out.
   */
  CliqueException interrupted(InterruptedException e) {
    return failures.timedOut(limit, e);
  }
}
