package dev.clique.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * One session's states as the engine's change feed told them ({@code GET /api/state?after=R}, the
 * feed {@code clique mcp} follows), each with its revision and how long after the trail began: for
 * a failure's message, to tell a state the engine never reached from a change nobody heard of.
 */
final class StateTrail implements AutoCloseable {
  private final ThrowawayEngine engine;
  private final String token;
  private final String id;
  private final long began = System.nanoTime();
  private final List<String> states = new ArrayList<>(); // guarded by this
  private final Thread thread;
  private volatile boolean closed;

  private StateTrail(ThrowawayEngine engine, String token, String id) {
    this.engine = engine;
    this.token = token;
    this.id = id;
    this.thread = new Thread(this::follow, "state-trail-" + id);
    thread.setDaemon(true);
  }

  static StateTrail follow(ThrowawayEngine engine, String token, String id) {
    StateTrail trail = new StateTrail(engine, token, id);
    trail.thread.start();
    return trail;
  }

  /** Each state the feed told, as {@code state@revision+millis}, in order. */
  synchronized List<String> states() {
    return List.copyOf(states);
  }

  private void follow() {
    long revision = -1;
    String last = null;
    while (!closed) {
      try {
        HttpResponse<String> answer =
            engine.get(
                revision < 0 ? "/api/state" : "/api/state?after=" + revision + "&timeout=5", token);
        if (answer.statusCode() != 200) {
          record("(answered " + answer.statusCode() + ")");
          Thread.sleep(200);
          continue;
        }
        JsonNode state = ThrowawayEngine.json(answer.body());
        revision = state.path("revision").asLong();
        String now = "(no row)";
        for (JsonNode session : state.path("sessions")) {
          if (session.path("id").asText().equals(id)) {
            now = session.path("state").asText();
          }
        }
        if (!now.equals(last)) {
          last = now;
          record(now + "@" + revision);
        }
      } catch (InterruptedException e) {
        return;
      } catch (Exception e) {
        record("(" + e + ")");
        return;
      }
    }
  }

  private synchronized void record(String what) {
    states.add(what + "+" + (System.nanoTime() - began) / 1_000_000 + "ms");
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
  }
}
