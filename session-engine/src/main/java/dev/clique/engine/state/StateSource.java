package dev.clique.engine.state;

/**
 * Which signal decided a session's state, and its evidence, as {@code GET /api/state} shows it.
 *
 * @param authority {@code hook} (the CLI's own hook), {@code transcript} (its own records), {@code
 *     pane} (what the screen shows) or {@code process} (tmux: no session, or its process ended)
 * @param evidence at most 200 characters: the hook event, the record type, or the matched line
 */
public record StateSource(String authority, String evidence) {
  public static final String HOOK = "hook";
  public static final String TRANSCRIPT = "transcript";
  public static final String PANE = "pane";
  public static final String PROCESS = "process";

  public StateSource {
    evidence = Attention.clip(evidence == null ? "" : evidence);
  }
}
