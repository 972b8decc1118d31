package dev.clique.engine.notify;

import dev.clique.engine.session.SessionView;
import dev.clique.engine.state.Attention;
import dev.clique.engine.state.StateSource;
import dev.clique.engine.state.Verdict;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns what the sessions show, look after look, into the notices worth a person's attention:
 *
 * <ul>
 *   <li>{@code waiting}, {@code usage_limit}, {@code error}: once the session has been so for the
 *       dwell (a shorter flicker is not told), once per episode (until it leaves that state);
 *   <li>{@code waiting} again every {@code remindEvery} while the episode it was told of lasts,
 *       when a reminder is asked for;
 *   <li>{@code finished}: a session that worked at least {@code finishedAfter} is idle;
 *   <li>{@code stopped}: its CLI exited by itself (a dead pane tells how), not a session a person
 *       stopped (its tmux session is gone, not its process);
 *   <li>the {@code finished} and {@code stopped} of several sessions within the burst window go as
 *       one notice naming them.
 * </ul>
 *
 * What the first look shows is where things stand, not news: a session already waiting when the
 * engine starts is not told again. Not thread-safe: one thread looks.
 */
final class NotifyRules {
  /**
   * The rules' settings, from {@code [rules]} of {@code notify.toml}: {@code remindEvery} zero is
   * no reminder; {@code skipWhenWatched} leaves out a session a person is looking at (the {@link
   * Notifier} asks tmux, as a notice is about to go).
   */
  record Settings(
      Duration dwell,
      Duration finishedAfter,
      Duration burst,
      Duration remindEvery,
      boolean skipWhenWatched) {
    static final Settings DEFAULT =
        new Settings(
            Duration.ofSeconds(3),
            Duration.ofSeconds(30),
            Duration.ofSeconds(1),
            Duration.ZERO,
            true);
  }

  private static final String WORKING = "working";
  private static final String IDLE = "idle";
  private static final String STOPPED = "stopped";

  private final Clock clock;
  private Settings settings;
  private final Map<String, Track> tracks = new LinkedHashMap<>();
  private final Map<Event, Burst> bursts = new EnumMap<>(Event.class);
  private boolean first = true;

  NotifyRules(Settings settings, Clock clock) {
    this.settings = settings;
    this.clock = clock;
  }

  void settings(Settings settings) {
    this.settings = settings;
  }

  Settings settings() {
    return settings;
  }

  /** Forgets everything: the next look is a first look again. */
  void reset() {
    tracks.clear();
    bursts.clear();
    first = true;
  }

  /** What one session was doing at the last looks. */
  private static final class Track {
    SessionView view;
    Event episode; // waiting, usage_limit or error; null in any other state
    long episodeSince;
    boolean told;
    long toldAt = -1; // when this episode was last told; -1 not told (or no news at the first look)
    long busySince = -1; // since when it works (asking a person on the way included); -1 idle
  }

  /** Sessions whose notice waits for the rest of a burst. */
  private static final class Burst {
    final long since;
    final Map<String, String> states = new LinkedHashMap<>(); // id -> the state that was news

    Burst(long since) {
      this.since = since;
    }
  }

  /** Takes a look at every session, and answers the notices due now. */
  List<Notice> observe(List<SessionView> views) {
    long now = clock.millis();
    Set<String> seen = new HashSet<>();
    for (SessionView view : views) {
      seen.add(view.id());
      Track track = tracks.get(view.id());
      boolean known = track != null;
      if (!known) {
        track = new Track();
        tracks.put(view.id(), track);
      }
      SessionView before = track.view;
      track.view = view;
      Event episode = episodeOf(view);
      if (episode != track.episode) {
        track.episode = episode;
        track.episodeSince = now;
        track.told = first; // where things stood at the first look is no news
        track.toldAt = -1;
      }
      switch (view.state()) {
        case WORKING -> {
          if (track.busySince < 0) {
            track.busySince = now;
          }
        }
        case IDLE -> {
          if (track.busySince >= 0
              && now - track.busySince >= settings.finishedAfter().toMillis()) {
            join(Event.FINISHED, view, now);
          }
          track.busySince = -1;
        }
        case STOPPED -> {
          if (before != null && !STOPPED.equals(before.state()) && endedByItself(view)) {
            join(Event.STOPPED, view, now);
          }
          track.busySince = -1;
        }
        default -> {
          // waiting or error: the work it was doing goes on once a person answers
        }
      }
    }
    tracks.keySet().retainAll(seen);
    first = false;
    return due(now);
  }

