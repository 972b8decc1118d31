package dev.clique.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.client.CliqueClient;
import dev.clique.client.Conversation;
import dev.clique.client.EngineState;
import dev.clique.client.Health;
import dev.clique.client.Pane;
import dev.clique.client.Session;
import dev.clique.client.SessionState;
import dev.clique.client.WaitResult;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A {@link CliqueClient} whose asynchronous calls the test answers: each call is recorded with its
 * future, which stays pending until the test (or {@link #answers}) completes it, so a test can see
 * whether the server cancelled it. The sessions routes are answered by a real client against {@link
 * dev.clique.fake.FakeEngine} instead; this fake serves waits, panes and conversations.
 */
final class FakeClient implements CliqueClient {
  /** One call the server made: the route, its arguments, and the future it got. */
  record Call(String route, String id, String detail, CompletableFuture<?> future) {
    /** Completes the call with {@code value} (which must be what the route answers). */
    @SuppressWarnings("unchecked")
    void answer(Object value) {
      ((CompletableFuture<Object>) future).complete(value);
    }
  }

  final List<Call> calls = new CopyOnWriteArrayList<>();
  private volatile Function<Call, Object> answers = call -> null;

  /** Answers every later call at once with what {@code answer} returns (null: leave pending). */
  FakeClient answering(Function<Call, Object> answer) {
    this.answers = answer;
    return this;
  }

  /** Waits until the server has made {@code count} calls (at most 5 s). */
  void awaitCalls(int count) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (calls.size() < count) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(calls.size() + " calls reached the client, not " + count);
      }
      Thread.sleep(2);
    }
  }

  /** A wait's result from {@code json}, as one that ended idle (no attention to look up). */
  static WaitResult waitResult(JsonNode json) {
    ObjectNode idle = json.deepCopy();
    idle.put("state", "idle");
    return WaitResult.fromJson(idle.toString());
  }

  static Pane pane(JsonNode json) {
    return Pane.fromJson(json.toString());
  }

  static Conversation conversation(JsonNode json) {
    return Conversation.fromJson(json.toString());
  }

  @SuppressWarnings("unchecked")
  private <T> CompletableFuture<T> call(String route, String id, String detail) {
    CompletableFuture<T> future = new CompletableFuture<>();
    Call call = new Call(route, id, detail, future);
    calls.add(call);
    Object answer = answers.apply(call);
    if (answer instanceof Throwable failure) {
      future.completeExceptionally(failure);
    } else if (answer != null) {
      future.complete((T) answer);
    }
    return future;
  }

  @Override
  public String baseUrl() {
    return "http://fake.invalid";
  }

  @Override
  public CompletableFuture<WaitResult> waitForAsync(
      String id, Duration timeout, SessionState... states) {
    return call("wait", id, timeout == null ? "" : Long.toString(timeout.toMillis()));
  }

  @Override
  public CompletableFuture<Pane> peekAsync(String id, int lines) {
    return call("peek", id, Integer.toString(lines));
  }

  @Override
  public CompletableFuture<Pane> peekAsync(String id) {
    return call("peek", id, "");
  }

  @Override
  public CompletableFuture<Conversation> conversationAsync(String id) {
    return call("transcript", id, "");
  }

  @Override
  public CompletableFuture<EngineState> stateAsync() {
    return call("state", "", "");
  }

  @Override
  public CompletableFuture<EngineState> listingAsync() {
    return call("listing", "", "");
  }

  @Override
  public CompletableFuture<EngineState> stateAsync(long after, Duration timeout) {
    return call("state", "", after + (timeout == null ? "" : " " + timeout.toMillis()));
  }

  @Override
  public CompletableFuture<List<Session>> sessionsAsync() {
    return call("state", "", "");
  }

  @Override
  public CompletableFuture<Optional<Session>> sessionAsync(String id) {
    return call("state", id, "");
  }

  @Override
  public CompletableFuture<Health> healthAsync() {
    return call("healthz", "", "");
  }
}
