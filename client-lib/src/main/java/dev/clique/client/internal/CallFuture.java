package dev.clique.client.internal;

import java.util.concurrent.CompletableFuture;
import okhttp3.Call;

/** A future of one HTTP call; cancelling the future cancels the call, so the socket is let go. */
final class CallFuture<T> extends CompletableFuture<T> {
  private final Call call;

  CallFuture(Call call) {
    this.call = call;
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    boolean cancelled = super.cancel(mayInterruptIfRunning);
    if (cancelled) {
      call.cancel();
    }
    return cancelled;
  }
}