  /** The notices due now, without a new look (a dwell or a burst window that ended). */
  List<Notice> due() {
    return due(clock.millis());
  }

  /** When the next notice may be due, in clock millis; {@link Long#MAX_VALUE} when none waits. */
  long nextDueMillis() {
    long next = Long.MAX_VALUE;
    for (Track track : tracks.values()) {
      if (track.episode != null && !track.told) {
        next = Math.min(next, track.episodeSince + settings.dwell().toMillis());
      } else if (reminds(track)) {
        next = Math.min(next, track.toldAt + settings.remindEvery().toMillis());
      }
    }
    for (Burst burst : bursts.values()) {
      next = Math.min(next, burst.since + settings.burst().toMillis());
    }
    return next;
  }

  private List<Notice> due(long now) {
    List<Notice> due = new ArrayList<>();
    for (Track track : tracks.values()) {
      if (track.episode != null
          && !track.told
          && now - track.episodeSince >= settings.dwell().toMillis()) {
        track.told = true;
        track.toldAt = now;
        due.add(new Notice(track.episode, List.of(track.view), Instant.ofEpochMilli(now)));
      } else if (reminds(track) && now - track.toldAt >= settings.remindEvery().toMillis()) {
        track.toldAt = now;
        due.add(new Notice(track.episode, List.of(track.view), Instant.ofEpochMilli(now)));
      }
    }
    for (var ended = bursts.entrySet().iterator(); ended.hasNext(); ) {
      Map.Entry<Event, Burst> entry = ended.next();
      Event event = entry.getKey();
      Burst burst = entry.getValue();
      if (now - burst.since < settings.burst().toMillis()) {
        continue;
      }
      ended.remove();
      List<SessionView> still = new ArrayList<>();
      burst.states.forEach(
          (id, state) -> {
            Track track = tracks.get(id);
            // Told only if it is still so: a session back at work within the window finished not.
            if (track != null && state.equals(track.view.state())) {
              still.add(track.view);
            }
          });
      if (!still.isEmpty()) {
        due.add(new Notice(event, still, Instant.ofEpochMilli(now)));
      }
    }
    return due;
  }

  /** Whether a reminder of this track's episode is due some time: a waiting it told of. */
  private boolean reminds(Track track) {
    return track.episode == Event.WAITING
        && track.toldAt >= 0
        && settings.remindEvery().compareTo(Duration.ZERO) > 0;
  }

  private void join(Event event, SessionView view, long now) {
    bursts.computeIfAbsent(event, e -> new Burst(now)).states.put(view.id(), view.state());
  }

  /** The episode a session's view is in: what it asks of a person, or null. */
  static Event episodeOf(SessionView view) {
    return switch (view.state()) {
      case "waiting" ->
          view.attention() != null && Attention.USAGE_LIMIT.equals(view.attention().kind())
              ? Event.USAGE_LIMIT
              : Event.WAITING;
      case "error" -> Event.ERROR;
      default -> null;
    };
  }

  /**
   * Whether a stopped session's CLI ended by itself: tmux kept its dead pane, which says how. A
   * session stopped through clique (or its tmux session killed by a person) has no pane left.
   */
  static boolean endedByItself(SessionView view) {
    SessionView.SourceView source = view.stateSource();
    return view.exitStatus() != null
        || (source != null
            && StateSource.PROCESS.equals(source.authority())
            && !Verdict.STOPPED.source().evidence().equals(source.evidence()));
  }
}
