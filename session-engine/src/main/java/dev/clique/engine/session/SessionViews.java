package dev.clique.engine.session;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.discovery.Found;
import dev.clique.engine.discovery.OwnState;
import dev.clique.engine.json.EngineJson;
import dev.clique.engine.state.Attention;
import dev.clique.engine.state.StateSource;
import dev.clique.engine.state.Verdict;
import dev.clique.engine.tmux.PaneInfo;
import dev.clique.engine.tmux.Tmux;
import dev.clique.engine.transcript.UsageReport;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the API shows of the sessions: each one's {@link SessionView}, the listing of them all (made
 * again, with its JSON, only when something it is made of changed), and the marks that move the
 * {@link ChangeFeed}'s revision when a reader of the listing would see a change.
 */
final class SessionViews implements AutoCloseable {
  /** The signals that end processes most often, by their Linux numbers. */
  private static final Map<Integer, String> SIGNAL_NAMES =
      Map.of(
          1, "SIGHUP", 2, "SIGINT", 3, "SIGQUIT", 4, "SIGILL", 6, "SIGABRT", 7, "SIGBUS", 9,
          "SIGKILL", 11, "SIGSEGV", 13, "SIGPIPE", 15, "SIGTERM");

  private static final ObjectMapper JSON = EngineJson.mapper();

  private final SessionStore store;
  private final KnownSessions known;
  private final SessionWatcher watcher;
  private final SlowFacts slowFacts;
  private final CliCatalogue catalogue;
  private final Tmux tmux;
  private final ChangeFeed changes;
  private volatile Listing listing;
  private final Object marking = new Object();
  private Marked marked; // guarded by marking

  SessionViews(
      SessionStore store,
      KnownSessions known,
      SessionWatcher watcher,
      SlowFacts slowFacts,
      CliCatalogue catalogue,
      Tmux tmux,
      Clock clock) {
    this.store = store;
    this.known = known;
    this.watcher = watcher;
    this.slowFacts = slowFacts;
    this.catalogue = catalogue;
    this.tmux = tmux;
    this.changes = new ChangeFeed(clock.millis());
  }

  /** Every session, oldest first, served from memory while nothing it is made of changed. */
  SessionList all() {
    List<SessionRecord> recorded = store.all();
    List<Found> found = known.shown();
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
    List<SessionRecord> all = known.records(found);
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
   * The last answer of {@link #all()} and what it was made from: the stored records (an adopted
   * session is one of them), the discovered sessions and the snapshot.
   */
  private record Listing(
      List<SessionRecord> records,
      List<Found> found,
      SessionWatcher.Snapshot snapshot,
      SlowFacts.Facts facts,
      SessionList sessions) {}

  Optional<SessionView> of(String id) {
    SessionWatcher.Snapshot snapshot = watcher.snapshot();
    return known.record(id).map(record -> view(record, snapshot, slowFacts.fresh(snapshot)));
  }

  ChangeFeed changes() {
    return changes;
  }

  /**
   * Moves the revision if a reader of {@link #all()} would see a change: after every publish of the
   * snapshot and every change of the discovered sessions. Marks are made only when the records, the
   * discovered sessions or the snapshot are not those of the last look.
   */
  void noteChanges() {
    synchronized (marking) {
      List<SessionRecord> recorded = store.all();
      List<Found> found = known.shown();
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
      for (SessionRecord record : known.records(found)) {
        marks.add(ChangeFeed.Mark.of(view(record, snapshot, SlowFacts.Facts.NONE)));
      }
      changes.observe(marks);
    }
  }

  /** What the last marks were made from. */
  private record Marked(
      List<SessionRecord> records, List<Found> found, SessionWatcher.Snapshot snapshot) {}

  private SessionView view(
      SessionRecord record, SessionWatcher.Snapshot snapshot, SlowFacts.Facts facts) {
    if (record.source() != null && record.source().outside()) {
      Optional<Found> outside = known.outside(record.id());
      if (outside.isPresent()) {
        return outsideView(record, outside.get(), facts);
      }
    }
    SessionWatcher.Live live = snapshot.live().get(record.id());
    Optional<CliDefinition> cli = catalogue.find(record.cli());
    String label = cli.map(CliDefinition::label).orElse(record.cli());
    Path cwd = Path.of(record.cwd());
    String project = cwd.getFileName() == null ? record.cwd() : cwd.getFileName().toString();
    boolean alive = live != null && live.alive();
    Verdict verdict = live == null ? Verdict.STOPPED : live.verdict();
    GitStatus git = facts.git().getOrDefault(record.cwd(), GitStatus.NONE);
    UsageReport used = facts.usage().getOrDefault(record.id(), UsageReport.NONE);
    // tmux keeps a dead pane: how its process ended, and its last screen, stay readable.
    boolean dead = live != null && live.pane() != null && live.pane().dead();
    Integer exitStatus = dead && live.pane().exitStatus() >= 0 ? live.pane().exitStatus() : null;
    String version = alive ? facts.versions().get(record.id()) : null;
    SessionView.SourceView source =
        dead
            ? new SessionView.SourceView("process", howItEnded(live.pane()))
            : new SessionView.SourceView(
                verdict.source().authority(), evidence(verdict.source(), cli, version));
    return new SessionView(
        record.id(),
        record.name(),
        record.cli(),
        label,
        version,
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
                seconds(verdict.attention().sinceMillis()),
                verdict.attention().resetsAt() == null
                    ? null
                    : verdict.attention().resetsAt().toString()),
        source,
        exitStatus,
        record.source() == null ? null : store.find(record.id()).isPresent(),
        record.source(),
        alive ? detached(facts.detached().getOrDefault(record.id(), List.of())) : List.of(),
        used.usage(),
        used.limits());
  }

