package dev.clique.engine.state;

/**
 * What a CLI's own signal (a hook it ran, a record it wrote) says of its state. It holds until the
 * next report or until input is sent to the session: the pane prints all the time and proves
 * nothing against it.
 *
 * @param state {@code working}, {@code waiting}, {@code error} or {@code idle}
 * @param attention why a person is needed (waiting, error), or null
 * @param authority {@link StateSource#HOOK} or {@link StateSource#TRANSCRIPT}
 * @param evidence the event that said so, e.g. {@code PermissionRequest Bash}
 */
public record Report(SessionState state, Attention attention, String authority, String evidence) {
  public Report {
    if (state == SessionState.STOPPED) {
      throw new IllegalArgumentException("a report never says stopped: tmux does");
    }
  }

  StateSource source() {
    return new StateSource(authority, evidence);
  }
}
