package dev.clique.engine.session;

import static dev.clique.engine.session.SessionException.badRequest;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.discovery.Found;
import dev.clique.engine.tmux.HomeMark;
import dev.clique.engine.tmux.PaneInfo;
import dev.clique.engine.tmux.Tmux;
import dev.clique.engine.tmux.TmuxException;
import dev.clique.engine.token.TokenStore;
import java.io.IOException;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a session that runs without a record one of the engine's: an orphan of this home on
 * clique's own socket (the engine died between starting its tmux session and recording it), or a
 * discovered session a person adopts, which stays where it runs. The socket may be shared by other
 * homes: their sessions are never taken.
 */
final class Adoption {
  private static final Logger log = LoggerFactory.getLogger(Adoption.class);

  /** A session token this young may belong to a session another engine is starting now. */
  private static final long ORPHAN_TOKEN_AGE_SECONDS = 60;

  private final SessionStore store;
  private final KnownSessions known;

  /** Clique's own server: where orphans are looked for. */
  private final Tmux ownTmux;

  private final SessionWatcher watcher;
  private final CliCatalogue catalogue;
  private final TokenStore tokens;
  private final Clock clock;

  /** The sessions of other homes on the socket, with the mark each had when it was said. */
  private final Map<String, String> leftAlone = new HashMap<>(); // guarded by this

  Adoption(
      SessionStore store,
      KnownSessions known,
      Tmux ownTmux,
      SessionWatcher watcher,
      CliCatalogue catalogue,
      TokenStore tokens,
      Clock clock) {
    this.store = store;
    this.known = known;
    this.ownTmux = ownTmux;
    this.watcher = watcher;
    this.catalogue = catalogue;
    this.tokens = tokens;
    this.clock = clock;
  }

  /**
   * Records each session on the own socket that no record names and that belongs to this home, as a
   * session of the CLI its pane runs, with a log line; then revokes the session-bound tokens of
   * sessions that no longer exist. A session of another home is left to that home's engine, said
   * once in the log.
   *
   * @return how many were adopted
   */
  synchronized int orphans() {
    List<PaneInfo> panes;
    try {
      panes = ownTmux.listPanes();
    } catch (TmuxException e) {
      log.warn(
          "could not look for sessions left on socket {}: {}", ownTmux.socket(), e.getMessage());
      return 0;
    }
    HomeMark home = store.home();
    Set<String> listed = new HashSet<>();
    int adopted = 0;
    for (PaneInfo pane : panes) {
      listed.add(pane.session());
      if (pane.dead()) {
        continue;
      }
      if (store.find(pane.session()).isPresent()) {
        if (pane.home().isEmpty()) {
          mark(pane.session(), home); // an older clique's session of this home: marked now
        }
        continue;
      }
      if (!belongsHere(pane, home)) {
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
        continue;
      }
      if (pane.home().isEmpty()) {
        mark(id, home);
      }
    }
    leftAlone.keySet().retainAll(listed);
    try {
      Set<String> ids = new HashSet<>();
      store.all().forEach(r -> ids.add(r.id()));
      int revoked = tokens.revokeOrphans(ids, ORPHAN_TOKEN_AGE_SECONDS);
      if (revoked > 0) {
        log.info("revoked {} session tokens of sessions that no longer exist", revoked);
      }
    } catch (IOException e) {
      log.warn("could not revoke the tokens of sessions that no longer exist: {}", e.getMessage());
    }
    return adopted;
  }

  /**
   * Whether an unrecorded session on the socket is this home's: it carries this home's mark, or,
   * made by an older clique that marked none, this home minted its hook token (every session
   * started gets one, before its tmux session is made). Any other is another home's engine's to
   * pick up: the socket is shared by every home that names it, and a session is never taken from
   * the home that started it.
   */
  private boolean belongsHere(PaneInfo pane, HomeMark home) {
    String id = pane.session();
    if (!pane.home().isEmpty()) {
      if (pane.home().equals(home.id())) {
        return true;
      }
      if (!pane.home().equals(leftAlone.put(id, pane.home()))) {
        log.info(
            "left session {} alone: it belongs to clique home {}, not to this one ({})",
            id,
            describe(otherHome(id, pane.home())),
            home.dir());
      }
      return false;
    }
    if (tokens.holdsSession(id)) {
      return true;
    }
    if (!"".equals(leftAlone.put(id, ""))) {
      log.info(
          "left session {} alone: it carries no clique home (a clique older than the mark, or a"
              + " person, made it) and this home holds no token of it, so it may be another"
              + " home's; to make it this home's: tmux {} {} set-option -t '={}:' {} {}",
          id,
          ownTmux.socket().startsWith("/") ? "-S" : "-L",
          ownTmux.socket(),
          id,
          HomeMark.ID_OPTION,
          home.none() ? "<this home's id>" : home.id());
    }
    return false;
  }

  /** The other home's mark as its session carries it, its folder too when it can be read. */
  private HomeMark otherHome(String id, String homeId) {
    try {
      HomeMark mark = ownTmux.home(id);
      return mark.id().equals(homeId) ? mark : new HomeMark(homeId, "");
    } catch (TmuxException e) {
      return new HomeMark(homeId, "");
    }
  }

  private static String describe(HomeMark home) {
    return home.dir().isEmpty() ? home.id() : home.dir() + " (id " + home.id() + ")";
  }

  /** Marks a session of this home that carries no mark; one that cannot be is still this home's. */
  private void mark(String id, HomeMark home) {
    if (home.none()) {
      return;
    }
    try {
      ownTmux.markHome(id, home);
    } catch (TmuxException e) {
      log.debug("could not mark session {} as this home's: {}", id, e.getMessage());
    }
  }

  /** From now on, adopts the orphans the watcher finds once they have gone unrecorded a while. */
  void lateOrphans() {
    watcher.onStrangers(
        () -> {
          int adopted = orphans();
          if (adopted > 0) {
            watcher.refreshNow();
          }
        });
  }

  /**
   * Records the discovered session {@code id} names, or the one that runs at {@code source}; an
   * adopted session is returned as it is.
   */
  SessionRecord discovered(String id, Source source) throws SessionException {
    if (id == null && (source == null || source.socket() == null || source.pane() == null)) {
      throw badRequest("adopt needs the session's id, or its source with socket and pane");
    }
    Found match = null;
    for (Found one : known.shown()) {
      if (one.outside()) {
        if (one.id().equals(id)) {
          throw new SessionException(
              SessionException.Kind.FORBIDDEN,
              "session "
                  + id
                  + " runs outside tmux, on "
                  + KnownSessions.record(one).source().where()
                  + ": only a session in a tmux pane can be adopted");
        }
        continue;
      }
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
    SessionRecord record = KnownSessions.record(match);
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
}
