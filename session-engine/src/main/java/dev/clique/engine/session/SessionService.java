package dev.clique.engine.session;

import static dev.clique.engine.session.SessionException.badRequest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.discovery.CliVersions;
import dev.clique.engine.discovery.Discovery;
import dev.clique.engine.discovery.Found;
import dev.clique.engine.hooks.HookDialect;
import dev.clique.engine.state.Attention;
import dev.clique.engine.state.Report;
import dev.clique.engine.state.SessionState;
import dev.clique.engine.state.Signal;
import dev.clique.engine.state.StateDetector;
import dev.clique.engine.state.StateSource;
import dev.clique.engine.tmux.ServerWatch;
import dev.clique.engine.tmux.Tmux;
import dev.clique.engine.tmux.TmuxException;
import dev.clique.engine.token.TokenStore;
import dev.clique.engine.transcript.TranscriptRequest;
import dev.clique.engine.transcript.TranscriptRoots;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sessions: what the API and the engine ask of them, each request checked here and done by the
 * part whose job it is: {@link Launch} starts a CLI, {@link SessionProcesses} ends one, {@link
 * Adoption} records a session that runs without a record, {@link SessionViews} says what a session
 * looks like and when that changed, {@link PaneReader} reads a pane, and the {@link SessionWatcher}
 * keeps the live snapshot of the panes that {@code GET /api/state} is served from.
 */