  /**
   * A session outside tmux: no pane, so no screen, size or command line of tmux's; its state is
   * what its CLI records by itself ({@link OwnState}), or stopped once its process ended.
   */
  private SessionView outsideView(SessionRecord record, Found found, SlowFacts.Facts facts) {
    Optional<CliDefinition> cli = catalogue.find(record.cli());
    Path cwd = Path.of(record.cwd());
    boolean alive = !found.ended();
    OwnState own = alive ? found.own() : null;
    GitStatus git = facts.git().getOrDefault(record.cwd(), GitStatus.NONE);
    UsageReport used = facts.usage().getOrDefault(record.id(), UsageReport.NONE);
    String state = own == null ? "stopped" : own.state();
    boolean waiting = "waiting".equals(state);
    SessionView.AttentionView attention =
        waiting && own.attentionKind() != null
            ? new SessionView.AttentionView(
                own.attentionKind(), own.attentionDetail(), seconds(own.sinceMillis()), null)
            : null;
    SessionView.SourceView source =
        own == null
            ? new SessionView.SourceView("process", "pid " + found.cliPid() + " ended")
            : new SessionView.SourceView(own.authority(), own.evidence());
    String command =
        found.argv().isEmpty() ? null : Path.of(found.argv().get(0)).getFileName().toString();
    return new SessionView(
        record.id(),
        record.name(),
        record.cli(),
        cli.map(CliDefinition::label).orElse(record.cli()),
        alive ? facts.versions().get(record.id()) : null,
        record.cwd(),
        cwd.getFileName() == null ? record.cwd() : cwd.getFileName().toString(),
        null,
        null,
        record.created(),
        alive,
        alive && found.terminal().tty() != null,
        alive ? command : null,
        own == null ? 0 : seconds(own.sinceMillis()),
        0,
        0,
        "working".equals(state),
        waiting ? "waiting" : "",
        waiting && own.attentionDetail() != null ? own.attentionDetail() : "",
        state,
        alive ? facts.rss().getOrDefault(record.id(), 0L) : 0,
        git.branch(),
        git.dirty(),
        attention,
        source,
        null,
        false,
        record.source(),
        List.of(),
        used.usage(),
        used.limits());
  }

  /**
   * The evidence of a state, with a word when it was read from the screen of a version of the CLI
   * its patterns were not proven on: a screen that changed in that version may be misread.
   */
  static String evidence(StateSource source, Optional<CliDefinition> cli, String version) {
    String evidence = source.evidence();
    if (!StateSource.PANE.equals(source.authority())
        || version == null
        || cli.isEmpty()
        || cli.get().proven().isEmpty()
        || cli.get().proven().contains(version)) {
      return evidence;
    }
    String note =
        " (patterns proven on "
            + cli.get().label()
            + " "
            + String.join(", ", cli.get().proven())
            + "; this is "
            + version
            + ")";
    int room = Math.max(0, Attention.DETAIL_MAX - note.length());
    return (evidence.length() > room ? evidence.substring(0, room) : evidence) + note;
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

  /** A time on the wire: seconds, from the milliseconds the engine keeps. */
  static double seconds(long millis) {
    return millis / 1000.0;
  }

  @Override
  public void close() {
    changes.close();
  }
}
