package dev.clique.engine.session;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.discovery.Discovery;
import dev.clique.engine.discovery.Found;
import dev.clique.engine.hooks.HookDialect;
import dev.clique.engine.json.EngineJson;
import dev.clique.engine.state.Attention;
import dev.clique.engine.state.Report;
import dev.clique.engine.state.SessionState;
import dev.clique.engine.state.Signal;
import dev.clique.engine.state.StateDetector;
import dev.clique.engine.state.StateSource;
import dev.clique.engine.state.Verdict;
import dev.clique.engine.tmux.PaneInfo;
import dev.clique.engine.tmux.Tmux;
import dev.clique.engine.tmux.TmuxException;
import dev.clique.engine.token.MintedToken;
import dev.clique.engine.token.Scope;
import dev.clique.engine.token.TokenStore;
import dev.clique.engine.transcript.UsageReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sessions: their records, their tmux sessions, and the live snapshot of their panes that
 * {@code GET /api/state} is served from (see {@link SessionWatcher}).
 */
public final class SessionService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SessionService.class);

  /** Peek reads this many history lines per line asked for: blank and frame lines drop out. */
  private static final int PEEK_HISTORY_FACTOR = 4;

  /** The signals that end processes most often, by their Linux numbers. */
  private static final Map<Integer, String> SIGNAL_NAMES =
      Map.of(
          1, "SIGHUP", 2, "SIGINT", 3, "SIGQUIT", 4, "SIGILL", 6, "SIGABRT", 7, "SIGBUS", 9,
          "SIGKILL", 11, "SIGSEGV", 13, "SIGPIPE", 15, "SIGTERM");

  private static final ObjectMapper JSON = EngineJson.mapper();

  /** Longest session name accepted: a name is a label, not a store. */
  static final int MAX_NAME = 200;

  /** Longest folder accepted: Linux's PATH_MAX. */
  static final int MAX_PATH = 4096;

  /** A session token this young may belong to a session another engine is starting now. */
  private static final long ORPHAN_TOKEN_AGE_SECONDS = 60;

  /** How long a new pane may take to be in its folder: 10 looks 20 ms apart. */
  private static final int START_CHECKS = 10;

  private static final long START_CHECK_MILLIS = 20;

  /** How long a session's processes have after SIGTERM before SIGKILL. */
  private static final long KILL_GRACE_NANOS = 1_500_000_000L;

  /** Most text one send types: one argument of tmux's, well under the kernel's 128 KiB. */
  static final int MAX_TEXT_BYTES = 65_536;

  private final SessionStore store;

  /** Clique's own server: where it starts sessions and looks for orphans. */
  private final Tmux ownTmux;

  /** Every session's tmux by id: its own server's, or a discovered session's. */
  private final Tmux tmux;

  private final Typist typist;
  private final Discovery discovery;

  /**
   * The discovered sessions the watcher looks at, and those the API shows: a new one is looked at
   * first, so it never shows before its pane was seen.
   */
  private volatile List<Found> watchedFound = List.of();

  private volatile List<Found> shownFound = List.of();
  private final CliCatalogue catalogue;
  private final TokenStore tokens;
  private final Clock clock;
  private final Supplier<String> engineUrl;
  private final WaitRegistry waits;
  private final Map<String, Capture> captures = new ConcurrentHashMap<>();

  /** The last environment read of each session's pane process, kept for when it has exited. */
  private final Map<String, PaneEnvironment> environments = new ConcurrentHashMap<>();

  private record PaneEnvironment(long pid, Set<String> names, Map<String, String> values) {}

  private final SessionWatcher watcher;
  private final SlowFacts slowFacts;
  private volatile Listing listing;
  private final ChangeFeed changes;
  private final Object marking = new Object();
  private Marked marked; // guarded by marking

  public SessionService(
      SessionStore store,
      Tmux tmux,
      CliCatalogue catalogue,
      TokenStore tokens,
      Clock clock,
      Supplier<String> engineUrl) {
    this(store, tmux, Discovery.off(catalogue), catalogue, tokens, clock, engineUrl);
  }

  /** With the sessions {@code discovery} finds on the user's other tmux servers too. */
  public SessionService(
      SessionStore store,
      Tmux tmux,
      Discovery discovery,
      CliCatalogue catalogue,
      TokenStore tokens,
      Clock clock,
      Supplier<String> engineUrl) {
    this(store, tmux, discovery, catalogue, tokens, clock, engineUrl, SessionUsage.NONE);
  }

  /** With each session's {@code usage}, as its CLI recorded it, in its view. */
  public SessionService(
      SessionStore store,
      Tmux tmux,
      Discovery discovery,
      CliCatalogue catalogue,
      TokenStore tokens,
      Clock clock,
      Supplier<String> engineUrl,
      SessionUsage usage) {
    this.store = store;
    this.ownTmux = tmux;
    this.discovery = discovery;
    this.tmux = new SessionTmux(tmux, discovery::server, this::foreignSources);
    this.typist = new Typist(this.tmux);
    this.catalogue = catalogue;
    this.tokens = tokens;
    this.clock = clock;
    this.engineUrl = engineUrl;
    this.waits = new WaitRegistry(clock);
    this.changes = new ChangeFeed(clock.millis());
    this.watcher =
        new SessionWatcher(
            this.tmux,
            new StateDetector(clock),
            () -> records(watchedFound),
            catalogue,
            waits,
            this::noteChanges,
            clock);
    this.slowFacts =
        new SlowFacts(
            this.tmux,
            () -> records(watchedFound),
            catalogue,
            record -> usage.of(this, record),
            clock);
    discovery.onChange(
        found -> {
          watchedFound = found;
          watcher.refreshNow();
          shownFound = found;
          noteChanges();
        });
  }

  /**
   * Sessions on the engine's own socket that no record names (the engine died between starting tmux
   * and recording the session) are adopted, each with a log line, as a session of the CLI its pane
   * runs; then the session-bound tokens of sessions that no longer exist are revoked.
   *
   * @return how many were adopted
   */
  public int adoptOrphans() {
    List<PaneInfo> panes;
    try {
      panes = ownTmux.listPanes();
    } catch (TmuxException e) {
      log.warn(
          "could not look for sessions left on socket {}: {}", ownTmux.socket(), e.getMessage());
      return 0;
    }
    int adopted = 0;
    for (PaneInfo pane : panes) {
      if (pane.dead() || store.find(pane.session()).isPresent()) {
        continue;
      }
      String id = pane.session();
      String cli =
          catalogue
              .findByCommand(ownTmux.currentCommand(pane))
              .map(CliDefinition::id)
              .orElse("shell");
      String cwd;
      try {
        cwd = ownTmux.workingDirectory(id).toString();
      } catch (TmuxException e) {
        continue; // it ended while it was looked at
      }
      SessionRecord record =
          new SessionRecord(
              id,
              "adopted-" + id.substring(0, Math.min(8, id.length())),
              cli,
              cwd,
              null,
              null,
              clock.millis() / 1000.0,
              null);
      try {
        store.put(record);
        adopted++;
        log.info(
            "adopted session {} running {} in {}: it was on socket {} with no record",
            id,
            cli,
            cwd,
            ownTmux.socket());
      } catch (IOException e) {
        log.warn("could not record the session {} left on the socket: {}", id, e.getMessage());
      }
    }
    try {
      Set<String> known = new HashSet<>();
      store.all().forEach(r -> known.add(r.id()));
      int revoked = tokens.revokeOrphans(known, ORPHAN_TOKEN_AGE_SECONDS);
      if (revoked > 0) {
        log.info("revoked {} session tokens of sessions that no longer exist", revoked);
      }
    } catch (IOException e) {
      log.warn("could not revoke the tokens of sessions that no longer exist: {}", e.getMessage());
    }
    return adopted;
  }

  /**
   * Picks up the sessions already running on the socket (and, with discovery, on the user's other
   * tmux servers) and starts keeping the snapshot.
   */
  public void start() {
    discovery.start();
    watcher.start();
  }

  /**
   * Adopts sessions that appear on the engine's own socket with no record after it started, once
   * they have gone unrecorded for a while: the owning engine's, not an embedded one's.
   */
  public void adoptLateOrphans() {
    watcher.onStrangers(
        () -> {
          int adopted = adoptOrphans();
          if (adopted > 0) {
            watcher.refreshNow();
          }
        });
  }

  public CliCatalogue catalogue() {
    return catalogue;
  }

  /** Clique's own tmux server. */
  public Tmux tmux() {
    return ownTmux;
  }

  /**
   * Every session: the recorded ones (clique's own, and the adopted), then the discovered ones not
   * adopted, which are no record of the store's.
   */
  private List<SessionRecord> records(List<Found> found) {
    List<SessionRecord> recorded = store.all();
    if (found.isEmpty()) {
      return recorded;
    }
    List<SessionRecord> all = new ArrayList<>(recorded);
    Set<String> ids = new HashSet<>();
    recorded.forEach(r -> ids.add(r.id()));
    for (Found one : found) {
      if (!ids.contains(one.id())) {
        all.add(record(one));
      }
    }
    return all;
  }

  private static SessionRecord record(Found found) {
    return new SessionRecord(
        found.id(),
        found.name(),
        found.cli(),
        found.cwd(),
        null,
        null,
        found.created(),
        null,
        new Source(found.socket(), found.session(), found.window(), found.pane()));
  }

  /** Where each running session that is not on clique's own socket is, by id. */
  private Map<String, Source> foreignSources() {
    Map<String, Source> sources = new java.util.HashMap<>();
    for (SessionRecord record : store.all()) {
      if (record.source() != null && discovery.answers(record.source().socket())) {
        sources.put(record.id(), record.source());
      }
    }
    for (Found one : watchedFound) {
      if (!one.ended() && !sources.containsKey(one.id())) {
        sources.put(one.id(), new Source(one.socket(), one.session(), one.window(), one.pane()));
      }
    }
    return sources;
  }

  /**
   * What discovery knows of the session's CLI process now (a discovered session, adopted or not,
   * whose process still runs or ended a moment ago).
   */
  public Optional<Found> found(String id) {
    return discovery.find(id);
  }

  /**
   * Makes a discovered session operable, without moving or restarting it: it is recorded, with its
   * socket and pane, and the write routes then work on it as on any session. Adopting an adopted
   * session again changes nothing.
   *
   * @param id the session's id, or null to find it by {@code source}
   * @param source its socket and pane (session and window, when given, must match too)
   */
  public SessionRecord adopt(String id, Source source) throws SessionException {
    if (id == null && (source == null || source.socket() == null || source.pane() == null)) {
      throw bad("adopt needs the session's id, or its source with socket and pane");
    }
    Found match = null;
    for (Found one : shownFound) {
      boolean matches =
          id != null
              ? one.id().equals(id)
              : one.socket().equals(source.socket())
                  && one.pane().equals(source.pane())
                  && (source.session() == null || one.session().equals(source.session()));
      if (matches && !one.ended()) {
        match = one;
      }
    }
    if (match == null) {
      Optional<SessionRecord> stored = id == null ? Optional.empty() : store.find(id);
      if (stored.isPresent()) {
        return stored.get();
      }
      throw new SessionException(
          SessionException.Kind.NOT_FOUND, "no discovered session runs there");
    }
    Optional<SessionRecord> stored = store.find(match.id());
    if (stored.isPresent()) {
      return stored.get();
    }
    SessionRecord record = record(match);
    try {
      store.put(record);
    } catch (IOException e) {
      throw new SessionException(
          SessionException.Kind.FAILED, "the adoption could not be saved: " + e.getMessage(), e);
    }
    log.info(
        "adopted session {} ({} in pane {} of tmux session {} on {})",
        record.id(),
        record.cli(),
        match.pane(),
        match.session(),
        match.socket());
    watcher.refreshNow();
    return record;
  }

  /**
   * Every session, as {@code GET /api/state} shows it, oldest first. Served from memory: the list
   * (and its JSON) is made again only when the records or the snapshot changed.
   */
  public List<SessionView> sessions() {
    List<SessionRecord> recorded = store.all();
    List<Found> found = shownFound;
    SessionWatcher.Snapshot snapshot = watcher.snapshot();
    SlowFacts.Facts facts = slowFacts.fresh(snapshot);
    Listing cached = listing;
    if (cached != null
        && cached.snapshot == snapshot
        && cached.facts == facts
        && cached.found == found
        && cached.records.equals(recorded)) {
      return cached.sessions;
    }
    List<SessionRecord> all = records(found);
    List<SessionView> views = new ArrayList<>(all.size());
    for (SessionRecord record : all) {
      views.add(view(record, snapshot, facts));
    }
    SessionList sessions;
    try {
      sessions = new SessionList(views, JSON.writeValueAsString(views));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the sessions could not be written as JSON", e);
    }
    listing = new Listing(recorded, found, snapshot, facts, sessions);
    return sessions;
  }

  /**
   * The last answer of {@link #sessions()} and what it was made from: the stored records (an
   * adopted session is one of them), the discovered sessions and the snapshot.
   */
  private record Listing(
      List<SessionRecord> records,
      List<Found> found,
      SessionWatcher.Snapshot snapshot,
      SlowFacts.Facts facts,
      SessionList sessions) {}

  public Optional<SessionView> session(String id) {
    SessionWatcher.Snapshot snapshot = watcher.snapshot();
    return record(id).map(record -> view(record, snapshot, slowFacts.fresh(snapshot)));
  }

  /** The revision of what {@link #sessions()} shows, and the requests held until it moves. */
  public ChangeFeed changes() {
    return changes;
  }

  /**
   * Moves the revision if a reader of {@link #sessions()} would see a change: after every publish
   * of the snapshot and every change of the discovered sessions. Marks are made only when the
   * records, the discovered sessions or the snapshot are not those of the last look.
   */
  private void noteChanges() {
    synchronized (marking) {
      List<SessionRecord> recorded = store.all();
      List<Found> found = shownFound;
      SessionWatcher.Snapshot snapshot = watcher.snapshot();
      Marked last = marked;
      if (last != null
          && last.snapshot() == snapshot
          && last.found() == found
          && last.records().equals(recorded)) {
        return;
      }
      marked = new Marked(recorded, found, snapshot);
      List<ChangeFeed.Mark> marks = new ArrayList<>();
      for (SessionRecord record : records(found)) {
        marks.add(ChangeFeed.Mark.of(view(record, snapshot, SlowFacts.Facts.NONE)));
      }
      changes.observe(marks);
    }
  }

  /** What the last marks were made from. */
  private record Marked(
      List<SessionRecord> records, List<Found> found, SessionWatcher.Snapshot snapshot) {}

  /** The session's record: a stored one, or a discovered session's (not adopted). */
  public Optional<SessionRecord> record(String id) {
    Optional<SessionRecord> stored = store.find(id);
    if (stored.isPresent()) {
      return stored;
    }
    for (Found one : shownFound) {
      if (one.id().equals(id)) {
        return Optional.of(record(one));
      }
    }
    return Optional.empty();
  }

  public SessionRecord create(NewSession request) throws SessionException {
    if (request.cli() == null || request.cli().isBlank()) {
      throw bad("cli is required");
    }
    if (request.cwd() == null || request.cwd().isBlank()) {
      throw bad("cwd is required");
    }
    CliDefinition cli =
        catalogue.find(request.cli()).orElseThrow(() -> bad("unknown CLI: " + request.cli()));
    Path binary =
        catalogue
            .resolve(cli)
            .orElseThrow(
                () ->
                    bad(
                        "CLI "
                            + cli.id()
                            + " is not installed: `"
                            + cli.command()
                            + "` was not found on PATH"));
    Path cwd = directory(request.cwd());
    if (!cwd.isAbsolute()) {
      throw bad("cwd must be an absolute path: " + request.cwd());
    }
    if (!Files.isDirectory(cwd)) {
      throw bad("cwd is not a directory: " + request.cwd());
    }
    String mode = request.mode() == null || request.mode().isBlank() ? null : request.mode();
    if (mode != null && !cli.modes().contains(mode)) {
      throw bad("CLI " + cli.id() + " has no mode " + mode + " (modes: " + cli.modes() + ")");
    }
    String id = UUID.randomUUID().toString();
    String name =
        request.name() == null || request.name().isBlank()
            ? cli.id() + "-" + id.substring(0, 4)
            : request.name().strip();
    if (name.length() > MAX_NAME) {
      throw bad("name is longer than " + MAX_NAME + " characters");
    }
    if (name.chars().anyMatch(Character::isISOControl)) {
      throw bad("name must not contain control characters");
    }
    SessionRecord record =
        new SessionRecord(
            id, name, cli.id(), cwd.toString(), null, mode, clock.millis() / 1000.0, null);
    launch(record, cli, binary, false);
    try {
      store.put(record);
    } catch (IOException e) {
      quietKill(id);
      quietRevoke(id);
      throw new SessionException(
          SessionException.Kind.FAILED, "the session could not be saved: " + e.getMessage(), e);
    }
    watcher.refreshNow();
    return record;
  }

  /**
   * Types {@code text} literally (never as key names) and then presses Enter unless {@code enter}
   * is false; or, when {@code key} is given, presses that one named key.
   */
  public void send(String id, String text, boolean enter, String key) throws SessionException {
    requireOperable(id);
    if (text != null && text.indexOf('\0') >= 0) {
      throw bad("text must not contain NUL characters: a terminal cannot type them");
    }
    if (text != null && text.getBytes(StandardCharsets.UTF_8).length > MAX_TEXT_BYTES) {
      throw bad("text is over " + MAX_TEXT_BYTES + " bytes, the most one send can type");
    }
    requireAlive(id);
    // Marked first, so no look between the keys and the mark can call the session idle.
    watcher.input(id);
    try {
      if (key != null) {
        tmux.sendKey(id, key);
      } else {
        typist.type(id, text == null ? "" : text, enter);
      }
    } catch (TmuxException e) {
      throw new SessionException(SessionException.Kind.FAILED, e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SessionException(SessionException.Kind.FAILED, "interrupted before Enter", e);
    }
  }

  /**
   * Records an attention signal from the session's hooks: {@code waiting}, {@code error}, or {@code
   * clear}. The signal holds until the pane prints again.
   */
  public void attention(String id, String state) throws SessionException {
    requireOperable(id);
    Signal signal =
        Signal.fromRequest(state).orElseThrow(() -> bad("state must be waiting, error or clear"));
    watcher.attention(id, signal);
  }

  /**
   * Reads an event the session's CLI sent from its own hooks (its JSON, as the CLI wrote it) and
   * records what it says of the state; it holds until the next report or until input is sent. An
   * event that says nothing of the state changes nothing.
   *
   * @return whether the event said something of the state
   */
  public boolean hook(String id, JsonNode event) throws SessionException {
    SessionRecord record = requireOperable(id);
    HookDialect dialect =
        catalogue
            .find(record.cli())
            .flatMap(cli -> HookDialect.named(cli.hooks()))
            .orElseThrow(() -> bad("CLI " + record.cli() + " sends no hook events clique reads"));
    Optional<Report> report;
    try {
      report = dialect.read(event, clock.millis());
    } catch (IllegalArgumentException e) {
      throw bad(e.getMessage());
    }
    report.ifPresent(r -> watcher.report(id, r));
    return report.isPresent();
  }

  /**
   * Records a state the session reports of itself through {@code POST .../attention} with a {@code
   * kind} or a {@code working}/{@code idle} state: like a hook's, it holds until the next report or
   * until input is sent.
   */
  public void report(String id, SessionState state, String kind, String detail)
      throws SessionException {
    requireOperable(id);
    boolean needsPerson = state == SessionState.WAITING || state == SessionState.ERROR;
    Attention attention =
        needsPerson
            ? new Attention(
                kind == null ? (state == SessionState.ERROR ? "error" : "question") : kind,
                detail,
                clock.millis())
            : null;
    watcher.report(
        id, new Report(state, attention, StateSource.HOOK, "attention " + state.wireName()));
  }

  /** Stops the tmux session and keeps the record (state {@code stopped}). */
  public void kill(String id) throws SessionException {
    requireOperable(id);
    captures.remove(id);
    quietKill(id);
    watcher.refreshNow();
  }

  /** Relaunches a stopped session under the same id. */
  public void restart(String id) throws SessionException {
    SessionRecord record = requireOperable(id);
    watcher.refreshNow();
    if (alive(id)) {
      throw bad("session is already running");
    }
    if (record.source() != null) {
      throw bad(
          "session runs in tmux session "
              + record.source().session()
              + " on "
              + record.source().socket()
              + ", not clique's own: start its CLI again there");
    }
    CliDefinition cli =
        catalogue.find(record.cli()).orElseThrow(() -> bad("unknown CLI: " + record.cli()));
    Path binary =
        catalogue.resolve(cli).orElseThrow(() -> bad("CLI " + cli.id() + " is not installed"));
    quietKill(id); // the dead pane tmux kept of its last run
    launch(record, cli, binary, true);
    watcher.refreshNow();
  }

  /**
   * The values of {@code names} in the environment the session's pane process was started with
   * (what a CLI that the pane runs, itself or through {@code exec}, reads), as Linux's {@code
   * /proc/<pid>/environ} shows it; the last one read while the process lived, once it has exited;
   * {@code null} when it was never read (the engine started after the process exited, or no {@code
   * /proc}). Only the names asked for are kept.
   */
  public Map<String, String> paneEnvironment(String id, Set<String> names) {
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

  /** Kills the session and forgets it, with its session-bound tokens; its waits answer gone. */
  public void delete(String id) throws SessionException {
    requireOperable(id);
    captures.remove(id);
    environments.remove(id);
    quietKill(id);
    try {
      store.remove(id);
    } catch (IOException e) {
      throw new SessionException(
          SessionException.Kind.FAILED, "the session could not be removed: " + e.getMessage(), e);
    }
    waits.gone(id);
    quietRevoke(id);
    watcher.refreshNow();
  }

  /**
   * Completes when the session's state is one of {@code states}, or with {@code matched: false}
   * when {@code timeoutMillis} pass (0: at once) or the session is deleted ({@code gone}). Holds no
   * thread while it waits: the state change itself completes it.
   */
  public CompletableFuture<WaitOutcome> await(String id, Set<String> states, long timeoutMillis)
      throws SessionException {
    requireRecord(id);
    return waits.await(id, Set.copyOf(states), timeoutMillis, this::stateOf);
  }

  /**
   * The last {@code lines} lines of the pane as text ({@link PaneText}); a stopped session has
   * none.
   */
  public PaneLines peek(String id, int lines) throws SessionException {
    requireRecord(id);
    SessionWatcher.Live live = watcher.snapshot().live().get(id);
    if (live != null && live.pane() != null && live.pane().dead()) {
      return lastScreen(id, lines);
    }
    if (live == null || !live.alive()) {
      captures.remove(id);
      return PaneLines.stopped();
    }
    double activity = seconds(live.verdict().lastOutputMillis());
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

  @Override
  public void close() {
    discovery.close();
    watcher.close();
    slowFacts.close();
    waits.close();
    changes.close();
  }

  SessionWatcher watcher() {
    return watcher;
  }

  /** Gathers memory, git status and usage now, on this thread (tests). */
  void gatherFactsNow() {
    slowFacts.gatherNow(watcher.snapshot());
  }

  private String stateOf(String id) {
    if (record(id).isEmpty()) {
      return null;
    }
    SessionWatcher.Live live = watcher.snapshot().live().get(id);
    return live == null ? "stopped" : live.verdict().state().wireName();
  }

  private boolean alive(String id) {
    SessionWatcher.Live live = watcher.snapshot().live().get(id);
    return live != null && live.alive();
  }

  private void launch(SessionRecord record, CliDefinition cli, Path binary, boolean resume)
      throws SessionException {
    Map<String, String> values = new LinkedHashMap<>();
    values.put("id", record.id());
    values.put("name", record.name());
    values.put("cwd", record.cwd());
    values.put("mode", record.mode() == null ? "" : record.mode());
    values.put(
        "cli_session_id", record.cliSessionId() == null ? record.id() : record.cliSessionId());
    values.put(
        "hook_settings",
        HookDialect.named(cli.hooks())
            .map(d -> d.settings(engineUrl.get() + "/api/sessions/" + record.id() + "/hook"))
            .orElse(""));
    boolean resuming = resume && record.cliSessionId() != null;
    List<String> argv = cli.launchArgv(binary, values, resuming);
    Map<String, String> env = new LinkedHashMap<>();
    env.put(SessionWatcher.SESSION_MARKER, record.id());
    env.put("CLIQUE_URL", engineUrl.get());
    try {
      tokens.revokeSession(record.id());
      MintedToken hook =
          tokens.create(
              "hook:" + record.id().substring(0, 8), Set.of(Scope.ATTENTION), record.id());
      env.put("CLIQUE_ATTENTION_TOKEN", hook.secret());
      tmux.newSession(record.id(), Path.of(record.cwd()), argv, env);
    } catch (IOException e) {
      quietRevoke(record.id());
      throw new SessionException(
          SessionException.Kind.FAILED, "the session could not be started: " + e.getMessage(), e);
    }
    requireStartedIn(record);
  }

  /**
   * The pane must run where the record says: a folder that tmux read some other way (a format, a
   * separator) would put the CLI elsewhere than {@code /api/state} shows. A pane that has already
   * exited has nothing to check.
   */
  private void requireStartedIn(SessionRecord record) throws SessionException {
    Path started;
    Path wanted;
    try {
      wanted = Path.of(record.cwd()).toRealPath();
      started = tmux.workingDirectory(record.id());
      // The pane's process may be read between tmux's fork and its chdir: the server's folder.
      for (int i = 0; i < START_CHECKS && !started.equals(wanted); i++) {
        Thread.sleep(START_CHECK_MILLIS);
        started = tmux.workingDirectory(record.id());
      }
    } catch (IOException e) { // the pane exited, or the folder went away: nothing to compare
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    if (!started.equals(wanted)) {
      quietKill(record.id());
      quietRevoke(record.id());
      throw bad("tmux started the session in " + started + ", not in cwd " + record.cwd());
    }
  }

  /** The requested folder as a path; a value no path can be is the client's mistake. */
  private static Path directory(String cwd) throws SessionException {
    if (cwd.length() > MAX_PATH) {
      throw bad("cwd is longer than " + MAX_PATH + " characters");
    }
    try {
      return Path.of(cwd);
    } catch (InvalidPathException e) {
      throw bad("cwd is not a usable path: " + e.getReason());
    }
  }

  private SessionView view(
      SessionRecord record, SessionWatcher.Snapshot snapshot, SlowFacts.Facts facts) {
    SessionWatcher.Live live = snapshot.live().get(record.id());
    String label = catalogue.find(record.cli()).map(CliDefinition::label).orElse(record.cli());
    Path cwd = Path.of(record.cwd());
    String project = cwd.getFileName() == null ? record.cwd() : cwd.getFileName().toString();
    boolean alive = live != null && live.alive();
    Verdict verdict = live == null ? Verdict.STOPPED : live.verdict();
    GitStatus git = facts.git().getOrDefault(record.cwd(), GitStatus.NONE);
    UsageReport used = facts.usage().getOrDefault(record.id(), UsageReport.NONE);
    // tmux keeps a dead pane: how its process ended, and its last screen, stay readable.
    boolean dead = live != null && live.pane() != null && live.pane().dead();
    Integer exitStatus = dead && live.pane().exitStatus() >= 0 ? live.pane().exitStatus() : null;
    SessionView.SourceView source =
        dead
            ? new SessionView.SourceView("process", howItEnded(live.pane()))
            : new SessionView.SourceView(verdict.source().authority(), verdict.source().evidence());
    return new SessionView(
        record.id(),
        record.name(),
        record.cli(),
        label,
        record.cwd(),
        project,
        record.folder(),
        record.mode(),
        record.created(),
        alive,
        alive && live.pane().attached(),
        alive ? tmux.currentCommand(live.pane()) : null,
        seconds(verdict.lastOutputMillis()),
        alive ? live.pane().cols() : 0,
        alive ? live.pane().rows() : 0,
        verdict.busy(),
        verdict.signal().wireName(),
        verdict.saying(),
        verdict.state().wireName(),
        alive ? facts.rss().getOrDefault(record.id(), 0L) : 0,
        git.branch(),
        git.dirty(),
        verdict.attention() == null
            ? null
            : new SessionView.AttentionView(
                verdict.attention().kind(),
                verdict.attention().detail(),
                seconds(verdict.attention().sinceMillis())),
        source,
        exitStatus,
        record.source() == null ? null : store.find(record.id()).isPresent(),
        record.source(),
        alive ? detached(facts.detached().getOrDefault(record.id(), List.of())) : List.of(),
        used.usage(),
        used.limits());
  }

  /** What tmux knows of how a dead pane's process ended. */
  private static String howItEnded(PaneInfo pane) {
    if (pane.exitStatus() >= 0) {
      return "exited with status " + pane.exitStatus();
    }
    if (pane.exitSignal() > 0) {
      String name = SIGNAL_NAMES.get(pane.exitSignal());
      return "killed by signal " + pane.exitSignal() + (name == null ? "" : " (" + name + ")");
    }
    return pane.exitSignal() == 0 ? "killed by a signal" : "exited";
  }

  /** The processes that left a session's tree, as they are named now (those gone are left out). */
  private static List<SessionView.DetachedView> detached(List<Long> pids) {
    List<SessionView.DetachedView> named = new ArrayList<>();
    for (long pid : pids) {
      ProcessHandle.of(pid)
          .flatMap(p -> p.info().command())
          .ifPresent(
              command ->
                  named.add(
                      new SessionView.DetachedView(
                          pid, command.substring(command.lastIndexOf('/') + 1))));
    }
    return named;
  }

  private static double seconds(long millis) {
    return millis / 1000.0;
  }

  private SessionRecord requireRecord(String id) throws SessionException {
    return record(id)
        .orElseThrow(
            () -> new SessionException(SessionException.Kind.NOT_FOUND, "no such session"));
  }

  /** A session that may be operated: clique's own, or an adopted one. */
  private SessionRecord requireOperable(String id) throws SessionException {
    SessionRecord record = requireRecord(id);
    if (store.find(id).isEmpty()) {
      throw new SessionException(
          SessionException.Kind.FORBIDDEN,
          "session "
              + id
              + " was discovered in tmux session "
              + record.source().session()
              + " on "
              + record.source().socket()
              + " and is read-only: adopt it first (`clique adopt "
              + id
              + "` or POST /api/sessions/adopt)");
    }
    return record;
  }

  private void requireAlive(String id) throws SessionException {
    if (!alive(id)) {
      watcher.refreshNow();
      if (!alive(id)) {
        throw bad("session is not running");
      }
    }
  }

  /**
   * Ends the session's whole process tree, not only its tmux session: a CLI may ignore the hangup
   * tmux sends its pane (Gemini CLI's node and its re-executed child both do, and live on under
   * init). The tree is taken before tmux lets go of it, with every process that carries the
   * session's marker though it left the tree (a daemon forked twice, a {@code setsid} job); what is
   * left gets SIGTERM, then SIGKILL.
   */
  private void quietKill(String id) {
    List<ProcessHandle> tree = processTree(id);
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
  private List<ProcessHandle> processTree(String id) {
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

  private void quietRevoke(String id) {
    try {
      tokens.revokeSession(id);
    } catch (IOException e) {
      log.warn("could not revoke the tokens of session {}: {}", id, e.getMessage());
    }
  }

  private static SessionException bad(String message) {
    return new SessionException(SessionException.Kind.BAD_REQUEST, message);
  }
}
