package dev.clique.engine.testing;

import dev.clique.engine.tmux.Activity;
import dev.clique.engine.tmux.Foreground;
import dev.clique.engine.tmux.HomeMark;
import dev.clique.engine.tmux.PaneInfo;
import dev.clique.engine.tmux.PaneProcess;
import dev.clique.engine.tmux.Tmux;
import dev.clique.engine.tmux.TmuxException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tmux in memory for unit tests: sessions are plain objects a test prints into, and every call is
 * counted. The real driver is exercised against real tmux in the {@code *IT} tests.
 */
public final class FakeTmux implements Tmux {
  private final Clock clock;
  private final Map<String, FakePane> sessions = new LinkedHashMap<>();
  private final List<String> calls = new ArrayList<>();
  private final AtomicInteger listCalls = new AtomicInteger();
  private final AtomicInteger captureCalls = new AtomicInteger();
  private long nextPid = 1000;
  private boolean stamped; // whether activity() gives stamps, as a server with a control client
  private long moves; // what the server has done, as a stamp: anything a listing could show
  private int listingsToFail;

  public FakeTmux(Clock clock) {
    this.clock = clock;
  }

  /** One fake pane. */
  public static final class FakePane {
    public final String name;
    public final Path cwd;
    public final List<String> argv;
    public final Map<String, String> env;
    public final long pid;
    public final List<String> typed = new ArrayList<>();
    public volatile String screen = "";
    public volatile String history = "";
    public volatile Foreground foreground = Foreground.SHELL;
    public volatile String command = "bash";

    /** The processes under the pane's, as {@link Tmux#descendants} gives them. */
    public volatile Map<Long, PaneProcess> descendants = Map.of();

    public volatile long rss = 4096;

    /** Whether typed text shows on the screen, as a terminal echoes it. */
    public volatile boolean echoes = true;

    /** The home its session is marked as belonging to. */
    public volatile HomeMark home = HomeMark.NONE;

    volatile long activity;
    volatile long historySize;
    volatile int cursorY;

    FakePane(String name, Path cwd, List<String> argv, Map<String, String> env, long pid) {
      this.name = name;
      this.cwd = cwd;
      this.argv = List.copyOf(argv);
      this.env = Map.copyOf(env);
      this.pid = pid;
    }
  }

  public synchronized FakePane pane(String name) {
    FakePane pane = sessions.get(name);
    if (pane == null) {
      throw new IllegalStateException("no fake session " + name);
    }
    return pane;
  }

  /**
   * From now on {@link #activity()} stamps what the server has done, as the real driver's does with
   * its control client: the watcher then lists the panes only when the stamp moved.
   */
  public synchronized void stampActivity() {
    stamped = true;
  }

  /**
   * The next {@code count} listings fail, as one does against a server that ends as it is asked.
   */
  public synchronized void failListings(int count) {
    listingsToFail = count;
  }

  @Override
  public synchronized Activity activity() {
    return stamped ? new Activity("moves " + moves) : null;
  }

  /** The pane prints {@code text}: its screen shows it and its output mark moves. */
  public synchronized void print(String name, String text) {
    moves++;
    FakePane pane = pane(name);
    pane.screen = text;
    pane.history = pane.history + text;
    pane.activity = clock.millis() / 1000;
    pane.historySize++;
    pane.cursorY = (pane.cursorY + 1) % 50;
  }

  /** The pane redraws the same text in place: only tmux's activity second moves. */
  public synchronized void redraw(String name) {
    moves++;
    pane(name).activity = clock.millis() / 1000;
  }

  /** Kills a session behind the engine's back, as {@code tmux kill-session} from a terminal. */
  public synchronized void killFromOutside(String name) {
    moves++;
    sessions.remove(name);
  }

  public synchronized List<String> calls() {
    return List.copyOf(calls);
  }

  public int listCalls() {
    return listCalls.get();
  }

  public int captureCalls() {
    return captureCalls.get();
  }

