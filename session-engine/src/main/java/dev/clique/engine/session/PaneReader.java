package dev.clique.engine.session;

import dev.clique.engine.tmux.PaneInfo;
import dev.clique.engine.tmux.Tmux;
import dev.clique.engine.tmux.TmuxException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads a session's pane: its last lines (peek), captured again only when the panes changed, and
 * the environment its process was started with, which says where its CLI keeps its conversation.
 */
final class PaneReader {
  /** Peek reads this many history lines per line asked for: blank and frame lines drop out. */
  private static final int PEEK_HISTORY_FACTOR = 4;

  private final SessionStore store;
  private final Tmux tmux;
  private final SessionWatcher watcher;
  private final Map<String, Capture> captures = new ConcurrentHashMap<>();

  /** The last environment read of each session's pane process, kept for when it has exited. */
  private final Map<String, PaneEnvironment> environments = new ConcurrentHashMap<>();

  private record PaneEnvironment(long pid, Set<String> names, Map<String, String> values) {}

  PaneReader(SessionStore store, Tmux tmux, SessionWatcher watcher) {
    this.store = store;
    this.tmux = tmux;
    this.watcher = watcher;
  }

  /**
   * The last {@code lines} lines of the pane as text ({@link PaneText}); a stopped session has
   * none.
   */
  PaneLines peek(String id, int lines) throws SessionException {
    SessionWatcher.Live live = watcher.snapshot().live().get(id);
    if (live != null && live.pane() != null && live.pane().dead()) {
      return lastScreen(id, lines);
    }
    if (live == null || !live.alive()) {
      captures.remove(id);
      return PaneLines.stopped();
    }
    double activity = SessionViews.seconds(live.verdict().lastOutputMillis());
    Capture cached = captures.get(id);
    if (cached != null && cached.fresh(live.pane(), watcher.looks(), lines)) {
      return new PaneLines(cached.last(lines), true, activity);
    }
    long looks = watcher.looks();
    String captured;
    try {
      captured = tmux.capturePane(id, Math.max(lines * PEEK_HISTORY_FACTOR, 100));
    } catch (TmuxException e) {
      // A session that ends while it is read (killed meanwhile) is stopped, not an error.
      watcher.refreshNow();
      SessionWatcher.Live now = watcher.snapshot().live().get(id);
      if (e.sessionGone() || now == null || !now.alive()) {
        captures.remove(id);
        return PaneLines.stopped();
      }
      throw new SessionException(
          SessionException.Kind.FAILED, "the pane could not be read: " + e.getMessage(), e);
    }
    List<String> text = PaneText.lastLines(captured, lines);
    captures.put(id, new Capture(live.pane(), looks, lines, text));
    return new PaneLines(text, true, activity);
  }

  /** What a session that died showed last (tmux keeps its dead pane until it is stopped). */
  private PaneLines lastScreen(String id, int lines) {
    try {
      String captured = tmux.capturePane(id, Math.max(lines * PEEK_HISTORY_FACTOR, 100));
      return new PaneLines(PaneText.lastLines(captured, lines), false, 0);
    } catch (TmuxException e) {
      return PaneLines.stopped();
    }
  }

  /**
   * A pane's text as last captured. It is served again, without a tmux call, only while a look at
   * the panes taken after the capture shows the pane unchanged: peek is then as fresh as the
   * snapshot itself.
   *
   * @param looks the watcher's look count when the capture began
   */
  private record Capture(PaneInfo mark, long looks, int lines, List<String> text) {
    boolean fresh(PaneInfo now, long looksNow, int wanted) {
      return wanted <= lines && looksNow > looks && now.equals(mark);
    }

    List<String> last(int wanted) {
      return text.subList(Math.max(0, text.size() - wanted), text.size());
    }
  }

  /**
   * The values of {@code names} in the environment the session's pane process was started with; the
   * last one read while the process lived, once it has exited; {@code null} when it was never read.
   * Only the names asked for are kept, and only for a stored session.
   */
  Map<String, String> environment(String id, Set<String> names) {
    SessionWatcher.Live live = watcher.snapshot().live().get(id);
    long pid = live == null || live.pane() == null ? 0 : live.pane().pid();
    PaneEnvironment known = environments.get(id);
    if (known != null && known.pid() == pid && known.names().equals(names)) {
      return known.values(); // a process's start environment never changes
    }
    Map<String, String> values = pid > 0 ? tmux.environment(pid, names) : null;
    if (values == null) {
      return known != null && known.names().equals(names) ? known.values() : null;
    }
    Map<String, String> kept = Map.copyOf(values);
    if (store.find(id).isPresent()) {
      environments.put(id, new PaneEnvironment(pid, Set.copyOf(names), kept));
    }
    return kept;
  }

  /** Drops the session's last capture: its pane is about to go. */
  void forgetScreen(String id) {
    captures.remove(id);
  }

  /** Drops all that is kept of the session: it is being deleted. */
  void forget(String id) {
    captures.remove(id);
    environments.remove(id);
  }
}
