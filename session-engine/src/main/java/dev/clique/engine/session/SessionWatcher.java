package dev.clique.engine.session;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.state.Report;
import dev.clique.engine.state.Signal;
import dev.clique.engine.state.StateDetector;
import dev.clique.engine.state.Verdict;
import dev.clique.engine.tmux.PaneInfo;
import dev.clique.engine.tmux.Tmux;
import dev.clique.engine.tmux.TmuxException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the live snapshot of every session that {@code GET /api/state} is served from, and wakes
 * the waits a change ends. One thread looks every {@value #TICK_MILLIS} ms:
 *
 * <ul>
 *   <li>one {@code list-panes -a} for all panes, every {@value #LIST_HOT_MILLIS} ms while anything
 *       moves (a pane busy, a shell running or just given a command) and every {@value
 *       #LIST_CALM_MILLIS} ms otherwise: output shows as a change of the pane's output mark;
 *   <li>for shells that run or were just given a command, who holds the terminal, on every tick (a
 *       file read, no process): this is what ends a wait for {@code idle} right after the command
 *       exits;
 *   <li>a capture of the visible screen only for the few sessions that need one (fallen quiet, or
 *       proving a long stretch of output).
 * </ul>
 *
 * <p>Memory and git status are slower facts: another thread gathers them every few seconds.
 */
final class SessionWatcher implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SessionWatcher.class);
  static final long TICK_MILLIS = 50;
  static final long LIST_HOT_MILLIS = 200;
  static final long LIST_CALM_MILLIS = 500;
  static final long STATS_MILLIS = 5_000;
  static final long GIT_EVERY = 2; // stats rounds
  private static final Duration GIT_TIMEOUT = Duration.ofSeconds(5);

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
   * @param rss resident bytes of each session's processes (its tree and those that left it), by
   *     session id
   * @param detached by session id, the processes that carry its marker outside its pane's tree
   * @param git by working directory
   */
  record Snapshot(
      Map<String, Live> live,
      Map<String, Long> rss,
      Map<String, List<Long>> detached,
      Map<String, GitStatus> git) {
    static final Snapshot EMPTY = new Snapshot(Map.of(), Map.of(), Map.of(), Map.of());
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
  private final ScheduledExecutorService watch = daemon("session-watch");
  private final ScheduledExecutorService stats = daemon("session-stats");
  private final AtomicLong listSeq = new AtomicLong();
  private final Object lock = new Object();
  private long appliedSeq; // guarded by lock
  private Map<String, PaneInfo> panes = Map.of(); // guarded by lock
  private List<String> tracked = List.of(); // guarded by lock
  private volatile Snapshot snapshot = Snapshot.EMPTY; // replaced under lock
  private long nextListAt; // watch thread only
  private long statsRounds; // stats thread only
  private volatile boolean listSoon;

  SessionWatcher(
      Tmux tmux,
      StateDetector detector,
      Supplier<List<SessionRecord>> records,
      CliCatalogue catalogue,
      WaitRegistry waits,
      Runnable published,
      Clock clock) {
    this.tmux = tmux;
    this.detector = detector;
    this.records = records;
    this.catalogue = catalogue;
    this.waits = waits;
    this.published = published;
    this.clock = clock;
  }

  void start() {
    refreshNow();
    watch.scheduleWithFixedDelay(this::tick, TICK_MILLIS, TICK_MILLIS, TimeUnit.MILLISECONDS);
    stats.scheduleWithFixedDelay(this::gatherStats, 0, STATS_MILLIS, TimeUnit.MILLISECONDS);
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

  /** Something was typed into session {@code id}. */
  void input(String id) {
    detector.input(id);
    listSoon = true;
    publish();
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
        snapshot =
            new Snapshot(
                Collections.unmodifiableMap(next),
                snapshot.rss(),
                snapshot.detached(),
                snapshot.git());
      }
    }
    published.run();
    for (String[] change : changes) {
      waits.changed(change[0], change[1]);
    }
  }

  /** One look: the watch thread calls it every tick; tests call it by hand. */
  void tick() {
    try {
      long now = clock.millis();
      List<String> ids = track();
      // A pending wait alone does not make it hot: what ends a wait on a calm session is seen at
      // the calm pace, and input from the API marks its session at once.
      boolean hot = listSoon;
      for (int i = 0; i < ids.size() && !hot; i++) {
        hot = detector.settling(ids.get(i));
      }
      boolean listed = false;
      if (listSoon || now >= nextListAt) {
        listSoon = false;
        list();
        listed = true;
        nextListAt = now + (hot ? LIST_HOT_MILLIS : LIST_CALM_MILLIS);
      }
      Map<String, PaneInfo> current;
      synchronized (lock) {
        current = panes;
      }
      for (String id : ids) {
        PaneInfo pane = current.get(id);
        // A shell that may give the terminal back any moment is probed on every tick; the others
        // when the panes are listed (a session stopping shows there too).
        if (pane != null && detector.wantsForeground(id) && (listed || detector.settling(id))) {
          detector.foreground(id, tmux.foreground(pane));
        }
      }
      for (String id : ids) {
        if (detector.needsScreen(id)) {
          capture(id);
        }
      }
      publish();
    } catch (RuntimeException e) {
      log.warn("watching the sessions failed once", e);
    }
  }

  private List<String> track() {
    List<SessionRecord> all = records.get();
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
    }
    return ids;
  }

  private void list() {
    long seq = listSeq.incrementAndGet();
    List<PaneInfo> listed;
    try {
      listed = tmux.listPanes();
    } catch (TmuxException e) {
      log.debug("tmux list-panes failed: {}", e.getMessage());
      return;
    }
    synchronized (lock) {
      if (seq <= appliedSeq) {
        return; // a newer look was applied meanwhile
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
    }
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

  private void gatherStats() {
    gatherStats(statsRounds++ % GIT_EVERY == 0);
  }

  /** Gathers memory and git status now (tests; the stats thread does it every few seconds). */
  void gatherStatsNow() {
    gatherStats(true);
  }

  private void gatherStats(boolean withGit) {
    try {
      Map<Long, String> byPid = new HashMap<>();
      for (Map.Entry<String, Live> entry : snapshot.live().entrySet()) {
        if (entry.getValue().alive()) {
          byPid.put(entry.getValue().pane().pid(), entry.getKey());
        }
      }
      Map<String, Long> rss = new HashMap<>();
      tmux.residentBytes(byPid.keySet()).forEach((pid, bytes) -> rss.put(byPid.get(pid), bytes));
      Map<String, List<Long>> detached = detached(byPid);
      detached.forEach(
          (id, pids) ->
              tmux.residentBytes(pids).values().forEach(bytes -> rss.merge(id, bytes, Long::sum)));
      Map<String, GitStatus> git = null;
      if (withGit) {
        git = new HashMap<>();
        for (SessionRecord record : records.get()) {
          if (!git.containsKey(record.cwd())) {
            git.put(record.cwd(), GitStatus.of(Path.of(record.cwd()), GIT_TIMEOUT));
          }
        }
        catalogue.refreshInstalled();
      }
      synchronized (lock) {
        Snapshot now = snapshot;
        Map<String, GitStatus> nextGit = git == null ? now.git() : git;
        if (!rss.equals(now.rss())
            || !detached.equals(now.detached())
            || !nextGit.equals(now.git())) {
          snapshot =
              new Snapshot(now.live(), Map.copyOf(rss), Map.copyOf(detached), Map.copyOf(nextGit));
        }
      }
    } catch (RuntimeException e) {
      log.warn("gathering memory and git status failed once", e);
    }
  }

  /**
   * By session, the processes with its marker that are not in its pane's tree (a daemon a CLI
   * forked away): outermost only, since the memory of each counts its own descendants.
   */
  private Map<String, List<Long>> detached(Map<Long, String> byPid) {
    Map<String, Long> paneOf = new HashMap<>();
    byPid.forEach((pid, id) -> paneOf.put(id, pid));
    Map<String, List<Long>> detached = new HashMap<>();
    tmux.processesMarked(SESSION_MARKER)
        .forEach(
            (id, pids) -> {
              Long pane = paneOf.get(id);
              if (pane == null) {
                return; // not a live session of this engine's
              }
              Set<Long> marked = Set.copyOf(pids);
              for (long pid : pids) {
                Optional<Long> parent =
                    ProcessHandle.of(pid).flatMap(ProcessHandle::parent).map(ProcessHandle::pid);
                boolean inTree = pid == pane || isDescendant(pid, pane);
                if (!inTree && !(parent.isPresent() && marked.contains(parent.get()))) {
                  detached.computeIfAbsent(id, k -> new ArrayList<>()).add(pid);
                }
              }
            });
    return detached;
  }

  private static boolean isDescendant(long pid, long ancestor) {
    Optional<ProcessHandle> at = ProcessHandle.of(pid).flatMap(ProcessHandle::parent);
    for (int depth = 0; at.isPresent() && depth < 64; depth++) {
      if (at.get().pid() == ancestor) {
        return true;
      }
      at = at.get().parent();
    }
    return false;
  }

  @Override
  public void close() {
    watch.shutdownNow();
    stats.shutdownNow();
  }

  private static ScheduledExecutorService daemon(String name) {
    return Executors.newSingleThreadScheduledExecutor(
        r -> {
          Thread thread = new Thread(r, name);
          thread.setDaemon(true);
          return thread;
        });
  }
}
