package dev.clique.engine.notify;

import dev.clique.engine.session.SessionView;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One message to tell: an event and the session it is about, or the sessions of a burst (several
 * finishing within a moment go as one notice naming them); for {@code stopped}, the last line each
 * one's screen showed, by id, where it is known.
 */
record Notice(Event event, List<SessionView> sessions, Instant at, Map<String, String> lastLines) {
  Notice(Event event, List<SessionView> sessions, Instant at) {
    this(event, sessions, at, Map.of());
  }

  Notice {
    sessions = List.copyOf(sessions);
    lastLines = Map.copyOf(lastLines);
    if (sessions.isEmpty()) {
      throw new IllegalArgumentException("a notice is about at least one session");
    }
  }

  /** The session it is about, or the first of a burst. */
  SessionView first() {
    return sessions.get(0);
  }

  /** The last line the screen of the session it is about showed, or null. */
  String lastLine() {
    return lastLines.get(first().id());
  }

  /** The same notice with the last lines of its sessions' screens. */
  Notice withLastLines(Map<String, String> lines) {
    return new Notice(event, sessions, at, lines);
  }

  /** The same notice about only {@code these} of its sessions. */
  Notice about(List<SessionView> these) {
    return new Notice(event, these, at, lastLines);
  }
}