public final class SessionService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SessionService.class);

  /** Most text one send types: one argument of tmux's, well under the kernel's 128 KiB. */
  static final int MAX_TEXT_BYTES = 65_536;

  /**
   * How long a send waits for a CLI that starts itself anew (its new process's first screen): past
   * that, the keys go to whatever the pane shows.
   */
  static final long RELAUNCH_SEND_WAIT_MILLIS = 15_000;

  private final SessionStore store;

  /** Clique's own tmux server: where it starts sessions and looks for orphans. */
  private final Tmux ownTmux;

  /** Every session's tmux by id: its own server's, or a discovered session's. */
  private final Tmux tmux;

  private final Typist typist;
  private final Discovery discovery;
  private final CliCatalogue catalogue;
  private final Clock clock;
  private final WaitRegistry waits;
  private final KnownSessions known;
  private final SessionWatcher watcher;
  private final SlowFacts slowFacts;
  private final SessionViews views;
  private final SessionProcesses processes;
  private final Launch launch;
  private final Adoption adoption;
  private final PaneReader panes;

  /** What a {@link SessionService} is built of: the first six are required. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link SessionService}; each setter names one part, set once. */
  public static final class Builder {
    private SessionStore store;
    private Tmux tmux;
    private CliCatalogue catalogue;
    private TokenStore tokens;
    private Clock clock;
    private Supplier<String> engineUrl;
    private Discovery discovery;
    private SessionUsage usage = SessionUsage.NONE;

    private Builder() {}

    /** Where the session records are kept ({@code state.json}). */
    public Builder store(SessionStore store) {
      this.store = store;
      return this;
    }

    /** Clique's own tmux server: where sessions are started. */
    public Builder tmux(Tmux tmux) {
      this.tmux = tmux;
      return this;
    }

    public Builder catalogue(CliCatalogue catalogue) {
      this.catalogue = catalogue;
      return this;
    }

    public Builder tokens(TokenStore tokens) {
      this.tokens = tokens;
      return this;
    }

    public Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    /** The engine's URL, as its sessions' hooks reach it (known once it listens). */
    public Builder engineUrl(Supplier<String> engineUrl) {
      this.engineUrl = engineUrl;
      return this;
    }

    /** The sessions it finds on the user's other tmux servers; none unless set. */
    public Builder discovery(Discovery discovery) {
      this.discovery = discovery;
      return this;
    }

    /** Each session's usage, as its CLI recorded it, in its view; none unless set. */
    public Builder usage(SessionUsage usage) {
      this.usage = usage;
      return this;
    }

    public SessionService build() {
      Objects.requireNonNull(store, "store");
      Objects.requireNonNull(tmux, "tmux");
      Objects.requireNonNull(catalogue, "catalogue");
      Objects.requireNonNull(tokens, "tokens");
      Objects.requireNonNull(clock, "clock");
      Objects.requireNonNull(engineUrl, "engineUrl");
      Objects.requireNonNull(usage, "usage");
      return new SessionService(
          store,
          tmux,
          discovery == null ? Discovery.off(catalogue) : discovery,
          catalogue,
          tokens,
          clock,
          engineUrl,
          usage);
    }
  }

  private SessionService(
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
    this.catalogue = catalogue;
    this.clock = clock;
    this.known = new KnownSessions(store, discovery);
    this.tmux = new SessionTmux(tmux, discovery::server, known::foreignSources, discovery::watches);
    this.typist = new Typist(this.tmux);
    this.waits = new WaitRegistry(clock);
    this.watcher =
        new SessionWatcher(
            this.tmux,
            new StateDetector(clock),
            known::watched,
            catalogue,
            waits,
            this::noteChanges,
            clock,
            store.home().id());
    this.slowFacts =
        new SlowFacts(
            this.tmux,
            known::all,
            catalogue,
            record -> usage.of(this, record),
            CliVersions.system(catalogue),
            clock);
    this.views = new SessionViews(store, known, watcher, slowFacts, catalogue, this.tmux, clock);
    this.processes = new SessionProcesses(this.tmux, watcher);
    this.launch =
        new Launch(
            catalogue,
            tokens,
            this.tmux,
            processes,
            clock,
            engineUrl,
            store.home(),
            store.hookFiles());
    this.adoption = new Adoption(store, known, tmux, watcher, catalogue, tokens, clock);
    this.panes = new PaneReader(store, this.tmux, watcher);
    discovery.onChange(
        found -> {
          List<Found> before = known.shown();
          known.watch(found);
          watcher.refreshNow();
          known.show(found);
          noteChanges();
          wakeWaitsOutside(before, found);
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
    return adoption.orphans();
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
    adoption.lateOrphans();
  }

  /** The CLIs the catalogue knows, in its order. */
  public Collection<CliDefinition> clis() {
    return catalogue.all();
  }

  /** Whether {@code cli}'s command is found on the engine's {@code PATH}. */
  public boolean installed(CliDefinition cli) {
    return catalogue.installed(cli);
  }

  /** The kind of transcript the CLI of {@code record} writes; "" when the catalogue names none. */
  public String transcriptKind(SessionRecord record) {
    return catalogue.find(record.cli()).map(CliDefinition::transcript).orElse("");
  }

  /** Whether the tmux binary runs. */
  public boolean tmuxInstalled() {
    return ownTmux.installed();
  }

  /** How each tmux server the engine looks at is watched: by its events, or by polling. */
  public List<ServerWatch> tmuxServers() {
    return ownTmux.watches();
  }

  /** Clique's own tmux server. */
  public Tmux tmux() {
    return ownTmux;
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
    return adoption.discovered(id, source);
  }

  /**
   * Every session, as {@code GET /api/state} shows it, oldest first: the recorded ones (clique's
   * own, and the adopted), then the discovered ones not adopted. Served from memory: the list (and
   * its JSON) is made again only when the records or the snapshot changed.
   */
  public List<SessionView> sessions() {
    return views.all();
  }

  /** The same, written with each session's usage in brief and no limits (a listing's form). */
  public List<SessionView> sessionsInBrief() {
    return views.all().inBrief();
  }

  public Optional<SessionView> session(String id) {
    return views.of(id);
  }

  /** The revision of what {@link #sessions()} shows now. */
  public long revision() {
    return views.changes().revision();
  }

  /**
   * The revision once it is not {@code after} (at once when it already is not), or the same one
   * when {@code timeoutMillis} pass: a request held until the sessions change.
   */
  public CompletableFuture<Long> changedAfter(long after, long timeoutMillis) {
    return views.changes().after(after, timeoutMillis);
  }

  /** The revision of what {@link #sessions()} shows, and the requests held until it moves. */
  public ChangeFeed changes() {
    return views.changes();
  }

  /**
   * Ends the waits a session outside tmux now meets: its state is said by discovery (no pane, so
   * the watcher never sees it), in the list that replaced {@code before}.
   */
  private void wakeWaitsOutside(List<Found> before, List<Found> now) {
    Map<String, String> was = new java.util.HashMap<>();
    for (Found one : before) {
      if (one.outside()) {
        was.put(one.id(), outsideState(one));
      }
    }
    for (Found one : now) {
      if (one.outside()) {
        String state = outsideState(one);
        if (!state.equals(was.get(one.id()))) {
          waits.changed(one.id(), state);
        }
      }
    }
  }

  private static String outsideState(Found one) {
    return one.ended() || one.own() == null ? "stopped" : one.own().state();
  }

  /** After every publish of the snapshot and every change of the discovered sessions. */
  private void noteChanges() {
    views.noteChanges();
  }

  /** The session's record: a stored one, or a discovered session's (not adopted). */
  public Optional<SessionRecord> record(String id) {
    return known.record(id);
  }

  public SessionRecord create(NewSession request) throws SessionException {
    SessionRecord record = launch.create(request);
    try {
      store.put(record);
    } catch (IOException e) {
      processes.end(record.id());
      launch.revokeTokens(record.id());
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
      throw badRequest("text must not contain NUL characters: a terminal cannot type them");
    }
    if (text != null && text.getBytes(StandardCharsets.UTF_8).length > MAX_TEXT_BYTES) {
      throw badRequest("text is over " + MAX_TEXT_BYTES + " bytes, the most one send can type");
    }
    requireAlive(id);
    try {
      // Keys sent to a CLI that is starting itself anew would be lost with the old process.
      watcher.awaitRelaunch(id, RELAUNCH_SEND_WAIT_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SessionException(SessionException.Kind.FAILED, "interrupted before typing", e);
    }
    // Marked first, so no look between the keys and the mark can call the session idle.
    watcher.input(id, submits(text, enter, key));
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

  /** Whether keys answer what a screen asks: Enter, or a digit that picks a numbered choice. */
  static boolean submits(String text, boolean enter, String key) {
    if (key != null) {
      return key.equals("Enter") || key.equals("C-m") || key.equals("KPEnter");
    }
    return enter || (text != null && text.length() == 1 && Character.isDigit(text.charAt(0)));
  }

  /**
   * Records an attention signal from the session's hooks: {@code waiting}, {@code error}, or {@code
   * clear}. The signal holds until the pane prints again.
   */
  public void attention(String id, String state) throws SessionException {
    requireOperable(id);
    Signal signal =
        Signal.fromRequest(state)
            .orElseThrow(() -> badRequest("state must be waiting, error or clear"));
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
            .orElseThrow(
                () -> badRequest("CLI " + record.cli() + " sends no hook events clique reads"));
    Optional<Report> report;
    try {
      report = dialect.read(event, clock.millis());
    } catch (IllegalArgumentException e) {
      throw badRequest(e.getMessage());
    }
    report.ifPresent(r -> watcher.report(id, r));
    if (record.cliSessionId() == null) {
      dialect.cliSessionId(event).ifPresent(own -> rememberCliSession(record, own));
    }
    return report.isPresent();
  }

  /** Keeps the id the CLI chose for its session, by which it is resumed when started again. */
  private void rememberCliSession(SessionRecord record, String own) {
    try {
      store.update(record.id(), now -> now.cliSessionId() != null ? now : now.withCliSession(own));
    } catch (IOException e) {
      log.warn("could not keep the CLI's own id of session {}: {}", record.id(), e.getMessage());
    }
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
    panes.forgetScreen(id);
    processes.end(id);
    watcher.refreshNow();
  }

  /** Relaunches a stopped session under the same id. */
  public void restart(String id) throws SessionException {
    SessionRecord record = requireOperable(id);
    watcher.refreshNow();
    if (alive(id)) {
      throw badRequest("session is already running");
    }
    if (record.source() != null) {
      throw badRequest(
          "session runs in tmux session "
              + record.source().session()
              + " on "
              + record.source().socket()
              + ", not clique's own: start its CLI again there");
    }
    launch.relaunch(record);
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
    return panes.environment(id, names);
  }

  /**
   * Where to look for the {@code kind} transcript of a session the engine started: its ids, folder
   * and start, and the variables of its pane's start environment that move a CLI's files.
   */
  public TranscriptRequest transcriptRequest(SessionRecord record, String kind) {
    return new TranscriptRequest(
        kind,
        record.id(),
        record.cliSessionId(),
        Path.of(record.cwd()),
        Instant.ofEpochMilli((long) (record.created() * 1000)),
        paneEnvironment(record.id(), TranscriptRoots.VARIABLES));
  }

  /** Kills the session and forgets it, with its session-bound tokens; its waits answer gone. */
  public void delete(String id) throws SessionException {
    requireOperable(id);
    panes.forget(id);
    processes.end(id);
    try {
      store.remove(id);
    } catch (IOException e) {
      throw new SessionException(
          SessionException.Kind.FAILED, "the session could not be removed: " + e.getMessage(), e);
    }
    waits.gone(id);
    launch.revokeTokens(id);
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
   * Whether a person looks at the session now: a client attached to it (not a control client) was
   * active within {@code window}. Asks its tmux server once; a session it cannot ask is not looked
   * at.
   */
  public boolean watched(String id, Duration window) {
    try {
      OptionalLong at = tmux.clientActivity(id);
      return at.isPresent() && clock.millis() / 1000 - at.getAsLong() <= window.toSeconds();
    } catch (TmuxException | RuntimeException e) {
      log.debug("whether a person looks at {} could not be asked: {}", id, e.getMessage());
      return false;
    }
  }

  /**
   * The last {@code lines} lines of the pane as text ({@link PaneText}); a stopped session has
   * none.
   */
  public PaneLines peek(String id, int lines) throws SessionException {
    requireRecord(id);
    return panes.peek(id, lines);
  }

  @Override
  public void close() {
    discovery.close();
    watcher.close();
    slowFacts.close();
    waits.close();
    views.close();
  }

  SessionWatcher watcher() {
    return watcher;
  }

  /** Gathers memory and git status now, on this thread (tests). */
  void gatherFactsNow() {
    slowFacts.gatherNow(watcher.snapshot());
  }

  private String stateOf(String id) {
    if (record(id).isEmpty()) {
      return null;
    }
    Optional<Found> outside = known.outside(id);
    if (outside.isPresent()) {
      return outsideState(outside.get());
    }
    SessionWatcher.Live live = watcher.snapshot().live().get(id);
    return live == null ? "stopped" : live.verdict().state().wireName();
  }

  private boolean alive(String id) {
    SessionWatcher.Live live = watcher.snapshot().live().get(id);
    return live != null && live.alive();
  }

  private SessionRecord requireRecord(String id) throws SessionException {
    return record(id)
        .orElseThrow(
            () -> new SessionException(SessionException.Kind.NOT_FOUND, "no such session"));
  }

  /** A session that may be operated: clique's own, or an adopted one. */
  private SessionRecord requireOperable(String id) throws SessionException {
    SessionRecord record = requireRecord(id);
    if (record.source() != null && record.source().outside()) {
      throw new SessionException(
          SessionException.Kind.FORBIDDEN,
          "session "
              + id
              + " runs outside tmux, on "
              + record.source().where()
              + ": it is read-only (clique types only into tmux panes) and cannot be adopted");
    }
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
        throw badRequest("session is not running");
      }
    }
  }
}
