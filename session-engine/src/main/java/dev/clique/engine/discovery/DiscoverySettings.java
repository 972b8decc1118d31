package dev.clique.engine.discovery;

import java.nio.file.Path;
import java.util.List;

/**
 * What discovery looks at (the engine reads it from {@code CLIQUE_DISCOVER}, {@code
 * CLIQUE_DISCOVER_SHELLS}, {@code CLIQUE_DISCOVER_SOCKETS} and {@code TMUX_TMPDIR}).
 *
 * @param enabled false: no other tmux server is ever looked at
 * @param shells whether a pane that runs only a shell is listed too
 * @param socketDirectory the user's tmux socket directory, {@code ${TMUX_TMPDIR:-/tmp}/tmux-<uid>},
 *     whose every socket (the default server's among them) is looked at
 * @param extraSockets socket files named in configuration, looked at as well
 * @param outside whether the CLIs that run outside tmux are looked for too ({@code
 *     CLIQUE_DISCOVER_OUTSIDE})
 * @param headless whether such a CLI without a terminal is listed ({@code
 *     CLIQUE_DISCOVER_HEADLESS})
 * @param claudeRegistries the folders where Claude Code registers each of its processes as it
 *     starts ({@code <config>/sessions}), watched so that one is seen at once
 */
public record DiscoverySettings(
    boolean enabled,
    boolean shells,
    Path socketDirectory,
    List<Path> extraSockets,
    boolean outside,
    boolean headless,
    List<Path> claudeRegistries) {

  public DiscoverySettings {
    extraSockets = List.copyOf(extraSockets);
    claudeRegistries = List.copyOf(claudeRegistries);
  }

  /** Tmux servers only: no CLI outside tmux is looked for. */
  public DiscoverySettings(
      boolean enabled, boolean shells, Path socketDirectory, List<Path> extraSockets) {
    this(enabled, shells, socketDirectory, extraSockets, false, false, List.of());
  }

  /** Discovery turned off. */
  public static DiscoverySettings off() {
    return new DiscoverySettings(false, false, Path.of("/nonexistent"), List.of());
  }
}
