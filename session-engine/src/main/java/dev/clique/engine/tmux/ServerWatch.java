package dev.clique.engine.tmux;

/**
 * How the engine learns what one tmux server did ({@code clique doctor} says it): by {@link
 * #EVENTS} (a stamp that moves only when the server did something, so nothing is listed while it is
 * quiet), by {@link #POLLING} (its panes listed at a steady pace, because it cannot tell), or not
 * at all ({@link #NO_SERVER}: none runs on the socket). {@code why} says what it rests on, or what
 * failed.
 */
public record ServerWatch(String socket, String by, String why) {
  public static final String EVENTS = "events";
  public static final String POLLING = "polling";
  public static final String NO_SERVER = "no server";
}
