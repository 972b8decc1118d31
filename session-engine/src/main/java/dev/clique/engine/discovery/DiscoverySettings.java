package dev.clique.engine.discovery;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What discovery looks at.
 *
 * @param enabled false: no other tmux server is ever looked at
 * @param shells whether a pane that runs only a shell is listed too
 * @param socketDirectory the user's tmux socket directory, {@code ${TMUX_TMPDIR:-/tmp}/tmux-<uid>},
 *     whose every socket (the default server's among them) is looked at
 * @param extraSockets socket files named in configuration, looked at as well
 */
public record DiscoverySettings(
    boolean enabled, boolean shells, Path socketDirectory, List<Path> extraSockets) {

  private static final Set<String> NO = Set.of("off", "0", "false", "no");
  private static final Set<String> YES = Set.of("on", "1", "true", "yes");

  public DiscoverySettings {
    extraSockets = List.copyOf(extraSockets);
  }

  /** Discovery turned off. */
  public static DiscoverySettings off() {
    return new DiscoverySettings(false, false, Path.of("/nonexistent"), List.of());
  }

  /**
   * From {@code CLIQUE_DISCOVER} ({@code off} turns it off; on by default), {@code
   * CLIQUE_DISCOVER_SHELLS} ({@code on} lists shells too), {@code CLIQUE_DISCOVER_SOCKETS} (socket
   * files, comma-separated) and {@code TMUX_TMPDIR}, as tmux itself reads it.
   *
   * @param uid the user's numeric id, which names the socket directory
   */
  public static DiscoverySettings fromEnvironment(Map<String, String> env, String uid) {
    boolean enabled = !NO.contains(value(env, "CLIQUE_DISCOVER"));
    boolean shells = YES.contains(value(env, "CLIQUE_DISCOVER_SHELLS"));
    String tmp = env.getOrDefault("TMUX_TMPDIR", "");
    Path dir = Path.of(tmp.isBlank() ? "/tmp" : tmp.strip(), "tmux-" + uid);
    List<Path> extra = new ArrayList<>();
    for (String socket : env.getOrDefault("CLIQUE_DISCOVER_SOCKETS", "").split(",")) {
      if (!socket.isBlank()) {
        extra.add(Path.of(socket.strip()));
      }
    }
    return new DiscoverySettings(enabled, shells, dir, extra);
  }

  private static String value(Map<String, String> env, String name) {
    return env.getOrDefault(name, "").strip().toLowerCase(Locale.ROOT);
  }
}
