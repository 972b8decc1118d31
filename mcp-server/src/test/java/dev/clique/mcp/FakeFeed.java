package dev.clique.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.clique.fake.FakeEngine;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code GET /api/state} with the engine's change feed, for {@link FakeEngine}: the state carries a
 * {@code revision}, and {@code ?after=R} is held until the revision passes {@code R} (or its {@code
 * timeout} passes). A held answer sends a blank every 20 ms (leading white space is still JSON), so
 * that a client letting go of it is noticed, and counted in {@link #abandoned}.
 */
final class FakeFeed implements FakeEngine.Reply {
  /** Held requests open now, the most ever open at once, and those the client let go of. */
  final AtomicInteger holding = new AtomicInteger();

  final AtomicInteger mostHeld = new AtomicInteger();
  final AtomicInteger abandoned = new AtomicInteger();

  /** Requests that asked to be held ({@code after=}) and plain reads. */
  final AtomicInteger heldRequests = new AtomicInteger();

  final AtomicInteger plainReads = new AtomicInteger();

  private ObjectNode state = (ObjectNode) Fixtures.contractJson("state.json");
  private long revision = 1;

  /** The state of {@code contract/state.json}, at revision 1. */
  static FakeFeed ofTheContract() {
    return new FakeFeed();
  }

  /** Sets a session's state (a change the feed reports). */
  synchronized FakeFeed setState(String id, String newState) {
    row(id).put("state", newState);
    return changed();
  }

  /** Adds a session, a copy of the shell session under {@code id}. */
  synchronized FakeFeed add(String id) {
    ObjectNode copy = row(Fixtures.SHELL_ID).deepCopy();
    copy.put("id", id);
    copy.put("name", "added");
    ((ArrayNode) state.get("sessions")).add(copy);
    return changed();
  }

  /** Removes a session. */
  synchronized FakeFeed remove(String id) {
    ArrayNode sessions = (ArrayNode) state.get("sessions");
    for (int i = 0; i < sessions.size(); i++) {
      if (sessions.get(i).path("id").asText().equals(id)) {
        sessions.remove(i);
        return changed();
      }
    }
    throw new IllegalArgumentException("no session " + id);
  }

  private FakeFeed changed() {
    revision++;
    notifyAll();
    return this;
  }

  private ObjectNode row(String id) {
    for (JsonNode row : state.get("sessions")) {
      if (row.path("id").asText().equals(id)) {
        return (ObjectNode) row;
      }
    }
    throw new IllegalArgumentException("no session " + id);
  }

  private synchronized byte[] body() {
    ObjectNode answer = state.deepCopy();
    answer.put("revision", revision);
    return answer.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void send(HttpExchange exchange) throws IOException {
    Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    if (!query.containsKey("after")) {
      plainReads.incrementAndGet();
      byte[] bytes = body();
      exchange.sendResponseHeaders(200, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
      return;
    }
    heldRequests.incrementAndGet();
    long after = Long.parseLong(query.get("after"));
    double seconds = Double.parseDouble(query.getOrDefault("timeout", "60"));
    long deadline = System.nanoTime() + (long) (seconds * 1e9);
    exchange.sendResponseHeaders(200, 0);
    OutputStream out = exchange.getResponseBody();
    int now = holding.incrementAndGet();
    mostHeld.accumulateAndGet(now, Math::max);
    try {
      while (System.nanoTime() < deadline) {
        synchronized (this) {
          if (revision > after) {
            break;
          }
          wait(20);
        }
        out.write(' ');
        out.flush();
      }
      out.write(body());
      out.close();
    } catch (IOException e) {
      abandoned.incrementAndGet();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      holding.decrementAndGet();
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> query = new HashMap<>();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        int equals = pair.indexOf('=');
        if (equals > 0) {
          query.put(pair.substring(0, equals), pair.substring(equals + 1));
        }
      }
    }
    return query;
  }
}
