package dev.clique.engine.notify;

import dev.clique.engine.session.SessionView;
import java.time.Instant;
import java.util.List;

/**
 * One message to tell: an event and the session it is about, or the sessions of a burst (several
 * finishing within a moment go as one notice naming them).
 */
record Notice(Event event, List<SessionView> sessions, Instant at) {
  Notice {
    sessions = List.copyOf(sessions);
    if (sessions.isEmpty()) {
      throw new IllegalArgumentException("a notice is about at least one session");
    }
  }

  /** The session it is about, or the first of a burst. */
  SessionView first() {
    return sessions.get(0);
  }

  /** The same notice about only {@code these} of its sessions. */
  Notice about(List<SessionView> these) {
    return new Notice(event, these, at);
  }
}
