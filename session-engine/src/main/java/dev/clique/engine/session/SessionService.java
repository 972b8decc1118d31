package dev.clique.engine.session;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.state.SessionState;
import dev.clique.engine.tmux.PaneInfo;
import dev.clique.engine.tmux.Tmux;
import dev.clique.engine.tmux.TmuxException;
import dev.clique.engine.token.MintedToken;
import dev.clique.engine.token.Scope;
import dev.clique.engine.token.TokenStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sessions: their records, their tmux sessions, and a live snapshot of their panes that {@code
 * GET /api/state} is served from.
 */
public final class SessionService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SessionService.class);
  private static final long BUSY_SECONDS = 2;
  private static final long REFRESH_MILLIS = 250;

  private final SessionStore store;
  private final Tmux tmux;
  private final CliCatalogue catalogue;
  private final TokenStore tokens;
  private final Clock clock;
  private final Supplier<String> engineUrl;
  private final ScheduledExecutorService refresher;
  private volatile Map<String, PaneInfo> panes = Map.of();
  private final Set<PendingWait> waits = ConcurrentHashMap.newKeySet();
  private final Map<String, Signal> signals = new ConcurrentHashMap<>();

  /** An attention signal and when it was given (unix seconds). */
  private record Signal(String state, double at) {}

  public SessionService(
      SessionStore store,
      Tmux tmux,
      CliCatalogue catalogue,
      TokenStore tokens,
      Clock clock,
      Supplier<String> engineUrl) {
    this.store = store;
    this.tmux = tmux;
    this.catalogue = catalogue;
    this.tokens = tokens;
    this.clock = clock;
    this.engineUrl = engineUrl;
    this.refresher =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "session-refresh");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Starts keeping the pane snapshot fresh. */
  public void start() {
    refresh();
    refresher.scheduleWithFixedDelay(
        this::refresh, REFRESH_MILLIS, REFRESH_MILLIS, TimeUnit.MILLISECONDS);
  }

  public CliCatalogue catalogue() {
    return catalogue;
  }

  public Tmux tmux() {
    return tmux;
  }

  /** Every session, as {@code GET /api/state} shows it, oldest first. */
  public List<SessionView> sessions() {
    Map<String, PaneInfo> now = panes;
    List<SessionView> views = new ArrayList<>();
    for (SessionRecord record : store.all()) {
      views.add(view(record, now.get(record.id())));
    }
    return views;
  }

  public Optional<SessionView> session(String id) {
    return store.find(id).map(record -> view(record, panes.get(id)));
  }

  public Optional<SessionRecord> record(String id) {
    return store.find(id);
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
    Path cwd = Path.of(request.cwd());
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
    SessionRecord record =
        new SessionRecord(
            id, name, cli.id(), cwd.toString(), null, mode, clock.millis() / 1000.0, null);
    launch(record, cli, binary, false);
    try {
      store.put(record);
    } catch (IOException e) {
      quietKill(id);
      throw new SessionException(
          SessionException.Kind.FAILED, "the session could not be saved: " + e.getMessage(), e);
    }
    refresh();
    return record;
  }

  public void send(String id, String text, boolean enter, String key) throws SessionException {
    requireRecord(id);
    requireAlive(id);
    try {
      if (key != null) {
        tmux.sendKey(id, key);
      } else {
        tmux.sendText(id, text == null ? "" : text);
        if (enter) {
          tmux.sendKey(id, "Enter");
        }
      }
    } catch (TmuxException e) {
      throw new SessionException(SessionException.Kind.FAILED, e.getMessage(), e);
    }
  }

  /**
   * Records what a session's own hooks report: {@code waiting} or {@code error} until the pane
   * prints again, or {@code clear}.
   */
  public void attention(String id, String state) throws SessionException {
    requireRecord(id);
    if (state.equals("clear")) {
      signals.remove(id);
    } else {
      signals.put(id, new Signal(state, clock.millis() / 1000.0));
    }
    wakeWaits();
  }

  /** Stops the tmux session and keeps the record. */
  public void kill(String id) throws SessionException {
    requireRecord(id);
    quietKill(id);
    refresh();
  }

  /** Relaunches a stopped session under the same id. */
  public void restart(String id) throws SessionException {
    SessionRecord record = requireRecord(id);
    if (panes.containsKey(id)) {
      throw bad("session is already running");
    }
    CliDefinition cli =
        catalogue.find(record.cli()).orElseThrow(() -> bad("unknown CLI: " + record.cli()));
    Path binary =
        catalogue.resolve(cli).orElseThrow(() -> bad("CLI " + cli.id() + " is not installed"));
    launch(record, cli, binary, true);
    refresh();
  }

  /** Kills the session and forgets it, with its session-bound tokens. */
  public void delete(String id) throws SessionException {
    requireRecord(id);
    quietKill(id);
    try {
      store.remove(id);
      wakeWaits();
      tokens.revokeSession(id);
    } catch (IOException e) {
      throw new SessionException(
          SessionException.Kind.FAILED, "the session could not be removed: " + e.getMessage(), e);
    }
    refresh();
  }

  /**
   * Completes when the session's state is one of {@code states} or {@code timeoutMillis} pass.
   * Holds no thread while it waits: every refresh checks the pending waits.
   */
  public CompletableFuture<WaitOutcome> await(String id, Set<String> states, long timeoutMillis)
      throws SessionException {
    requireRecord(id);
    PendingWait wait = new PendingWait(id, states, System.nanoTime());
    if (wait.check()) {
      return wait.future;
    }
    waits.add(wait);
    refresher.schedule(() -> wait.expire(), timeoutMillis, TimeUnit.MILLISECONDS);
    wait.future.whenComplete((outcome, error) -> waits.remove(wait));
    return wait.future;
  }

  @Override
  public void close() {
    refresher.shutdownNow();
    for (PendingWait wait : waits) {
      wait.future.cancel(false);
    }
  }

  private void wakeWaits() {
    for (PendingWait wait : waits) {
      wait.check();
    }
  }

  private final class PendingWait {
    final String id;
    final Set<String> states;
    final long startNanos;
    final CompletableFuture<WaitOutcome> future = new CompletableFuture<>();

    PendingWait(String id, Set<String> states, long startNanos) {
      this.id = id;
      this.states = states;
      this.startNanos = startNanos;
    }

    /** Completes the wait when the state matches (or the session is gone); true if done. */
    boolean check() {
      Optional<SessionView> view = session(id);
      if (view.isEmpty()) {
        return future.complete(new WaitOutcome(id, "gone", false, waited()));
      }
      String state = view.get().state();
      if (states.contains(state)) {
        return future.complete(new WaitOutcome(id, state, true, waited()));
      }
      return future.isDone();
    }

    void expire() {
      String state = session(id).map(SessionView::state).orElse("gone");
      future.complete(new WaitOutcome(id, state, false, waited()));
    }

    double waited() {
      return Math.round((System.nanoTime() - startNanos) / 1e8) / 10.0;
    }
  }

  /** Re-reads every pane in one tmux call. */
  public void refresh() {
    try {
      Map<String, PaneInfo> next = new HashMap<>();
      for (PaneInfo pane : tmux.listPanes()) {
        next.put(pane.session(), pane);
      }
      panes = Map.copyOf(next);
      wakeWaits();
    } catch (TmuxException e) {
      log.debug("tmux list-panes failed: {}", e.getMessage());
    } catch (RuntimeException e) {
      log.warn("pane refresh failed", e);
    }
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
    boolean resuming = resume && record.cliSessionId() != null;
    List<String> argv = cli.launchArgv(binary, values, resuming);
    Map<String, String> env = new LinkedHashMap<>();
    env.put("CLIQUE_SESSION", record.id());
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
  }

  private SessionView view(SessionRecord record, PaneInfo pane) {
    String label = catalogue.find(record.cli()).map(CliDefinition::label).orElse(record.cli());
    Path cwd = Path.of(record.cwd());
    String project = cwd.getFileName() == null ? record.cwd() : cwd.getFileName().toString();
    boolean alive = pane != null && !pane.dead();
    long now = clock.millis() / 1000;
    boolean busy = alive && now - pane.activity() <= BUSY_SECONDS;
    Signal signal = signals.get(record.id());
    // A signal holds until the pane prints again.
    boolean signalled = alive && !busy && signal != null && pane.activity() <= signal.at();
    SessionState state =
        !alive
            ? SessionState.STOPPED
            : busy
                ? SessionState.WORKING
                : signalled
                    ? SessionState.fromWire(signal.state()).orElse(SessionState.IDLE)
                    : SessionState.IDLE;
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
        alive && pane.attached(),
        alive ? pane.command() : null,
        pane == null ? 0 : pane.activity(),
        pane == null ? 0 : pane.cols(),
        pane == null ? 0 : pane.rows(),
        busy,
        signalled ? signal.state() : "",
        "",
        state.wireName(),
        0,
        "",
        0);
  }

  private SessionRecord requireRecord(String id) throws SessionException {
    return store
        .find(id)
        .orElseThrow(
            () -> new SessionException(SessionException.Kind.NOT_FOUND, "no such session"));
  }

  private void requireAlive(String id) throws SessionException {
    if (!panes.containsKey(id)) {
      refresh();
      if (!panes.containsKey(id)) {
        throw bad("session is not running");
      }
    }
  }

  private void quietKill(String id) {
    try {
      tmux.killSession(id);
    } catch (TmuxException e) {
      log.warn("tmux kill-session failed: {}", e.getMessage());
    }
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
