package dev.clique.engine.tmux;

/**
 * Which clique home a tmux session belongs to, as the session itself carries it: two user options
 * set on it as it is made, which a pane listing reads without a process of its own. A session of
 * another home on the same socket is that home's engine's to pick up, never this one's.
 *
 * @param id the home's id ({@code @clique-home}); empty for a session that carries none (one an
 *     older clique made, or not clique at all)
 * @param dir the home's folder as its engine named it ({@code @clique-home-dir}), for people and
 *     logs only: the id alone says which home it is
 */
public record HomeMark(String id, String dir) {
  /** The mark of a session that carries none. */
  public static final HomeMark NONE = new HomeMark("", "");

  /** The tmux user option that holds {@link #id}. */
  public static final String ID_OPTION = "@clique-home";

  /** The tmux user option that holds {@link #dir}. */
  public static final String DIR_OPTION = "@clique-home-dir";

  public HomeMark {
    id = id == null ? "" : id;
    dir = dir == null ? "" : dir;
  }

  /** Whether the session carries no home at all. */
  public boolean none() {
    return id.isEmpty();
  }
}
