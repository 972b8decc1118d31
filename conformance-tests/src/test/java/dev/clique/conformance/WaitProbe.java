package dev.clique.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code wait} held on one session at all times, as a client that waits for "anything but what it
 * is now" would hold it: each answer is noted with when it came, and the next wait is for every
 * other state. The real-CLI suites compare these answers with when {@code /api/state} first showed
 * a state: a wait must answer within {@link #WITHIN} of it.
 */
final class WaitProbe implements AutoCloseable {
  /** How soon after {@code /api/state} shows a state a wait for it must have answered. */
  static final Duration WITHIN = Duration.ofMillis(300);

  private static final List<String> STATES =
      List.of("working", "waiting", "error", "idle", "stopped");

  /** One answer of a wait that matched: the state, and when it reached the client. */
  record Answer(String state, long nanos) {}

  private final ThrowawayEngine engine;
  private final String token;
  private final String id;
  private final List<Answer> answers = new ArrayList<>();
  private final Thread thread;
  private volatile boolean closed;
  private volatile String failure;

  private WaitProbe(ThrowawayEngine engine, String token, String id) {
    this.engine = engine;
    this.token = token;
    this.id = id;
    this.thread = new Thread(this::run, "wait-probe-" + id);
    thread.setDaemon(true);
  }

  /** Starts holding waits on session {@code id}; the first answers at once with its state now. */
  static WaitProbe start(ThrowawayEngine engine, String token, String id) {
    WaitProbe probe = new WaitProbe(engine, token, id);
    probe.thread.start();
    return probe;
  }

  /**
   * How many ms after {@code seenNanos} (when {@code /api/state} answered with {@code state} for
   * the first time) a wait answered {@code state}: 0 or less when a wait had answered it already.
   * Waits until {@link #WITHIN} past {@code seenNanos} if need be; {@code null} when none did.
   */
  Long lagMillis(String state, long seenNanos) throws InterruptedException {
    long limit = seenNanos + WITHIN.toNanos();
    synchronized (answers) {
      while (true) {
        Long lag = lag(state, seenNanos, Math.min(limit, System.nanoTime()));
        long left = limit - System.nanoTime();
        if (lag != null || left <= 0) {
          return lag;
        }
        answers.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
      }
    }
  }

  /**
   * How many ms after {@code sinceNanos} a wait answered {@code state} (0 or less: it had, and it
   * still held then); {@code null} when none has yet.
   */
  Long answeredMillis(String state, long sinceNanos) {
    synchronized (answers) {
      return lag(state, sinceNanos, System.nanoTime());
    }
  }

  /**
   * The lag of the answer of {@code state} that holds at {@code seenNanos}, or came by {@code
   * until}.
   */
  private Long lag(String state, long seenNanos, long until) {
    Answer before = null;
    Answer after = null;
    for (Answer answer : answers) {
      if (answer.nanos() <= seenNanos) {
        before = answer;
      } else if (after == null && answer.nanos() <= until && answer.state().equals(state)) {
        after = answer;
      }
    }
    if (before != null && before.state().equals(state)) {
      return -TimeUnit.NANOSECONDS.toMillis(seenNanos - before.nanos());
    }
    return after == null ? null : TimeUnit.NANOSECONDS.toMillis(after.nanos() - seenNanos);
  }

  /** Why the probe stopped holding waits, if it did; null while it holds them. */
  String failure() {
    return failure;
  }

  /** The answers so far, for a failure's message. */
  List<Answer> answers() {
    synchronized (answers) {
      return List.copyOf(answers);
    }
  }

  private void run() {
    List<String> wanted = STATES;
    while (!closed) {
      try {
        HttpResponse<String> answer =
            engine.get(
                "/api/sessions/" + id + "/wait?for=" + String.join(",", wanted) + "&timeout=5",
                token);
        long at = System.nanoTime();
        if (answer.statusCode() != 200) {
          failure = "wait answered " + answer.statusCode() + ": " + answer.body();
          return;
        }
        JsonNode body = ThrowawayEngine.json(answer.body());
        if (body.path("matched").asBoolean()) {
          String state = body.path("state").asText();
          synchronized (answers) {
            answers.add(new Answer(state, at));
            answers.notifyAll();
          }
          List<String> others = new ArrayList<>(STATES);
          others.remove(state);
          wanted = others;
        }
      } catch (IOException e) {
        if (!closed) {
          failure = "wait failed: " + e;
        }
        return;
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
  }
}
