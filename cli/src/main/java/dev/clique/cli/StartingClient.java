package dev.clique.cli;

import dev.clique.client.CliqueClient;
import dev.clique.client.CliqueException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The client of an engine that is still starting ({@code clique mcp --embedded}). The MCP handshake
 * and {@code tools/list} need no engine, so an assistant hears them at once (a client that does not
 * wait for a slow server lists its tools all the same); each call waits for the engine, then goes
 * to its client. An engine that could not start fails every call with why.
 */
final class StartingClient {
  private StartingClient() {}

  /** A client that becomes {@code started}'s once it completes. */
  static CliqueClient of(CompletableFuture<CliqueClient> started) {
    return (CliqueClient)
        Proxy.newProxyInstance(
            CliqueClient.class.getClassLoader(),
            new Class<?>[] {CliqueClient.class},
            (proxy, method, args) -> {
              if (method.getDeclaringClass() == Object.class) {
                return objectMethod(proxy, method, args);
              }
              if (CompletableFuture.class.isAssignableFrom(method.getReturnType())) {
                return started
                    .exceptionallyCompose(e -> CompletableFuture.failedFuture(notStarted(e)))
                    .thenCompose(client -> callAsync(client, method, args));
              }
              return call(client(started), method, args);
            });
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
    Throwable cause =
        failure instanceof CompletionException && failure.getCause() != null
            ? failure.getCause()
            : failure;
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
