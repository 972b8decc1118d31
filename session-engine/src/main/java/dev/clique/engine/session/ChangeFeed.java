package dev.clique.engine.session;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The revision of what {@code GET /api/state} shows, and the requests held until it moves ({@code
 * ?after=N}). It moves when a session appears or goes away, or a session's state, attention, state
 * source or adoption changes: not on a repaint, nor on the activity, memory or git figures. It
 * starts at the engine's start time in milliseconds, so a restarted engine's revisions are above
 * the ones an earlier engine gave. A held request holds no thread: it is a future in a set and one
 * entry in a timer queue.
 */
public final class ChangeFeed implements AutoCloseable {
  /** What a reader of the state sees change of one session. */
  record Mark(
      String id,
      String state,
      String attentionKind,
      String attentionDetail,
      String sourceAuthority,
      Boolean adopted) {
    static Mark of(SessionView view) {
      return new Mark(
          view.id(),
          view.state(),
          view.attention() == null ? null : view.attention().kind(),
          view.attention() == null ? null : view.attention().detail(),
          view.stateSource() == null ? null : view.stateSource().authority(),
          view.adopted());
    }
  }

  private final ScheduledThreadPoolExecutor timer;
  private final Set<CompletableFuture<Long>> held = ConcurrentHashMap.newKeySet();
  private final List<Runnable> followers = new CopyOnWriteArrayList<>();
  private volatile long revision;
  private List<Mark> seen = List.of(); // guarded by this

  ChangeFeed(long firstRevision) {
    this.revision = firstRevision;
    this.timer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread thread = new Thread(r, "state-feed-timer");
              thread.setDaemon(true);
              return thread;
            });
    this.timer.setRemoveOnCancelPolicy(true);
  }

  /** The revision now. */
  public long revision() {
    return revision;
  }

  /**
   * Completes with the revision once it is not {@code after} (at once when it already is not: a
   * change since, or an engine restarted), or with the same revision when {@code timeoutMillis}
   * pass. Cancelling the future (its client hung up) forgets it.
   */
  public CompletableFuture<Long> after(long after, long timeoutMillis) {
    CompletableFuture<Long> change = new CompletableFuture<>();
    if (revision != after || timeoutMillis <= 0) {
      change.complete(revision);
      return change;
    }
    held.add(change);
    ScheduledFuture<?> timeout =
        timer.schedule(() -> change.complete(revision), timeoutMillis, TimeUnit.MILLISECONDS);
    change.whenComplete(
        (value, failure) -> {
          held.remove(change);
          timeout.cancel(false);
        });
    // The revision may have moved between the look above and the registration.
    if (revision != after) {
      change.complete(revision);
    }
    return change;
  }

  /**
   * Runs {@code follower} after each move of the revision, on the thread that moved it (the
   * watcher's): it must only hand the news on (a flag, a signal), never work there.
   */
  public void follow(Runnable follower) {
    followers.add(follower);
  }

  /** Stops running {@code follower}. */
  public void unfollow(Runnable follower) {
    followers.remove(follower);
  }

  /** How many requests are held now. */
  public int held() {
    return held.size();
  }

  /** What the state shows now, one mark per session: a difference moves the revision. */
  void observe(List<Mark> marks) {
    long moved;
    synchronized (this) {
      if (marks.equals(seen)) {
        return;
      }
      seen = List.copyOf(marks);
      moved = ++revision;
    }
    for (CompletableFuture<Long> change : held) {
      change.complete(moved);
    }
    for (Runnable follower : followers) {
      follower.run();
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    for (CompletableFuture<Long> change : held) {
      change.cancel(false);
    }
  }
}
