package dev.clique.engine.session;

import static dev.clique.engine.session.SessionException.badRequest;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.discovery.Found;
import dev.clique.engine.tmux.PaneInfo;
import dev.clique.engine.tmux.Tmux;
import dev.clique.engine.tmux.TmuxException;
import dev.clique.engine.token.TokenStore;
import java.io.IOException;
import java.time.Clock;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a session that runs without a record one of the engine's: an orphan on clique's own socket
 * (the engine died between starting its tmux session and recording it), or a discovered session a
 * person adopts, which stays where it runs.
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
   * Records each session on the own socket that no record names, as a session of the CLI its pane
   * runs, with a log line; then revokes the session-bound tokens of sessions that no longer exist.
   *
   * @return how many were adopted
   */
  int orphans() {
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