  @Override
  public String socket() {
    return "fake";
  }

  @Override
  public boolean installed() {
    return true;
  }

  @Override
  public synchronized void newSession(
      String name, Path cwd, List<String> argv, Map<String, String> env, HomeMark home)
      throws TmuxException {
    if (sessions.containsKey(name)) {
      throw new TmuxException("tmux new-session failed: duplicate session: " + name);
    }
    calls.add("new-session " + name);
    moves++;
    FakePane pane = new FakePane(name, cwd, argv, env, nextPid++);
    pane.activity = clock.millis() / 1000;
    pane.home = home;
    sessions.put(name, pane);
  }

  @Override
  public synchronized void markHome(String name, HomeMark home) throws TmuxException {
    require(name).home = home;
  }

  @Override
  public synchronized HomeMark home(String name) throws TmuxException {
    return require(name).home;
  }

  @Override
  public synchronized Path workingDirectory(String name) throws TmuxException {
    return require(name).cwd;
  }

  @Override
  public synchronized void sendText(String name, String text) throws TmuxException {
    FakePane pane = require(name);
    pane.typed.add("text:" + text);
    if (pane.echoes) {
      pane.screen = pane.screen + text;
    }
    calls.add("send-keys -l " + text);
    moves++;
  }

  @Override
  public synchronized void sendKey(String name, String key) throws TmuxException {
    require(name).typed.add("key:" + key);
    calls.add("send-keys " + key);
    moves++;
  }

  @Override
  public synchronized void killSession(String name) {
    calls.add("kill-session " + name);
    moves++;
    sessions.remove(name);
  }

  @Override
  public synchronized List<PaneInfo> listPanes() throws TmuxException {
    listCalls.incrementAndGet();
    if (listingsToFail > 0) {
      listingsToFail--;
      throw new TmuxException("tmux list-panes failed: server exited unexpectedly");
    }
    List<PaneInfo> panes = new ArrayList<>();
    for (FakePane pane : sessions.values()) {
      panes.add(
          new PaneInfo(
              pane.name,
              pane.command,
              pane.activity,
              200,
              50,
              false,
              pane.pid,
              false,
              -1,
              -1,
              pane.historySize,
              0,
              pane.cursorY,
              "",
              pane.home.id()));
    }
    return panes;
  }

  @Override
  public synchronized String capturePane(String name, int lines) throws TmuxException {
    captureCalls.incrementAndGet();
    return require(name).history;
  }

  @Override
  public synchronized String captureScreen(String name) throws TmuxException {
    captureCalls.incrementAndGet();
    return require(name).screen;
  }

  @Override
  public synchronized Foreground foreground(PaneInfo pane) {
    FakePane fake = sessions.get(pane.session());
    return fake == null ? Foreground.UNKNOWN : fake.foreground;
  }

  @Override
  public synchronized Map<Long, PaneProcess> descendants(PaneInfo pane) {
    FakePane fake = sessions.get(pane.session());
    return fake == null ? Map.of() : fake.descendants;
  }

  @Override
  public Map<String, String> environment(long panePid, Set<String> names) {
    return null; // no process behind a fake pane
  }

  @Override
  public Map<String, List<Long>> processesMarked(String name) {
    return Map.of(); // no process behind a fake pane
  }

  @Override
  public synchronized Map<Long, Long> residentBytes(Collection<Long> panePids) {
    Map<Long, Long> answer = new HashMap<>();
    for (FakePane pane : sessions.values()) {
      if (panePids.contains(pane.pid)) {
        answer.put(pane.pid, pane.rss);
      }
    }
    return answer;
  }

  @Override
  public synchronized void killServer() {
    sessions.clear();
  }

  private FakePane require(String name) throws TmuxException {
    FakePane pane = sessions.get(name);
    if (pane == null) {
      throw new TmuxException("can't find session: " + name, true);
    }
    return pane;
  }
}
