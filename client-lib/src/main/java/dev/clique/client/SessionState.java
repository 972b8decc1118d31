package dev.clique.client;

import java.util.Locale;

/**
 * The state of a session as the engine reports it ({@code state} in {@code /api/state} and in a
 * wait answer).
 *
 * <p>{@link #GONE} appears only in a wait answer, for a session removed while it was waited on.
 * {@link #UNKNOWN} stands for any state name this client does not know, so a newer engine never
 * breaks an older client.
 */
public enum SessionState {
  /** Producing output now, or running a foreground command. */
  WORKING("working"),
  /** Stopped at a prompt that asks the user something. */
  WAITING("waiting"),
  /** Stopped at an error. */
  ERROR("error"),
  /** Not busy and not asking anything. */
  IDLE("idle"),
  /** No tmux session exists for it; the record is kept. */
  STOPPED("stopped"),
  /** Removed while it was waited on (wait answers only). */
  GONE("gone"),
  /** A state name this client does not know. */
  UNKNOWN("unknown");

  private final String wireName;

  SessionState(String wireName) {
    this.wireName = wireName;
  }

  /**
   * The name of this state on the wire, e.g. {@code "idle"}.
   *
   * @return the lower-case wire name
   */
  public String wireName() {
    return wireName;
  }

  /**
   * The state with the given wire name.
   *
   * @param wireName a state name as the engine sends it; may be {@code null}
   * @return the matching state, or {@link #UNKNOWN} for {@code null} or a name this client does not
   *     know
   */
  public static SessionState fromWire(String wireName) {
    if (wireName == null) {
      return UNKNOWN;
    }
    String name = wireName.trim().toLowerCase(Locale.ROOT);
    for (SessionState state : values()) {
      if (state.wireName.equals(name)) {
        return state;
      }
    }
    return UNKNOWN;
  }
}
