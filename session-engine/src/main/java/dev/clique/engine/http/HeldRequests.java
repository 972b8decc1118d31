package dev.clique.engine.http;

import static dev.clique.engine.http.SessionCalls.call;

import dev.clique.engine.session.SessionService;
import dev.clique.engine.session.WaitOutcome;
import dev.clique.engine.state.SessionState;
import dev.clique.engine.token.Token;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requests answered later, by the change they wait for: a session's {@code wait} and {@code GET
 * /api/state?after=N}. Each holds no thread, one of its token's places in the {@link WaitQuota},
 * and ends at once when its client hangs up ({@link HangUpWatch}).
 */
final class HeldRequests implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(HeldRequests.class);

  private final SessionService sessions;
  private final Answers answers;
  private final WaitQuota waitQuota = WaitQuota.forDescriptors(ApiHandler.maxDescriptors());
  private final HangUpWatch hangUps = HangUpWatch.system();

  HeldRequests(SessionService sessions, Answers answers) {
    this.sessions = sessions;
    this.answers = answers;
  }

  /** A session's {@code wait}: held until it is in one of the states asked {@code for}. */
  void await(String id, Token token, Request request, Response response, Callback callback)
      throws ApiError {
    long millis = Requests.timeoutMillis(request);
    Set<String> wanted = new LinkedHashSet<>();
    String forParam = Requests.query(request, "for");
    for (String name : (forParam == null || forParam.isBlank() ? "idle" : forParam).split(",")) {
      String state = name.strip().toLowerCase(Locale.ROOT);
      if (SessionState.fromWire(state).isEmpty()) {
        throw ApiError.badRequest("unknown state: " + name.strip());
      }
      wanted.add(state);
    }
    this.<WaitOutcome>hold(
        "wait on " + id,
        token,
        () -> call(() -> sessions.await(id, wanted, millis)),
        Answers::waitAnswer,
        request,
        response,
        callback);
  }

  /**
   * {@code GET /api/state?after=N}: held, like a wait, until the revision is not {@code N}, then
   * the state; the state unchanged, with the same revision, when the time-out passes.
   */
  void changeAfter(
      String afterParam,
      boolean brief,
      Token token,
      Request request,
      Response response,
      Callback callback)
      throws ApiError {
    long after;
    try {
      after = Long.parseLong(afterParam.strip());
    } catch (NumberFormatException e) {
      throw ApiError.badRequest("after must be a revision: a whole number, as /api/state gave it");
    }
    if (after < 0) {
      throw ApiError.badRequest("after must be a revision: 0 or more");
    }
    long millis = Requests.timeoutMillis(request);
    this.<Long>hold(
        "state after " + after,
        token,
        () -> sessions.changedAfter(after, millis),
        revision -> answers.state(brief),
        request,
        response,
        callback);
  }

  /** Starts what a held request waits for. */
  @FunctionalInterface
  private interface Pending<T> {
    CompletableFuture<T> start() throws ApiError;
  }

  /**
   * Holds the request until {@code pending} completes, then answers what {@code answer} makes of
   * it. It holds no thread, and one of the token's places for held requests; a client that hangs up
   * cancels it.
   */
  private <T> void hold(
      String what,
      Token token,
      Pending<T> start,
      Function<T, Object> answer,
      Request request,
      Response response,
      Callback callback)
      throws ApiError {
    Runnable release = waitQuota.acquire(token.id());
    CompletableFuture<T> pending;
    try {
      pending = start.start();
    } catch (ApiError | RuntimeException e) {
      release.run();
      throw e;
    }
    AutoCloseable watch = () -> {};
    if (!pending.isDone()) {
      // The held request's own timer ends it, not the connection's idle time-out. A client that
      // hangs up ends it at once (the TCP table says so; Jetty would notice only when it writes the
      // answer).
      request.addIdleTimeoutListener(idle -> false);
      request.addFailureListener(failure -> pending.cancel(false));
      ConnectionMetaData connection = request.getConnectionMetaData();
      watch =
          hangUps.watch(
              connection.getLocalSocketAddress(),
              connection.getRemoteSocketAddress(),
              () -> pending.cancel(false));
    }
    AutoCloseable watching = watch;
    pending.whenComplete(
        (outcome, failure) -> {
          release.run();
          try {
            watching.close();
          } catch (Exception e) {
            // removing a map entry does not fail
          }
          if (failure instanceof CancellationException) {
            callback.failed(failure);
          } else if (failure != null) {
            log.error("{} failed", what, failure);
            Answers.error(response, callback, 500, "internal error");
          } else {
            try {
              Answers.ok(response, callback, answer.apply(outcome));
            } catch (RuntimeException e) {
              log.error("the answer to {} failed", what, e);
              Answers.error(response, callback, 500, "internal error");
            }
          }
        });
  }

  @Override
  public void close() {
    hangUps.close();
  }
}
