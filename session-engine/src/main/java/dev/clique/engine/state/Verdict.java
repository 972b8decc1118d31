package dev.clique.engine.state;

/**
 * What the detector says about a session now.
 *
 * @param busy producing output now, or (a shell) running a command in the foreground
 * @param signal the fresh attention signal, if any
 * @param saying for waiting and error: the line it is stuck on (at most 200 characters), else
 *     {@code ""}
 * @param lastOutputMillis unix milliseconds of the last output seen, 0 when none
 * @param attention why a person is needed, for waiting and error; else null
 * @param source which signal decided, and its evidence
 */
public record Verdict(
    SessionState state,
    boolean busy,
    Signal signal,
    String saying,
    long lastOutputMillis,
    Attention attention,
    StateSource source) {

  public static final Verdict STOPPED =
      new Verdict(
          SessionState.STOPPED,
          false,
          Signal.NONE,
          "",
          0,
          null,
          new StateSource(StateSource.PROCESS, "no tmux session"));

  /** Working, as {@code source} says. */
  static Verdict working(Signal signal, long lastOutputMillis, StateSource source) {
    return new Verdict(SessionState.WORKING, true, signal, "", lastOutputMillis, null, source);
  }
}
