package dev.clique.engine.session;

import dev.clique.engine.discovery.Discovery;
import dev.clique.engine.discovery.Found;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Which sessions there are: the stored records (clique's own and the adopted ones), then the
 * sessions discovery found on the user's other tmux servers and nobody adopted, which are no record
 * of the store's.
 */
final class KnownSessions {
  private final SessionStore store;
  private final Discovery discovery;

  /**
   * The discovered sessions the watcher looks at, and those the API shows: a new one is looked at
   * first, so it never shows before its pane was seen.
   */
  private volatile List<Found> watched = List.of();

  private volatile List<Found> shown = List.of();

  KnownSessions(SessionStore store, Discovery discovery) {
    this.store = store;
    this.discovery = discovery;
  }

  /**
   * Hands the watcher what discovery found now in tmux (a session outside tmux has no pane to
   * watch); the API shows it all once {@link #show} is called.
   */
  void watch(List<Found> found) {
    List<Found> inTmux = new ArrayList<>(found.size());
    for (Found one : found) {
      if (!one.outside()) {
        inTmux.add(one);
      }
    }
    watched = inTmux.size() == found.size() ? found : List.copyOf(inTmux);
  }

  void show(List<Found> found) {
    shown = found;
  }

  /** The discovered sessions the API shows. */
  List<Found> shown() {
    return shown;
  }

  /** The session outside tmux {@code id} names, as the API shows it now. */
  Optional<Found> outside(String id) {
    for (Found one : shown) {
      if (one.outside() && one.id().equals(id)) {
        return Optional.of(one);
      }
    }
    return Optional.empty();
  }

  /** Every session the API shows: the watched ones, then those outside tmux. */
  List<SessionRecord> all() {
    return records(shown, store.all());
  }

  /**
   * Every session the watcher looks at: the same list, by identity, as long as neither the records
   * nor what discovery found changed (the watcher asks on every tick).
   */
  List<SessionRecord> watched() {
    List<Found> found = watched;
    List<SessionRecord> recorded = store.all();
    Watched last = lastWatched;
    if (last != null && last.found == found && last.recorded == recorded) {
      return last.all;
    }
    List<SessionRecord> all = records(found, recorded);
    lastWatched = new Watched(found, recorded, all);
    return all;
  }

  private record Watched(
      List<Found> found, List<SessionRecord> recorded, List<SessionRecord> all) {}

  private volatile Watched lastWatched;

  /** Every session: the stored ones, then those of {@code found} that are not stored. */
  List<SessionRecord> records(List<Found> found) {
    return records(found, store.all());
  }

  private static List<SessionRecord> records(List<Found> found, List<SessionRecord> recorded) {
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

  /** The session's record: a stored one, or a discovered session's (not adopted). */
  Optional<SessionRecord> record(String id) {
    Optional<SessionRecord> stored = store.find(id);
    if (stored.isPresent()) {
      return stored;
    }
    for (Found one : shown) {
      if (one.id().equals(id)) {
        return Optional.of(record(one));
      }
    }
    return Optional.empty();
  }

  /** A discovered session as a record: where it runs is its {@link Source}. */
  static SessionRecord record(Found found) {
    Source source =
        found.outside()
            ? Source.outsideTmux(found.terminal().tty(), found.cliPid(), found.terminal().program())
            : new Source(found.socket(), found.session(), found.window(), found.pane());
    return new SessionRecord(
        found.id(),
        found.name(),
        found.cli(),
        found.cwd(),
        null,
        null,
        found.created(),
        null,
        source);
  }

  /** Where each running session that is not on clique's own socket is, by id. */
  Map<String, Source> foreignSources() {
    Map<String, Source> sources = new HashMap<>();
    for (SessionRecord record : store.all()) {
      if (record.source() != null
          && !record.source().outside()
          && discovery.answers(record.source().socket())) {
        sources.put(record.id(), record.source());
      }
    }
    for (Found one : watched) {
      if (!one.ended() && !sources.containsKey(one.id())) {
        sources.put(one.id(), new Source(one.socket(), one.session(), one.window(), one.pane()));
      }
    }
    return sources;
  }
}
