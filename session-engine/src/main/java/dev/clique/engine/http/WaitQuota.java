package dev.clique.engine.http;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many waits (and {@code /api/state?after=} requests, held the same way) may be pending at
 * once, per token and in all: a held request holds a connection, and a read-only token (the one an
 * MCP client holds) must not be able to take every file descriptor the engine has. Over the cap a
 * wait is refused with 503 and {@code Retry-After}; the rest keep working.
 */
final class WaitQuota {
  private final int perToken;
  private final int total;
  private final AtomicInteger all = new AtomicInteger();
  private final Map<String, AtomicInteger> byToken = new ConcurrentHashMap<>();

  WaitQuota(int perToken, int total) {
    this.perToken = perToken;
    this.total = total;
  }

  /**
   * Caps from the descriptors this process may open: waits may hold a quarter of them, and one
   * token a quarter of that, so {@code /healthz} and the other clients always have room.
   */
  static WaitQuota forDescriptors(long maxDescriptors) {
    int total = (int) Math.max(16, Math.min(100_000, maxDescriptors / 4));
    return new WaitQuota(Math.max(8, total / 4), total);
  }

  /** Takes a place for a wait of {@code tokenId}, or says why there is none. */
  Runnable acquire(String tokenId) throws ApiError {
    AtomicInteger mine = byToken.computeIfAbsent(tokenId, k -> new AtomicInteger());
    if (mine.incrementAndGet() > perToken) {
      mine.decrementAndGet();
      throw new ApiError(
          503,
          "this token already has "
              + perToken
              + " pending waits and held state requests, the most it may hold");
    }
    if (all.incrementAndGet() > total) {
      all.decrementAndGet();
      mine.decrementAndGet();
      throw new ApiError(
          503,
          "the engine already holds " + total + " pending waits and held state requests, its most");
    }
    return () -> {
      all.decrementAndGet();
      mine.decrementAndGet();
    };
  }

  int perToken() {
    return perToken;
  }

  int total() {
    return total;
  }
}
