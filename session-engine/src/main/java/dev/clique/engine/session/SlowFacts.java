package dev.clique.engine.session;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.discovery.CliVersions;
import dev.clique.engine.tmux.Tmux;
import dev.clique.engine.transcript.UsageReport;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memory, git status, usage and CLI versions of the sessions: slow to gather (a walk of {@code
 * /proc}, a {@code git} process a folder, a read of what each transcript grew by, a {@code
 * package.json} per new process), so gathered only when an answer needs them, and kept a few
 * seconds or until a session's processes change. An answer waits a moment for new facts, and takes
 * the last ones if they are slower; nothing is gathered while nobody asks.
 */
final class SlowFacts implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SlowFacts.class);

  /** How long gathered facts serve answers. */
  static final long FRESH_MILLIS = 3_000;

  /** How long an answer waits for facts being gathered before it takes the last ones. */
  static final long WAIT_MILLIS = 300;

  private static final Duration GIT_TIMEOUT = Duration.ofSeconds(5);

  /**
   * What was gathered, and for which panes.
   *
   * @param rss resident bytes of each session's processes (its tree and those that left it), by id
   * @param detached by session id, the processes that carry its marker outside its pane's tree
   * @param git by working directory
   * @param usage what each session's CLI recorded of its use, by session id (none: left out)
   * @param versions the version of the CLI each session runs, by session id (unknown: left out)
   * @param panes the pane pids, by session id, they were gathered for
   * @param at when, in the clock's milliseconds
   */
  record Facts(
      Map<String, Long> rss,
      Map<String, List<Long>> detached,
      Map<String, GitStatus> git,
      Map<String, UsageReport> usage,
      Map<String, String> versions,
      Map<String, Long> panes,
      long at) {
    static final Facts NONE =
        new Facts(Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), Long.MIN_VALUE);
  }

  private final Tmux tmux;
  private final Supplier<List<SessionRecord>> records;
  private final CliCatalogue catalogue;
  private final Function<SessionRecord, UsageReport> usage;
  private final CliVersions versions;
  private final Clock clock;
  private final ExecutorService worker =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread thread = new Thread(r, "session-facts");
            thread.setDaemon(true);
            return thread;
          });
  private volatile Facts facts = Facts.NONE;
  private CompletableFuture<Facts> gathering; // guarded by this

  SlowFacts(
      Tmux tmux,
      Supplier<List<SessionRecord>> records,
      CliCatalogue catalogue,
      Function<SessionRecord, UsageReport> usage,
      CliVersions versions,
      Clock clock) {
    this.tmux = tmux;
    this.records = records;
    this.catalogue = catalogue;
    this.usage = usage;
    this.versions = versions;
    this.clock = clock;
  }

  /**
   * The facts for the sessions of {@code snapshot}: the kept ones while fresh and gathered for the
   * same panes; else new ones, waited for a moment.
   */
  Facts fresh(SessionWatcher.Snapshot snapshot) {
    Facts kept = facts;
    Map<String, Long> panes = panes(snapshot);
    // Compared so that NONE's "never" (Long.MIN_VALUE) cannot overflow into "just now": an engine
    // whose only sessions have no pane (outside tmux) still gathers their facts.
    if (kept.at() > clock.millis() - FRESH_MILLIS && kept.panes().equals(panes)) {
      return kept;
    }
    try {
      return gather(panes).get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      return kept; // slow this time (a large work tree): the next answer has them
    } catch (ExecutionException e) {
      log.warn("gathering memory and git status failed once", e.getCause());
      return kept;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return kept;
    }
  }

  /** Gathers now, on the caller's thread (tests). */
  Facts gatherNow(SessionWatcher.Snapshot snapshot) {
    facts = compute(panes(snapshot));
    return facts;
  }

  private synchronized CompletableFuture<Facts> gather(Map<String, Long> panes) {
    if (gathering == null || gathering.isDone()) {
      gathering =
          CompletableFuture.supplyAsync(
              () -> {
                Facts gathered = compute(panes);
                facts = gathered;
                return gathered;
              },
              worker);
    }
    return gathering;
  }

  private static Map<String, Long> panes(SessionWatcher.Snapshot snapshot) {
    Map<String, Long> panes = new HashMap<>();
    snapshot
        .live()
        .forEach(
            (id, live) -> {
              if (live.alive()) {
                panes.put(id, live.pane().pid());
              }
            });
    return Map.copyOf(panes);
  }

  private Facts compute(Map<String, Long> watchedPanes) {
    long at = clock.millis();
    List<SessionRecord> all = records.get();
    // A session outside tmux has no pane: its CLI's own process stands for one.
    Map<String, Long> panes = new HashMap<>(watchedPanes);
    for (SessionRecord record : all) {
      if (record.source() != null && record.source().outside()) {
        panes.put(record.id(), record.source().pid());
      }
    }
    Map<Long, String> byPid = new HashMap<>();
    panes.forEach((id, pid) -> byPid.put(pid, id));
    Map<String, Long> rss = new HashMap<>();
    tmux.residentBytes(byPid.keySet()).forEach((pid, bytes) -> rss.put(byPid.get(pid), bytes));
    Map<String, List<Long>> detached = detached(watchedPanes);
    detached.forEach(
        (id, pids) ->
            tmux.residentBytes(pids).values().forEach(bytes -> rss.merge(id, bytes, Long::sum)));
    Map<String, GitStatus> git = new HashMap<>();
    Map<String, UsageReport> used = new HashMap<>();
    Map<String, String> running = new HashMap<>();
    for (SessionRecord record : all) {
      Long pane = panes.get(record.id());
      if (pane != null) {
        versions.running(record.cli(), pane).ifPresent(v -> running.put(record.id(), v));
      }
      if (!git.containsKey(record.cwd())) {
        git.put(record.cwd(), GitStatus.of(Path.of(record.cwd()), GIT_TIMEOUT));
      }
      UsageReport report = usage.apply(record);
      if (!report.equals(UsageReport.NONE)) {
        used.put(record.id(), report);
      }
    }
    catalogue.refreshInstalled();
    return new Facts(
        Map.copyOf(rss),
        Map.copyOf(detached),
        Map.copyOf(git),
        Map.copyOf(used),
        Map.copyOf(running),
        watchedPanes,
        at);
  }

  /**
   * By session, the processes with its marker that are not in its pane's tree (a daemon a CLI
   * forked away): outermost only, since the memory of each counts its own descendants.
   */
  private Map<String, List<Long>> detached(Map<String, Long> panes) {
    if (panes.isEmpty()) {
      return Map.of();
    }
    Map<String, List<Long>> detached = new HashMap<>();
    tmux.processesMarked(SessionWatcher.SESSION_MARKER)
        .forEach(
            (id, pids) -> {
              Long pane = panes.get(id);
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
    worker.shutdownNow();
  }
}
