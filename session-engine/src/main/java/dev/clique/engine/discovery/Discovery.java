package dev.clique.engine.discovery;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.hooks.HookReports;
import dev.clique.engine.tmux.Activity;
import dev.clique.engine.tmux.ServerPane;
import dev.clique.engine.tmux.ServerWatch;
import dev.clique.engine.tmux.TmuxException;
import dev.clique.engine.tmux.TmuxProcess;
import dev.clique.engine.transcript.Transcripts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the sessions people already run on their other tmux servers, every {@value #SCAN_MILLIS}
 * ms: one {@code list-panes -a} per server, and a walk of {@code /proc} only for a pane not seen
 * before (or whose foreground command changed, or whose CLI ended). A session is found within about
 * a second of its CLI starting, and marked ended within about a second of the CLI (or its pane)
 * going; an ended one stays listed, stopped, for {@link #KEEP_ENDED}.
 *
 * <p>Never touched: clique's own socket, a socket (or socket directory) another user owns; never
 * listed: a pane another clique engine started (its process has {@code CLIQUE_SESSION}). A server
 * that does not answer, a stale socket file, a pane whose process ends while it is read: each is
 * logged once as one line naming the cause, and the scan goes on.
 */
public final class Discovery implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Discovery.class);
  static final long SCAN_MILLIS = 1_000;
  static final Duration KEEP_ENDED = Duration.ofMinutes(10);
  private static final Duration TMUX_TIMEOUT = Duration.ofSeconds(2);
  private static final int S_IFMT = 0170000;
  private static final int S_IFSOCK = 0140000;

  /** The variables of a CLI's own environment that say where it keeps its files. */
  static final List<String> ROOT_VARIABLES =
      List.of(
          "HOME",
          "CLAUDE_CONFIG_DIR",
          "CODEX_HOME",
          "GEMINI_CLI_HOME",
          "QWEN_HOME",
          "COPILOT_HOME",
          "PI_CODING_AGENT_DIR",
          "XDG_DATA_HOME",
          "OPENCODE_DB");

  /** What a pane runs, as its process tree was read once. */
  private record Detection(
      String cli,
      long pid,
      long startTicks,
      List<String> argv,
      Map<String, String> env,
      String cwd,
      double created) {}

  /** A pane as far as its tree matters: the same key, the same tree (until its CLI ends). */
  private record PaneKey(String socket, String pane, long panePid, String command) {}

  /** What a pane was found to run, when it was read, and when the pane was first seen. */
  private record Seen(Optional<Detection> detection, long at, long since) {
    /**
     * Whether a pane found to run no CLI is read again now: every look while it is young (a CLI
     * still starting, its interpreter not yet the CLI), then every {@link #RECHECK_EMPTY_MILLIS}.
     */
    boolean recheckDue(long now) {
      return now - at >= (young(now) ? SCAN_MILLIS : RECHECK_EMPTY_MILLIS);
    }

    boolean young(long now) {
      return detection.isEmpty() && now - since < YOUNG_MILLIS;
    }
  }

  /**
   * A server's last look, kept while the server does nothing: its panes and what they run, and
   * until when a pane of it that runs no CLI yet is young enough to be read again all the same.
   */
  private record Quiet(
      Activity activity, Set<PaneKey> keys, Map<String, Found> found, long youngUntil) {}

  /**
   * A pane found to run no CLI is read again after this long even when its foreground command is
   * the same: a CLI started by a command that stays in the foreground ({@code make}, a script).
   */
  static final long RECHECK_EMPTY_MILLIS = 5_000;

  /**
   * How long a new pane that runs no CLI is read at every look, whether its server did something or
   * not: a CLI's start (an interpreter, a launcher script) can outlast the output it draws on a
   * loaded machine, and after that the server would stay quiet with nothing telling to look again.
   */
  static final long YOUNG_MILLIS = 15_000;

  private final DiscoverySettings settings;
  private final CliCatalogue catalogue;
  private final Path ownSocket;
  private final Processes processes;
  private final Clock clock;
  private final long uid;
  private final Map<String, TmuxProcess> servers = new ConcurrentHashMap<>();
  private final Map<PaneKey, Seen> seen = new HashMap<>(); // scan thread only
  private final Map<String, Quiet> quiet = new HashMap<>(); // scan thread only
  private final Map<String, Long> endedAt = new HashMap<>(); // scan thread only
  private final Map<String, Found> announced = new HashMap<>(); // scan thread only
  private final Map<String, String> causes = new ConcurrentHashMap<>();
  private final Set<String> talkedTo = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService scanner;
  private volatile List<Found> found = List.of(); // in tmux
  private final OutsideTmux outside;
  private final Object publishing = new Object();
  private volatile List<Found> published = List.of(); // in tmux, then outside it
  private volatile Consumer<List<Found>> onChange = found -> {};

  public Discovery(
      DiscoverySettings settings, CliCatalogue catalogue, Path ownSocket, Clock clock) {
    this(settings, catalogue, ownSocket, Processes.system(), clock);
  }

  Discovery(
      DiscoverySettings settings,
      CliCatalogue catalogue,
      Path ownSocket,
      Processes processes,
      Clock clock) {
    this.settings = settings;
    this.catalogue = catalogue;
    this.ownSocket = ownSocket;
    this.processes = processes;
    this.clock = clock;
    this.uid = currentUid();
    this.outside =
        settings.enabled() && settings.outside()
            ? new OutsideTmux(
                catalogue, processes, clock, settings.headless(), settings.claudeRegistries())
            : null;
    if (outside != null) {
      outside.onChange(this::publish);
    }
    this.scanner =
        settings.enabled()
            ? Executors.newSingleThreadScheduledExecutor(
                r -> {
                  Thread thread = new Thread(r, "discovery");
                  thread.setDaemon(true);
                  return thread;
                })
            : null;
  }

  /** A discovery that looks at nothing. */
  public static Discovery off(CliCatalogue catalogue) {
    return new Discovery(DiscoverySettings.off(), catalogue, null, Clock.systemUTC());
  }

  public boolean enabled() {
    return settings.enabled();
  }

  /**
   * Looks once now, then again when a socket comes or goes in the directory (the kernel says so),
   * and every {@value #SCAN_MILLIS} ms only while there is a server to ask what it did (two reads
   * under {@code /proc} each) or an ended session to let go of. With no server of a person's
   * running, it waits and costs nothing.
   */
  public void start() {
    if (scanner == null) {
      return;
    }
    log.info(
        "discovery: looking for sessions on the tmux servers in {}{}",
        settings.socketDirectory(),
        settings.extraSockets().isEmpty() ? "" : " and " + settings.extraSockets());
    scanNow();
    scanner.execute(this::watch);
    if (outside != null) {
      outside.start();
    }
  }

  /**
   * Reads the state of a CLI outside tmux from its transcript, where its own registry says nothing,
   * with the engine's transcript readers.
   *
   * @param userHome the home to assume for a CLI whose environment names none
   */
  public void readStatesWith(Transcripts transcripts, Path userHome) {
    if (outside != null) {
      outside.readStatesWith(transcripts, userHome);
    }
  }

  /** Takes the states of the CLIs outside tmux first from the hooks a person installed. */
  public void readHooksFrom(HookReports reports) {
    if (outside != null) {
      outside.readHooksFrom(reports);
    }
  }

  /** Hands the sessions in tmux and those outside it, as one list, to the listener. */
  private void publish() {
    synchronized (publishing) {
      List<Found> outsideFound = outside == null ? List.of() : outside.found();
      List<Found> all = new ArrayList<>(found.size() + outsideFound.size());
      all.addAll(found);
      all.addAll(outsideFound);
      if (!all.equals(published)) {
        published = List.copyOf(all);
        onChange.accept(published);
      }
    }
  }

  private void watch() {
    WatchService sockets = null;
    try {
      while (!Thread.currentThread().isInterrupted()) {
        if (sockets == null) {
          sockets = socketWatch(); // the directory may exist only once a first server started
          if (sockets != null) {
            scan(); // what came before the watch began
          }
        }
        boolean asking =
            sockets == null
                || !quiet.isEmpty()
                || !settings.extraSockets().isEmpty()
                || !endedAt.isEmpty();
        WatchKey key;
        if (sockets == null) {
          Thread.sleep(SCAN_MILLIS);
          key = null;
        } else {
          key = asking ? sockets.poll(SCAN_MILLIS, TimeUnit.MILLISECONDS) : sockets.take();
        }
        if (key != null) {
          key.pollEvents();
          key.reset();
        }
        scan();
      }
    } catch (InterruptedException | ClosedWatchServiceException e) {
      Thread.currentThread().interrupt();
    } finally {
      if (sockets != null) {
        try {
          sockets.close();
        } catch (IOException e) {
          // it goes with the thread
        }
      }
    }
  }

  /** A watch on the socket directory's entries; null where there is none to watch yet. */
  private WatchService socketWatch() {
    Path dir = settings.socketDirectory();
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return null;
    }
    try {
      WatchService watch = dir.getFileSystem().newWatchService();
      dir.register(
          watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE);
      return watch;
    } catch (IOException | UnsupportedOperationException e) {
      log.info("discovery: {} cannot be watched ({}): looked in every second", dir, e.getMessage());
      return null;
    }
  }

  /** Hands every new list of found sessions to {@code listener}, on the scan thread. */
  public void onChange(Consumer<List<Found>> listener) {
    this.onChange = listener;
  }

  /** Every session found, the ended ones (stopped) among them: in tmux, then outside it. */
  public List<Found> found() {
    return published;
  }

  public Optional<Found> find(String id) {
    for (Found one : published) {
      if (one.id().equals(id)) {
        return Optional.of(one);
      }
    }
    return Optional.empty();
  }

  /**
   * The server on a socket file, for the engine's calls to a discovered session: never one of
   * another user's (the caller checked the socket when it was found) and never started.
   */
  /** How each server discovery looks at (one that runs) is watched, by socket. */
  public List<ServerWatch> watches() {
    List<ServerWatch> all = new ArrayList<>();
    for (TmuxProcess server : servers.values()) {
      ServerWatch watch = server.watch();
      if (!watch.by().equals(ServerWatch.NO_SERVER)) {
        all.add(watch);
      }
    }
    all.sort(java.util.Comparator.comparing(ServerWatch::socket));
    return all;
  }

  public TmuxProcess server(String socket) {
    return servers.computeIfAbsent(socket, s -> TmuxProcess.onSocketFile(Path.of(s), TMUX_TIMEOUT));
  }

  private void scan() {
    try {
      scanNow();
    } catch (RuntimeException e) {
      log.warn("discovery: one look at the tmux servers failed", e);
    }
  }

  /** One look at every server (the scan thread; tests call it by hand). */
  synchronized void scanNow() {
    if (!settings.enabled()) {
      return;
    }
    long now = clock.millis();
    Map<String, Found> next = new LinkedHashMap<>();
    Set<PaneKey> keys = new HashSet<>();
    Map<String, Quiet> looked = new HashMap<>();
    for (Path socket : sockets()) {
      List<ServerPane> panes;
      talkedTo.add(socket.toString());
      TmuxProcess server = server(socket.toString());
      Activity activity = server.activity();
      Quiet last = quiet.get(socket.toString());
      if (activity != null
          && last != null
          && last.activity().equals(activity)
          && now >= last.youngUntil()) {
        // The server did nothing since the last look (a CLI that starts or ends in a pane prints):
        // what it showed then stands.
        looked.put(socket.toString(), last);
        keys.addAll(last.keys());
        next.putAll(last.found());
        continue;
      }
      try {
        panes = server.listEveryPane();
      } catch (TmuxException e) {
        note(socket.toString(), "no tmux server answers there: " + oneLine(e.getMessage()));
        if (!e.sessionGone() && last != null) {
          // Slow (a time-out on a loaded machine), not gone: what it showed last stands, rather
          // than its sessions ending and starting again as found anew.
          looked.put(socket.toString(), last);
          keys.addAll(last.keys());
          next.putAll(last.found());
        }
        continue;
      }
      causes.remove(socket.toString());
      Set<PaneKey> serverKeys = new HashSet<>();
      Map<String, Found> serverFound = new LinkedHashMap<>();
      long youngUntil = 0;
      for (ServerPane pane : panes) {
        if (pane.info().dead()) {
          continue;
        }
        PaneKey key =
            new PaneKey(socket.toString(), pane.id(), pane.info().pid(), pane.info().command());
        keys.add(key);
        serverKeys.add(key);
        Seen before = seen.get(key);
        Optional<Detection> detection = before == null ? null : before.detection();
        boolean stale =
            before == null
                || (detection.isPresent()
                    ? !processes.alive(detection.get().pid(), detection.get().startTicks())
                    : before.recheckDue(now));
        Seen latest = before;
        if (stale) {
          detection = inspect(socket, pane);
          latest = new Seen(detection, now, before == null ? now : before.since());
          seen.put(key, latest);
        }
        if (latest.young(now)) {
          youngUntil = Math.max(youngUntil, latest.since() + YOUNG_MILLIS);
        }
        detection.ifPresent(d -> serverFound.put(id(socket, pane, d), found(socket, pane, d)));
      }
      next.putAll(serverFound);
      if (activity != null) {
        looked.put(
            socket.toString(),
            new Quiet(activity, Set.copyOf(serverKeys), serverFound, youngUntil));
      }
    }
    announce(next);
    quiet.clear();
    quiet.putAll(looked);
    seen.keySet().retainAll(keys);
    forgetCausesOfGone(keys);
    for (Found before : found) {
      if (next.containsKey(before.id())) {
        endedAt.remove(before.id());
        continue;
      }
      long ended = endedAt.computeIfAbsent(before.id(), id -> now);
      if (now - ended < KEEP_ENDED.toMillis()) {
        next.put(before.id(), before.asEnded());
      } else {
        endedAt.remove(before.id());
      }
    }
    List<Found> listed = List.copyOf(named(next.values()));
    if (!listed.equals(found)) {
      found = listed;
      publish();
    }
  }

  /** The sockets to look at now: the directory's and the configured ones that may be touched. */
  private List<Path> sockets() {
    List<Path> candidates = new ArrayList<>();
    Path dir = settings.socketDirectory();
    if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      Integer owner = owner(dir);
      if (owner == null || owner != uid) {
        note(dir.toString(), "the socket directory is owned by uid " + owner + ": not looked in");
      } else {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
          entries.forEach(candidates::add);
        } catch (IOException e) {
          note(dir.toString(), "the socket directory cannot be listed: " + e.getMessage());
        }
      }
    }
    candidates.addAll(settings.extraSockets());
    List<Path> usable = new ArrayList<>();
    for (Path socket : candidates) {
      if (isOwnSocket(socket) || usable.contains(socket)) {
        continue;
      }
      Map<String, Object> attributes;
      try {
        attributes = Files.readAttributes(socket, "unix:mode,uid", LinkOption.NOFOLLOW_LINKS);
      } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
        note(socket.toString(), "the socket cannot be read: " + oneLine(String.valueOf(e)));
        continue;
      }
      int mode = (Integer) attributes.get("mode");
      int owner = (Integer) attributes.get("uid");
      if ((mode & S_IFMT) != S_IFSOCK) {
        continue; // not a socket: nothing of tmux's
      }
      if (owner != uid) {
        note(socket.toString(), "owned by uid " + owner + ", not this user's: never touched");
        continue;
      }
      usable.add(socket);
    }
    return usable;
  }

  private boolean isOwnSocket(Path socket) {
    if (ownSocket == null) {
      return false;
    }
    if (socket.toAbsolutePath().normalize().equals(ownSocket.toAbsolutePath().normalize())) {
      return true;
    }
    try {
      return Files.exists(ownSocket) && Files.isSameFile(socket, ownSocket);
    } catch (IOException e) {
      return false;
    }
  }

  /** Walks the pane's process tree for a CLI of the catalogue (or a shell, when shells count). */
  private Optional<Detection> inspect(Path socket, ServerPane pane) {
    long panePid = pane.info().pid();
    List<Long> tree = processes.tree(panePid);
    List<String> paneArgv = List.of();
    for (long pid : tree) {
      List<String> argv = processes.argv(pid);
      if (pid == panePid) {
        paneArgv = argv;
        if (argv.isEmpty()) {
          note(
              socket + " " + pane.id(),
              "pane " + pane.id() + ": its process ended while it was inspected");
          return Optional.empty();
        }
      }
      Optional<CliDefinition> cli =
          CliMatch.of(argv, processes.executable(pid).orElse(null), catalogue);
      if (cli.isPresent()) {
        return detection(socket, pane, cli.get().id(), pid, argv);
      }
    }
    if (settings.shells() && CliMatch.isShell(paneArgv)) {
      return detection(socket, pane, CliMatch.SHELL, panePid, paneArgv);
    }
    return Optional.empty();
  }

  private Optional<Detection> detection(
      Path socket, ServerPane pane, String cli, long pid, List<String> argv) {
    long ticks = processes.startTicks(pid);
    long started = processes.startMillis(pid);
    if (ticks < 0 || started < 0) {
      note(
          socket + " " + pane.id(),
          "pane " + pane.id() + ": its " + cli + " ended while it was inspected");
      return Optional.empty();
    }
    Map<String, String> own = processes.environment(pid);
    String engines = own.get("CLIQUE_SESSION");
    if (engines != null) {
      note(
          socket + " " + pane.id(),
          "pane " + pane.id() + " is session " + engines + " of another clique engine: left to it");
      return Optional.empty();
    }
    Map<String, String> env = new LinkedHashMap<>();
    for (String name : ROOT_VARIABLES) {
      String value = own.get(name);
      if (value != null && !value.isBlank()) {
        env.put(name, value);
      }
    }
    String cwd = processes.cwd(pid).orElse(pane.currentPath());
    return Optional.of(new Detection(cli, pid, ticks, argv, env, cwd, started / 1000.0));
  }

  private static String id(Path socket, ServerPane pane, Detection d) {
    String identity = socket + "\0" + pane.id() + "\0" + d.pid() + "\0" + d.startTicks();
    return UUID.nameUUIDFromBytes(identity.getBytes(StandardCharsets.UTF_8)).toString();
  }

  private static Found found(Path socket, ServerPane pane, Detection d) {
    return new Found(
        id(socket, pane, d),
        pane.info().session(),
        d.cli(),
        d.cwd(),
        d.created(),
        socket.toString(),
        pane.info().session(),
        pane.window(),
        pane.id(),
        d.pid(),
        d.startTicks(),
        d.argv(),
        d.env(),
        false);
  }

  /** A tmux session's name, made unique with its window and pane where it holds several. */
  private static List<Found> named(Iterable<Found> all) {
    Map<String, Integer> counts = new HashMap<>();
    for (Found one : all) {
      counts.merge(one.socket() + "\0" + one.session(), 1, Integer::sum);
    }
    List<Found> out = new ArrayList<>();
    for (Found one : all) {
      boolean shared = counts.get(one.socket() + "\0" + one.session()) > 1;
      out.add(
          one.named(
              shared ? one.session() + ":" + one.window() + " " + one.pane() : one.session()));
    }
    return out;
  }

  /**
   * Whether the server on {@code socket} answered the last scan: one that did not (gone, stale,
   * hung) is not asked again by the engine until it does, so a hung server never stalls the others.
   */
  public boolean answers(String socket) {
    return !causes.containsKey(socket);
  }

  /** What was last said of each socket or pane that could not be looked at, by its name. */
  Map<String, String> causes() {
    return Map.copyOf(causes);
  }

  /** Every socket a tmux client was ever run against. */
  Set<String> talkedTo() {
    return Set.copyOf(talkedTo);
  }

  /** What was said of a pane or socket that is gone is forgotten: said again if it comes back. */
  private void forgetCausesOfGone(Set<PaneKey> keys) {
    Set<String> present = new HashSet<>();
    for (PaneKey key : keys) {
      present.add(key.socket() + " " + key.pane());
    }
    causes
        .keySet()
        .removeIf(
            subject ->
                subject.contains(" %")
                    ? !present.contains(subject)
                    : !Files.exists(Path.of(subject)));
  }

  /**
   * Logs each pane found running a CLI once when it is found and once when it ends: a pane is read
   * again whenever its foreground command changes, and that is no news.
   */
  private void announce(Map<String, Found> running) {
    for (Found one : running.values()) {
      if (announced.putIfAbsent(one.id(), one) == null) {
        log.info(
            "discovery: {} in pane {} of tmux session {} on {} (pid {}, in {})",
            one.cli(),
            one.pane(),
            one.session(),
            one.socket(),
            one.cliPid(),
            one.cwd());
      }
    }
    announced
        .values()
        .removeIf(
            one -> {
              if (running.containsKey(one.id())) {
                return false;
              }
              log.info(
                  "discovery: {} in pane {} of tmux session {} on {} ended",
                  one.cli(),
                  one.pane(),
                  one.session(),
                  one.socket());
              return true;
            });
  }

  /** Logs a cause once, until it changes. */
  private void note(String subject, String cause) {
    if (!cause.equals(causes.put(subject, cause))) {
      log.info("discovery: {}: {}", subject, cause);
    }
  }

  private static String oneLine(String text) {
    return text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", "; ");
  }

  private static Integer owner(Path path) {
    try {
      return (Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return null;
    }
  }

  /** This process's user id: the owner of its own {@code /proc} directory. */
  public static long currentUid() {
    try {
      return (Integer) Files.getAttribute(Path.of("/proc/self/"), "unix:uid");
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return -1;
    }
  }

  @Override
  public void close() {
    if (scanner != null) {
      scanner.shutdownNow();
    }
    if (outside != null) {
      outside.close();
    }
  }
}
