package dev.clique.mcp.resources;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.client.CliqueClient;
import dev.clique.client.EngineState;
import dev.clique.client.Session;
import dev.clique.client.Tokens;
import dev.clique.mcp.protocol.Json;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's change feed, followed while it runs: one held {@code GET /api/state?after=R} at a
 * time, which the engine answers once its revision passes {@code R}; each answer is compared with
 * the one before, and what changed (a session's state, attention or deciding signal; sessions come
 * or gone) goes to the listener. The held request holds no thread here, and stopping cancels it.
 *
 * <p>An engine whose state has no {@code revision} (a CLIque panel, which answers at once) is read
 * again every {@link #PAUSE} instead, and so is one that could not be reached.
 */
final class ChangeFeed implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ChangeFeed.class);

  /** How long the engine holds one request at most: well under its cap of 300 s. */
  static final Duration HOLD = Duration.ofSeconds(60);

  /** Between reads of an engine without a feed, and after a failed read. */
  static final Duration PAUSE = Duration.ofSeconds(2);

  /** An answer at once that says nothing changed is not a hold: pause rather than spin. */
  private static final long AT_ONCE_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** The revision before the first read: that read is a plain one. */
  private static final long NOT_YET = -1;

  /**
   * What changed between two reads of the state.
   *
   * @param sessions the ids of the sessions that came, went, or changed state, attention or
   *     deciding signal
   * @param listChanged whether sessions came or went
   */
  record Changes(Set<String> sessions, boolean listChanged) {
    Changes {
      sessions = Set.copyOf(sessions);
    }

    boolean any() {
      return listChanged || !sessions.isEmpty();
    }
  }

  private final CliqueClient client;
  private final Consumer<Changes> listener;

  // Guarded by this. A new generation begins at each start and stop: answers of an older one are
  // dropped, so a stop is final even for a request already answered.
  private long generation;
  private boolean running;
  private Map<String, String> seen;
  private long revision = NOT_YET;
  private CompletableFuture<EngineState> call;

  ChangeFeed(CliqueClient client, Consumer<Changes> listener) {
    this.client = client;
    this.listener = listener;
  }

  /**
   * Follows the feed from {@code baseline} (a state just read, so that nothing between it and the
   * first held request is missed), unless it already runs; {@code null}: from a first read.
   */
  void start(EngineState baseline) {
    long current;
    synchronized (this) {
      if (running) {
        return;
      }
      running = true;
      current = ++generation;
      seen = baseline == null ? null : fingerprints(baseline);
      revision = baseline == null ? NOT_YET : baseline.revision();
    }
    ask(current);
  }

  /** Stops following: the held request is cancelled, and nothing more reaches the listener. */
  synchronized void stop() {
    running = false;
    generation++;
    if (call != null) {
      call.cancel(true);
      call = null;
    }
  }

  @Override
  public void close() {
    stop();
  }

  /**
   * Asks for the next state. The answer is taken outside this object's lock: one that is already
   * there runs the listener at once, and the listener takes locks of its own.
   */
  private void ask(long current) {
    long asked;
    long startedAt = System.nanoTime();
    CompletableFuture<EngineState> pending;
    synchronized (this) {
      if (current != generation) {
        return;
      }
      asked = revision;
      try {
        pending = asked == NOT_YET ? client.stateAsync() : client.stateAsync(asked, HOLD);
      } catch (RuntimeException e) {
        pending = CompletableFuture.failedFuture(e);
      }
      call = pending;
    }
    pending.whenComplete((state, failure) -> answered(current, asked, startedAt, state, failure));
  }

  private void answered(
      long current, long asked, long startedAt, EngineState state, Throwable failure) {
    Changes changes = null;
    boolean pause;
    synchronized (this) {
      if (current != generation) {
        return;
      }
      call = null;
      if (failure != null) {
        log.debug("the change feed could not be read: {}", Tokens.scrub(failure.toString()));
        pause = true;
      } else {
        Map<String, String> now = fingerprints(state);
        if (seen != null) {
          changes = diff(seen, now);
        }
        seen = now;
        revision = state.revision();
        // A CLIque panel has no feed: it answers at once, always with revision 0.
        pause = revision == asked && System.nanoTime() - startedAt < AT_ONCE_NANOS;
      }
    }
    if (changes != null && changes.any()) {
      listener.accept(changes);
    }
    if (pause) {
      CompletableFuture.delayedExecutor(PAUSE.toMillis(), TimeUnit.MILLISECONDS)
          .execute(() -> ask(current));
    } else {
      ask(current);
    }
  }

  /** What a reader of each session would see change: its state, attention and deciding signal. */
  private static Map<String, String> fingerprints(EngineState state) {
    Map<String, String> fingerprints = new HashMap<>();
    for (Session session : state.sessions()) {
      JsonNode row = Json.readAnswer(session.json());
      fingerprints.put(
          session.id(),
          row.path("state").asText("")
              + '\n'
              + Json.write(row.path("attention").isMissingNode() ? null : row.get("attention"))
              + '\n'
              + row.path("state_source").path("authority").asText(""));
    }
    return fingerprints;
  }

  static Changes diff(Map<String, String> before, Map<String, String> after) {
    Set<String> changed = new LinkedHashSet<>();
    before.forEach(
        (id, fingerprint) -> {
          if (!fingerprint.equals(after.get(id))) {
            changed.add(id);
          }
        });
    for (String id : after.keySet()) {
      if (!before.containsKey(id)) {
        changed.add(id);
      }
    }
    return new Changes(changed, !before.keySet().equals(after.keySet()));
  }
}
