package dev.clique.engine.session;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.state.Report;
import dev.clique.engine.state.Signal;
import dev.clique.engine.state.StateDetector;
import dev.clique.engine.state.Verdict;
import dev.clique.engine.tmux.Activity;
import dev.clique.engine.tmux.PaneInfo;
import dev.clique.engine.tmux.Tmux;
import dev.clique.engine.tmux.TmuxException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the live snapshot of every session that {@code GET /api/state} is served from, and wakes
 * the waits a change ends. It looks at tmux only when tmux did something: one thread asks the
 * server what it has done ({@link Tmux#activity()}: two reads under {@code /proc}, no process)
 * every {@value #CALM_TICK_MILLIS} ms while every session's state is settled, and every {@value
 * #TICK_MILLIS} ms while one settles; and lists the panes (one command through tmux's control
 * client) only when that moved, or input was sent:
 *
 * <ul>
 *   <li>output shows as a change of the pane's output mark;
 *   <li>for shells that run or were just given a command, who holds the terminal, on every tick (a
 *       file read, no process): this is what ends a wait for {@code idle} right after the command
 *       exits;
 *   <li>a capture of the visible screen only for the few sessions that need one (fallen quiet, or
 *       proving a long stretch of output).
 * </ul>
 *
 * <p>A server that cannot tell what it did (no control client, no {@code /proc}) is listed every
 * {@value #LIST_HOT_MILLIS} ms while anything moves and every {@value #LIST_CALM_MILLIS} ms
 * otherwise, as before there was a way to know. Memory and git status are slower facts, gathered
 * when an answer needs them ({@link SlowFacts}).
 */
final class SessionWatcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SessionWatcher.class);
  static final long TICK_MILLIS = 50;
  static final long CALM_TICK_MILLIS = 500;
  static final long LIST_HOT_MILLIS = 200;
  static final long LIST_CALM_MILLIS = 500;

  /** One session as the snapshot holds it: its pane (null when none) and the verdict. */
  record Live(PaneInfo pane, Verdict verdict) {
    boolean alive() {
      return pane != null && !pane.dead();
    }
  }

  /**
   * What is known of every session now; a new instance only when something in it changed, so a
   * reader can tell a change by identity.
   *
   * @param live by session id
   */
  record Snapshot(Map<String, Live> live) {
    static final Snapshot EMPTY = new Snapshot(Map.of());
  }

  /** The variable every process of a session inherits: its id. */
  static final String SESSION_MARKER = "CLIQUE_SESSION";

  private final Tmux tmux;
  private final StateDetector detector;
  private final Supplier<List<SessionRecord>> records;
  private final CliCatalogue catalogue;
  private final WaitRegistry waits;
  private final Runnable published;
  private final Clock clock;
  // A plain thread that waits on a monitor: an idle engine's only wake-ups are this thread's, and
  // a scheduled executor's queue and locks cost more than the look itself on every one of them.
  private final Thread watch = new Thread(this::watch, "session-watch");
  private final Object wake = new Object();
  private boolean wakeNow; // guarded by wake
  private final AtomicLong listSeq = new AtomicLong();
  private final Object lock = new Object();
  private long appliedSeq; // guarded by lock
  private Map<String, PaneInfo> panes = Map.of(); // guarded by lock
  private List<String> tracked = List.of(); // guarded by lock
  private List<SessionRecord> trackedRecords = List.of(); // guarded by lock
  private volatile Snapshot snapshot = Snapshot.EMPTY; // replaced under lock
  private long nextListAt; // watch thread only
  private Activity seen; // watch thread only: the server's activity at the last look

  /** How long a pane no record names is left to the engine that is recording it. */
  static final long STRANGER_GRACE_MILLIS = 10_000;

  /** How often a send held back by a CLI that starts itself anew asks whether it has. */
  static final long RELAUNCH_POLL_MILLIS = 25;

  private final Map<String, Long> strangers = new HashMap<>(); // guarded by lock

  /** Strangers of another home, or of none, handed over once: by id, the mark each then had. */
  private final Map<String, String> passedOver = new HashMap<>(); // guarded by lock

  /** The id of this engine's home, which its own sessions are marked with. */
  private final String home;

  private volatile Runnable onStrangers;
  private volatile Runnable strangersSettled;
  private volatile long strangerDueAt; // 0: no pane waits for its grace to end
  private boolean wasHot; // watch thread only
  private volatile boolean listSoon;
  private volatile boolean closed;

  SessionWatcher(
      Tmux tmux,
      StateDetector detector,
      Supplier<List<SessionRecord>> records,
      CliCatalogue catalogue,
      WaitRegistry waits,
      Runnable published,
      Clock clock,
      String home) {
    this.tmux = tmux;
    this.home = home;
    this.detector = detector;
    this.records = records;
    this.catalogue = catalogue;
    this.waits = waits;
    this.published = published;
    this.clock = clock;
  }

  void start() {
    refreshNow();
    watch.setDaemon(true);
    watch.start();
  }

  /** One tick, then the next: soon while a session settles, later while all are settled. */
  private void watch() {
    long delay = TICK_MILLIS;
    try {
      while (!closed) {
        synchronized (wake) {
          long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay);
          long left;
          while (!wakeNow && !closed && (left = until - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.timedWait(wake, left);
          }
          wakeNow = false;
        }
        if (!closed) {
          delay = CALM_TICK_MILLIS;
          try {
            delay = tick() ? TICK_MILLIS : CALM_TICK_MILLIS;
          } catch (Error e) {
            // tick() takes its own exceptions; an error must not end the watching for good.
            log.error("watching the sessions failed once", e);
          }
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // closed
    }
  }

  /** Ticks now, on the watch thread, rather than when the current wait ends. */
  private void tickNow() {
    synchronized (wake) {
      wakeNow = true;
      wake.notifyAll();
    }
  }

  /** How many looks at all panes have been applied: a look after a moment has a larger number. */
  long looks() {
    synchronized (lock) {
      return appliedSeq;
    }
  }

  /** The snapshot: every session the records know. */
  Snapshot snapshot() {
    return snapshot;
  }

  /** Looks at tmux now (on the caller's thread), then publishes: after create, kill, delete. */
  void refreshNow() {
    track();
    list();
    publish();
  }

  /**
   * Waits while session {@code id}'s CLI starts itself anew (what its old screen is sent is lost
   * with it), at most {@code maxMillis}; the watcher's own ticks end the wait.
   */
  void awaitRelaunch(String id, long maxMillis) throws InterruptedException {
    long deadline = System.nanoTime() + maxMillis * 1_000_000;
    while (detector.relaunching(id) && System.nanoTime() < deadline) {
      Thread.sleep(RELAUNCH_POLL_MILLIS);
    }
  }

  /**
   * Something was typed into session {@code id}; {@code submits}: keys that answer what its screen
   * asks (Enter, a choice's digit).
   */
  void input(String id, boolean submits) {
    if (submits && detector.canRelaunch(id)) {
      // Whether the keys answer its trust question decides whether it starts anew: the screen as
      // it is now counts, not the last look (a client may have seen the question first).
      capture(id);
    }
    detector.input(id, submits);
    listSoon = true;
    publish();
    tickNow(); // the keys' echo and the command they start are looked for now
  }

  /** An attention signal for session {@code id}. */
  void attention(String id, Signal signal) {
    detector.attention(id, signal);
    publish();
  }

  /** What session {@code id}'s CLI says of its own state. */
  void report(String id, Report report) {
    detector.report(id, report);
    publish();
  }

  /**
   * Publishes what the detector says now, without looking at tmux; then tells {@code published}
   * (the change feed moves its revision) and wakes the waits the change ends, in that order: a
   * client that a wait wakes finds the revision that change made, not one before it.
   */
  void publish() {
    List<String[]> changes = new ArrayList<>();
    synchronized (lock) {
      Map<String, Live> previous = snapshot.live();
      Map<String, Live> next = new LinkedHashMap<>();
      for (String id : tracked) {
        Live now = new Live(panes.get(id), detector.verdict(id));
        next.put(id, now);
        Live before = previous.get(id);
        if (before == null || before.verdict().state() != now.verdict().state()) {
          changes.add(new String[] {id, now.verdict().state().wireName()});
        }
      }
      if (!next.equals(previous)) {
        snapshot = new Snapshot(Collections.unmodifiableMap(next));
      }
    }
    published.run();
    for (String[] change : changes) {
      waits.changed(change[0], change[1]);
    }
  }

  /**
   * One look: the watch thread calls it every tick; tests call it by hand.
   *
   * @return whether a session settles, and the next look should come soon
   */
  boolean tick() {
    try {
      long now = clock.millis();
      List<String> ids = track();
      // A pending wait alone does not make it hot: what ends a wait on a calm session is seen when
      // tmux does something, and input from the API marks its session at once.
      StateDetector.Pace pace = detector.pace(ids);
      boolean hot = listSoon || pace.settling();
      boolean timed = pace.timed();
      Activity activity = tmux.activity();
      boolean moved = activity == null || !activity.equals(seen);
      // tmux did something: only then can a listing show anything new. Unknown (no stamp, or the
      // last listing failed, so what it would have shown is unseen): on the listing's timer.
      boolean due = activity == null || seen == null ? now >= nextListAt : moved;
      // A pane no record names is looked at again when its grace ends.
      due = due || (strangerDueAt > 0 && now >= strangerDueAt);
      boolean listed = false;
      if (listSoon || due) {
        listSoon = false;
        // A listing that failed (a server ending as it was asked) leaves the change it was to show
        // unseen: it is not taken as seen, or nothing would look again until tmux moves once more.
        listed = list();
        seen = listed ? activity : null;
        nextListAt = now + (hot ? LIST_HOT_MILLIS : LIST_CALM_MILLIS);
      }
      Map<String, PaneInfo> current;
      synchronized (lock) {
        current = panes;
      }
      boolean looked = listed;
      // Nothing listed and nothing settling: no shell may be handing its terminal back, and no
      // CLI is starting itself anew (that settles too), so no session needs a probe.
      for (String id : listed || hot ? ids : List.<String>of()) {
        PaneInfo pane = current.get(id);
        // A shell that may give the terminal back any moment is probed on every tick; the others
        // when the panes are listed (a session stopping shows there too).
        if (pane != null && detector.wantsForeground(id) && (listed || detector.settling(id))) {
          detector.foreground(id, tmux.foreground(pane));
          looked = true;
        }
        if (pane != null && detector.wantsProcesses(id)) {
          detector.processes(id, tmux.descendants(pane));
        }
      }
      for (String id : detector.needingScreen(ids)) {
        // What a shell waits on (its line editor, or a question) counts as of its screen.
        PaneInfo pane = current.get(id);
        if (pane != null && detector.wantsForeground(id)) {
          detector.foreground(id, tmux.foreground(pane));
        }
        capture(id);
        looked = true;
      }
      // A verdict that time alone can turn (work falling quiet, a report not trusted for long) is
      // asked again; a settled one only when something was seen.
      if (looked || hot || wasHot || timed) {
        publish(); // the tick after the last hot one too: what settled is decided by then
      }
      wasHot = hot;
      return hot || listSoon;
    } catch (RuntimeException e) {
      log.warn("watching the sessions failed once", e);
      return false;
    }
  }

  private List<String> track() {
    List<SessionRecord> all = records.get();
    synchronized (lock) {
      if (all == trackedRecords) {
        return tracked; // the same sessions as at the last tick: each is tracked already
      }
      if (all.equals(trackedRecords)) {
        trackedRecords = all; // told by identity from the next tick on
        return tracked;
      }
    }
    List<String> ids = new ArrayList<>(all.size());
    Set<String> known = new HashSet<>();
    for (SessionRecord record : all) {
      detector.track(record.id(), catalogue.find(record.cli()).orElse(null));
      ids.add(record.id());
      known.add(record.id());
    }
    synchronized (lock) {
      for (String id : tracked) {
        if (!known.contains(id)) {
          detector.forget(id);
        }
      }
      tracked = List.copyOf(ids);
      trackedRecords = all;
    }
    return ids;
  }

  /** Lists the panes and applies what tmux says; false when tmux could not say. */
  private boolean list() {
    long seq = listSeq.incrementAndGet();
    List<PaneInfo> listed;
    try {
      listed = tmux.listPanes();
    } catch (TmuxException e) {
      log.debug("tmux list-panes failed: {}", e.getMessage());
      return false;
    }
    synchronized (lock) {
      if (seq <= appliedSeq) {
        return true; // a newer look was applied meanwhile
      }
      appliedSeq = seq;
      Map<String, PaneInfo> byId = new HashMap<>();
      for (PaneInfo pane : listed) {
        byId.put(pane.session(), pane);
      }
      panes = Map.copyOf(byId);
      for (String id : tracked) {
        detector.observe(id, byId.get(id));
      }
      noteStrangers(byId);
    }
    Runnable adopt = strangersSettled;
    if (adopt != null) {
      strangersSettled = null;
      adopt.run();
    }
    return true;
  }

  /**
   * Panes no record names, and since when: a session that another engine on the same home is
   * recording now, or one an engine killed mid-create left. One still unrecorded after {@value
   * #STRANGER_GRACE_MILLIS} ms is handed to {@link #onStrangers}: one of this home again after each
   * grace, one marked as another home's (or unmarked) once for as long as its mark stays, since its
   * mark, not time, decides whose it is.
   */
  private void noteStrangers(Map<String, PaneInfo> byId) {
    long now = clock.millis();
    Set<String> known = new HashSet<>(tracked);
    strangers.keySet().removeIf(id -> !byId.containsKey(id) || known.contains(id));
    passedOver
        .entrySet()
        .removeIf(
            e ->
                !byId.containsKey(e.getKey())
                    || known.contains(e.getKey())
                    || !byId.get(e.getKey()).home().equals(e.getValue()));
    for (PaneInfo pane : byId.values()) {
      String id = pane.session();
      if (pane.dead() || known.contains(id) || passedOver.containsKey(id) || onStrangers == null) {
        continue;
      }
      long since = strangers.computeIfAbsent(id, k -> now);
      if (now - since >= STRANGER_GRACE_MILLIS) {
        if (pane.home().equals(home)) {
          strangers.put(id, now); // asked again only after another grace
        } else {
          strangers.remove(id);
          passedOver.put(id, pane.home());
        }
        strangersSettled = onStrangers;
      }
    }
    long first = strangers.values().stream().mapToLong(Long::longValue).min().orElse(-1);
    strangerDueAt = first < 0 ? 0 : first + STRANGER_GRACE_MILLIS;
  }

  /** What to do with panes no record has named for a while (the engine that owns the home). */
  void onStrangers(Runnable adopt) {
    this.onStrangers = adopt;
  }

  private void capture(String id) {
    try {
      detector.screen(id, tmux.captureScreen(id));
    } catch (TmuxException e) {
      if (e.sessionGone()) {
        listSoon = true;
      } else {
        log.debug("tmux capture-pane failed: {}", e.getMessage());
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    watch.interrupt();
  }
}
