package dev.clique.engine.session;

import dev.clique.engine.tmux.Activity;
import dev.clique.engine.tmux.Foreground;
import dev.clique.engine.tmux.HomeMark;
import dev.clique.engine.tmux.PaneInfo;
import dev.clique.engine.tmux.PaneProcess;
import dev.clique.engine.tmux.ServerPane;
import dev.clique.engine.tmux.ServerWatch;
import dev.clique.engine.tmux.Tmux;
import dev.clique.engine.tmux.TmuxException;
import dev.clique.engine.tmux.TmuxProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tmux of every session by its clique id: clique's own server for its own sessions, and for a
 * discovered or adopted one the server on that session's socket file, targeted by pane id. The
 * snapshot, peek, wait and send then work alike on both. Only clique's own server ever gets a new
 * session; another's is never started or stopped.
 */
final class SessionTmux implements Tmux {
  private static final Logger log = LoggerFactory.getLogger(SessionTmux.class);

  private final Tmux own;
  private final Function<String, TmuxProcess> servers;
  private final Supplier<Map<String, Source>> foreign;
  private final Supplier<List<ServerWatch>> discovered;

  /** Each person's server's last answered listing, kept for a listing it fails to answer. */
  private final Map<String, List<ServerPane>> lastListed = new ConcurrentHashMap<>();

  /**
   * @param servers the server on a socket file
   * @param foreign the source of every session not on clique's own socket that runs, by id
   * @param discovered how each server discovery looks at is watched
   */
  SessionTmux(
      Tmux own,
      Function<String, TmuxProcess> servers,
      Supplier<Map<String, Source>> foreign,
      Supplier<List<ServerWatch>> discovered) {
    this.own = own;
    this.servers = servers;
    this.foreign = foreign;
    this.discovered = discovered;
  }

  /** Clique's own server first, then each discovered one. */
  @Override
  public List<ServerWatch> watches() {
    List<ServerWatch> all = new ArrayList<>(own.watches());
    for (ServerWatch watch : discovered.get()) {
      if (!watch.socket().equals(own.socket())) {
        all.add(watch);
      }
    }
    return all;
  }

  private record Target(Tmux tmux, String name) {}

  private Target target(String id) {
    Source source = foreign.get().get(id);
    return source == null
        ? new Target(own, id)
        : new Target(servers.apply(source.socket()), source.pane());
  }

  @Override
  public String socket() {
    return own.socket();
  }

  @Override
  public boolean installed() {
    return own.installed();
  }

  @Override
  public void newSession(
      String name, Path cwd, List<String> argv, Map<String, String> env, HomeMark home)
      throws TmuxException {
    own.newSession(name, cwd, argv, env, home);
  }

  /** Clique's own sessions only: a session on another server belongs to no home. */
  @Override
  public void markHome(String name, HomeMark home) throws TmuxException {
    own.markHome(name, home);
  }

  @Override
  public HomeMark home(String name) throws TmuxException {
    return own.home(name);
  }

  @Override
  public OptionalLong clientActivity(String name) throws TmuxException {
    Target target = target(name);
    return target.tmux().clientActivity(target.name());
  }

  @Override
  public Path workingDirectory(String name) throws TmuxException {
    Target target = target(name);
    return target.tmux().workingDirectory(target.name());
  }

  @Override
  public void sendText(String name, String text) throws TmuxException {
    Target target = target(name);
    target.tmux().sendText(target.name(), text);
  }

  @Override
  public void sendKey(String name, String key) throws TmuxException {
    Target target = target(name);
    target.tmux().sendKey(target.name(), key);
  }

  @Override
  public void killSession(String name) throws TmuxException {
    Target target = target(name);
    target.tmux().killSession(target.name());
  }

  /** Clique's own panes, then each other server's panes that are sessions, under their ids. */
  @Override
  public List<PaneInfo> listPanes() throws TmuxException {
    List<PaneInfo> panes = new ArrayList<>(own.listPanes());
    Map<String, Map<String, String>> bySocket = new LinkedHashMap<>();
    foreign
        .get()
        .forEach(
            (id, source) ->
                bySocket
                    .computeIfAbsent(source.socket(), s -> new HashMap<>())
                    .put(source.pane(), id));
    lastListed.keySet().retainAll(bySocket.keySet());
    for (Map.Entry<String, Map<String, String>> server : bySocket.entrySet()) {
      List<ServerPane> listed;
      try {
        listed = servers.apply(server.getKey()).listEveryPane();
        lastListed.put(server.getKey(), listed);
      } catch (TmuxException e) {
        log.debug("tmux server {} did not answer: {}", server.getKey(), e.getMessage());
        if (e.sessionGone()) {
          lastListed.remove(server.getKey());
          continue; // its sessions show as stopped
        }
        // A server that is slow (a time-out on a loaded machine) is not a server that is gone:
        // its sessions stay as last listed, or each would flash stopped and lose what it learned.
        listed = lastListed.getOrDefault(server.getKey(), List.of());
      }
      for (ServerPane pane : listed) {
        String id = server.getValue().get(pane.id());
        if (id != null) {
          panes.add(pane.info().withSession(id));
        }
      }
    }
    return panes;
  }

  @Override
  public String capturePane(String name, int lines) throws TmuxException {
    Target target = target(name);
    return target.tmux().capturePane(target.name(), lines);
  }

  @Override
  public String captureScreen(String name) throws TmuxException {
    Target target = target(name);
    return target.tmux().captureScreen(target.name());
  }

  @Override
  public Foreground foreground(PaneInfo pane) {
    return own.foreground(pane);
  }

  @Override
  public Map<Long, PaneProcess> descendants(PaneInfo pane) {
    return own.descendants(pane); // read from /proc: the same for any pane
  }

  @Override
  public String currentCommand(PaneInfo pane) {
    return own.currentCommand(pane); // read from /proc when left out: the same for any pane
  }

  /**
   * Clique's own server's, and each other server's with a session of ours; null when one of them
   * cannot tell.
   */
  @Override
  public Activity activity() {
    Activity mine = own.activity();
    if (mine == null) {
      return null;
    }
    Set<String> sockets = sockets();
    if (sockets.isEmpty()) {
      return mine;
    }
    StringBuilder stamp = new StringBuilder(mine.stamp());
    for (String socket : new java.util.TreeSet<>(sockets)) {
      Activity theirs = servers.apply(socket).activity();
      if (theirs == null) {
        return null;
      }
      stamp.append(" | ").append(theirs.stamp());
    }
    return new Activity(stamp.toString());
  }

  private Set<String> sockets() {
    Map<String, Source> sources = foreign.get();
    if (sources.isEmpty()) {
      return Set.of(); // no other server: what an idle engine asks twice a second
    }
    Set<String> sockets = new java.util.HashSet<>();
    sources.values().forEach(source -> sockets.add(source.socket()));
    return sockets;
  }

  @Override
  public Map<Long, Long> residentBytes(Collection<Long> panePids) {
    return own.residentBytes(panePids);
  }

  @Override
  public Map<String, String> environment(long panePid, Set<String> names) {
    return own.environment(panePid, names); // read from /proc: the same for any server's pane
  }

  @Override
  public Map<String, List<Long>> processesMarked(String name) {
    return own.processesMarked(name);
  }

  /** Clique's own server only: another's is never stopped. */
  @Override
  public void killServer() {
    own.killServer();
  }
}
