package dev.clique.engine.session;

import dev.clique.engine.tmux.Tmux;
import dev.clique.engine.tmux.TmuxException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A session's processes: its pane's process tree, and every process whose start environment carries
 * the session's marker though it left the tree (a daemon forked twice, a {@code setsid} job).
 */
final class SessionProcesses {
  private static final Logger log = LoggerFactory.getLogger(SessionProcesses.class);

  /** How long a session's processes have after SIGTERM before SIGKILL. */
  private static final long KILL_GRACE_NANOS = 1_500_000_000L;

  private final Tmux tmux;
  private final SessionWatcher watcher;

  SessionProcesses(Tmux tmux, SessionWatcher watcher) {
    this.tmux = tmux;
    this.watcher = watcher;
  }

  /**
   * Ends the session's processes, not only its tmux session: a CLI may ignore the hangup tmux sends
   * its pane (Gemini CLI's node and its re-executed child both do, and live on under init). The
   * tree is taken before tmux lets go of it; what is left gets SIGTERM, then SIGKILL.
   */
  void end(String id) {
    List<ProcessHandle> tree = tree(id);
    for (long pid :
        tmux.processesMarked(SessionWatcher.SESSION_MARKER).getOrDefault(id, List.of())) {
      if (tree.stream().noneMatch(p -> p.pid() == pid)) {
        ProcessHandle.of(pid)
            .ifPresent(
                stray -> {
                  log.info("pid {} of session {} left its process tree: ending it too", pid, id);
                  tree.add(stray);
                });
      }
    }
    try {
      tmux.killSession(id);
    } catch (TmuxException e) {
      log.warn("tmux kill-session failed: {}", e.getMessage());
    }
    tree.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + KILL_GRACE_NANOS;
    for (ProcessHandle process : tree) {
      long left = deadline - System.nanoTime();
      try {
        if (left > 0) {
          process.onExit().get(left, TimeUnit.NANOSECONDS);
        }
      } catch (TimeoutException | ExecutionException e) {
        // still alive: killed below
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      if (process.isAlive()) {
        log.info("pid {} of session {} outlived SIGTERM: killing it", process.pid(), id);
        process.destroyForcibly();
      }
    }
  }

  /** The pane's process and all its descendants, as they are now. */
  private List<ProcessHandle> tree(String id) {
    SessionWatcher.Live live = watcher.snapshot().live().get(id);
    if (live == null || !live.alive() || live.pane().pid() <= 0) {
      return new ArrayList<>(); // a dead pane's pid may be another process's by now
    }
    List<ProcessHandle> all = new ArrayList<>();
    ProcessHandle.of(live.pane().pid())
        .ifPresent(
            root -> {
              all.add(root);
              root.descendants().forEach(all::add);
            });
    return all;
  }
}
