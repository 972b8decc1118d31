package dev.clique.cli;

import dev.clique.client.CliqueClient;
import dev.clique.client.CliqueException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The client of an engine that may still be starting, or that another process runs and may hand
 * over ({@code clique mcp --embedded}). The MCP handshake and {@code tools/list} need no engine, so
 * an assistant hears them at once (a client that does not wait for a slow server lists its tools
 * all the same); each call waits for the engine, then goes to its client. A call the engine could
 * not take (it went away) goes once more, to the engine that took over. An engine that could not
 * start fails every call with why.
 */
final class StartingClient {
  private StartingClient() {}

  /** Where the calls go. */
  interface Engines {
    /** The client of the engine to call now; fails when no engine could start. */
    CompletableFuture<CliqueClient> current();

    /**
     * After {@code gone}'s engine could not be reached: the client of the engine that took over, or
     * a failure when none did in time.
     */
    CompletableFuture<CliqueClient> after(CliqueClient gone);
  }

  /** A client that becomes {@code started}'s once it completes, and has no engine after it. */
  static CliqueClient of(CompletableFuture<CliqueClient> started) {
    return of(
        new Engines() {
          @Override
          public CompletableFuture<CliqueClient> current() {
            return started;
          }

          @Override
          public CompletableFuture<CliqueClient> after(CliqueClient gone) {
            return CompletableFuture.failedFuture(new IllegalStateException("no other engine"));
          }
        });
  }

  /** A client whose calls go to the engine {@code engines} says, and on to its successor. */
  static CliqueClient of(Engines engines) {
    return (CliqueClient)
        Proxy.newProxyInstance(
            CliqueClient.class.getClassLoader(),
            new Class<?>[] {CliqueClient.class},
            (proxy, method, args) -> {
              if (method.getDeclaringClass() == Object.class) {
                return objectMethod(proxy, method, args);
              }
              if (method.isDefault()) {
                // The blocking calls wait for their asynchronous twins, which are these.
                return InvocationHandler.invokeDefault(proxy, method, args);
              }
              if (CompletableFuture.class.isAssignableFrom(method.getReturnType())) {
                return callAsync(engines, method, args);
              }
              return call(client(engines.current()), method, args);
            });
  }

  /**
   * The call on the current engine, and once more on its successor if that engine was gone. A
   * cancel reaches the step under way, down to the HTTP call.
   */
  private static CompletableFuture<Object> callAsync(
      Engines engines, Method method, Object[] args) {
    CompletableFuture<Object> result = new CompletableFuture<>();
    AtomicReference<Future<?>> step = new AtomicReference<>();
    result.whenComplete(
        (value, failure) -> {
          Future<?> underWay = step.get();
          if (result.isCancelled() && underWay != null) {
            underWay.cancel(true);
          }
        });
    engines
        .current()
        .whenComplete(
            (client, notStarted) -> {
              if (notStarted != null) {
                result.completeExceptionally(notStarted(notStarted));
                return;
              }
              CompletableFuture<?> first = started(step, result, callAsync(client, method, args));
              first.whenComplete(
                  (value, failure) -> {
                    if (failure == null) {
                      result.complete(value);
                    } else if (!wasGone(failure) || result.isDone()) {
                      result.completeExceptionally(cause(failure));
                    } else {
                      engines
                          .after(client)
                          .whenComplete(
                              (next, none) -> {
                                if (none != null) {
                                  result.completeExceptionally(cause(failure));
                                  return;
                                }
                                started(step, result, callAsync(next, method, args))
                                    .whenComplete(
                                        (again, stillFailing) -> {
                                          if (stillFailing == null) {
                                            result.complete(again);
                                          } else {
                                            result.completeExceptionally(cause(stillFailing));
                                          }
                                        });
                              });
                    }
                  });
            });
    return result;
  }

  /** Records {@code call} as the step under way; cancels it if the result was cancelled first. */
  private static CompletableFuture<?> started(
      AtomicReference<Future<?>> step,
      CompletableFuture<Object> result,
      CompletableFuture<?> call) {
    step.set(call);
    if (result.isCancelled()) {
      call.cancel(true);
    }
    return call;
  }

  /** No HTTP answer at all: the engine may have gone with its process. */
  private static boolean wasGone(Throwable failure) {
    return cause(failure) instanceof CliqueException clique
        && clique.kind() == CliqueException.Kind.UNREACHABLE;
  }

  private static Throwable cause(Throwable failure) {
    Throwable cause = failure;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  private static CliqueClient client(CompletableFuture<CliqueClient> started)
      throws CliqueException {
    try {
      return started.get();
    } catch (ExecutionException e) {
      throw notStarted(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliqueException(
          CliqueException.Kind.UNREACHABLE,
          "interrupted while the embedded engine was starting",
          -1,
          null,
          e);
    }
  }

  private static Object call(CliqueClient client, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(client, args);
    } catch (InvocationTargetException e) {
      throw e.getCause(); // what the client threw, as it threw it
    }
  }

  private static CompletableFuture<?> callAsync(CliqueClient client, Method method, Object[] args) {
    try {
      return (CompletableFuture<?>) call(client, method, args);
    } catch (Throwable e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static CliqueException notStarted(Throwable failure) {
    Throwable cause = cause(failure);
    if (cause instanceof CliqueException clique) {
      return clique; // already says why, in the engine's words
    }
    return new CliqueException(
        CliqueException.Kind.UNREACHABLE,
        "could not start the embedded engine: " + cause.getMessage(),
        -1,
        null,
        cause);
  }

  private static Object objectMethod(Object proxy, Method method, Object[] args) {
    return switch (method.getName()) {
      case "equals" -> proxy == args[0];
      case "hashCode" -> System.identityHashCode(proxy);
      default -> "StartingClient";
    };
  }
}
