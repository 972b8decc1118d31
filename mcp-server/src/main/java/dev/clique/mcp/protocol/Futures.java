package dev.clique.mcp.protocol;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The steps of an answer: each future made from the one before by these, so that cancelling the
 * last one (a client's {@code notifications/cancelled}) cancels the one under way, down to the
 * client's HTTP call, and a step's failure reaches the next as its own cause, never wrapped in a
 * {@link CompletionException}. (The JDK's own {@code thenApply} and {@code thenCompose} do neither:
 * cancelling what they give leaves the future they were made from running.)
 */
public final class Futures {
  private Futures() {}

  /** What {@code first} gives, or what it throws (a route's checks throw) as the failure. */
  public static <T> CompletableFuture<T> start(Supplier<? extends CompletableFuture<T>> first) {
    try {
      return first.get();
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** {@code source}'s value through {@code step}; what {@code step} throws is the failure. */
  public static <T, R> CompletableFuture<R> map(
      CompletableFuture<T> source, Function<? super T, ? extends R> step) {
    return then(source, value -> CompletableFuture.completedFuture(step.apply(value)));
  }

  /** {@code source}'s value, then the future {@code next} makes of it. */
  public static <T, R> CompletableFuture<R> then(
      CompletableFuture<T> source, Function<? super T, CompletableFuture<R>> next) {
    return step(source, next, CompletableFuture::failedFuture);
  }

  /** {@code source}'s value, or on its failure what {@code recover} makes of the cause. */
  public static <T> CompletableFuture<T> recover(
      CompletableFuture<T> source, Function<Throwable, ? extends T> recover) {
    return step(
        source,
        CompletableFuture::completedFuture,
        failure -> CompletableFuture.completedFuture(recover.apply(failure)));
  }

  /** {@code source}'s value, or on its failure the future {@code next} makes of the cause. */
  public static <T> CompletableFuture<T> orElse(
      CompletableFuture<T> source, Function<Throwable, CompletableFuture<T>> next) {
    return step(source, CompletableFuture::completedFuture, next);
  }

  /** {@code source}'s failure as {@code replace} has it; its value as it is. */
  public static <T> CompletableFuture<T> mapFailure(
      CompletableFuture<T> source, Function<Throwable, Throwable> replace) {
    return step(
        source,
        CompletableFuture::completedFuture,
        failure -> CompletableFuture.failedFuture(replace.apply(failure)));
  }

  /** A failure as its cause: what a future's own handlers see wrapped. */
  public static Throwable cause(Throwable failure) {
    return failure instanceof CompletionException && failure.getCause() != null
        ? failure.getCause()
        : failure;
  }

  private static <T, R> CompletableFuture<R> step(
      CompletableFuture<T> source,
      Function<? super T, ? extends CompletableFuture<R>> onValue,
      Function<Throwable, ? extends CompletableFuture<R>> onFailure) {
    CompletableFuture<R> result = new CompletableFuture<>();
    AtomicReference<CompletableFuture<?>> underWay = new AtomicReference<>(source);
    source.whenComplete(
        (value, failure) -> {
          if (result.isDone()) {
            return;
          }
          CompletableFuture<R> next =
              start(() -> failure == null ? onValue.apply(value) : onFailure.apply(cause(failure)));
          underWay.set(next);
          if (result.isCancelled()) {
            next.cancel(true);
          }
          next.whenComplete(
              (answer, problem) -> {
                if (problem == null) {
                  result.complete(answer);
                } else {
                  result.completeExceptionally(cause(problem));
                }
              });
        });
    result.whenComplete(
        (answer, problem) -> {
          if (result.isCancelled()) {
            underWay.get().cancel(true);
          }
        });
    return result;
  }
}
