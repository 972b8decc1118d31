package dev.clique.client.internal;

import dev.clique.client.CliqueException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** The blocking calls of {@code CliqueClient}: each waits for its asynchronous twin. */
public final class Sync {
  private Sync() {}

  /**
   * Waits for {@code future} and gives its value, or throws what it failed with.
   *
   * @param future a future of one call
   * @param <T> what the call answers
   * @return the call's answer
   * @throws CliqueException the failure the future completed with; a time-out, the call aborted,
   *     when the waiting thread is interrupted (its interrupt status stays set)
   */
  public static <T> T await(CompletableFuture<T> future) throws CliqueException {
    try {
      return future.get();
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      if (future instanceof CallFuture<?> call) {
        throw call.interrupted(e);
      }
      throw new CliqueException(
          CliqueException.Kind.TIMEOUT,
          "clique API did not answer: the waiting thread was interrupted",
          -1,
          null,
          e);
    } catch (ExecutionException e) {
      throw rethrow(e);
    }
  }

  /** The failure itself, out of the wrappers a future puts around it. */
  private static CliqueException rethrow(Throwable failure) {
    Throwable cause = cause(failure);
    if (cause instanceof CliqueException clique) {
      return clique;
    }
    if (cause instanceof RuntimeException unchecked) {
      throw unchecked;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    throw new CompletionException(cause);
  }

  /** A future's failure itself, out of the wrappers a future puts around it. */
  static Throwable cause(Throwable failure) {
    Throwable cause = failure;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }
}
