package dev.clique.engine.notify;

import java.util.Locale;

/** What a notice tells, as {@code events = [...]} of a target names it. */
enum Event {
  /** A session asks a person something (a permission, a question, a folder to trust). */
  WAITING,
  /** A session stopped at its vendor's usage limit. */
  USAGE_LIMIT,
  /** A session shows an error. */
  ERROR,
  /** A session that worked long enough is idle. */
  FINISHED,
  /** A session's CLI exited by itself. */
  STOPPED;

  /** The name in {@code notify.toml} and in a notice's JSON. */
  String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The event {@code name} names, or null. */
  static Event named(String name) {
    for (Event event : values()) {
      if (event.wireName().equals(name)) {
        return event;
      }
    }
    return null;
  }
}
