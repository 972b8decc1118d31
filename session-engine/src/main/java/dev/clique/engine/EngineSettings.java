package dev.clique.engine;

import dev.clique.engine.discovery.Discovery;
import dev.clique.engine.discovery.DiscoverySettings;
import dev.clique.engine.home.CliqueHome;
import dev.clique.engine.transcript.TranscriptRoots;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What an engine is told by its environment, read once: {@link Engine#start(EngineSettings, String,
 * int, boolean, String, dev.clique.engine.http.TlsKeystore)} hands each part the values it needs,
 * and no part reads a variable of its own.
 *
 * <pre>{@code
 * EngineSettings settings =
 *     EngineSettings.builder()
 *         .environment(Map.of("CLIQUE_HOME", "/srv/clique", "CLIQUE_DISCOVER", "off"))
 *         .tmuxSocket("clique-test")
 *         .build();
 * }</pre>
 *
 * <p>The variables, each as {@link Builder#environment} reads it (a blank value counts as unset):
 *
 * <ul>
 *   <li>{@code CLIQUE_HOME}: the home of clique's files ({@link #home()}); default {@code
 *       ~/.clique}, {@code ~} being the JVM's {@code user.home} (or {@link Builder#userHome}).
 *   <li>{@code CLIQUE_TMUX_SOCKET}: the socket name of clique's own tmux server ({@code tmux -L});
 *       default {@value #DEFAULT_TMUX_SOCKET}.
 *   <li>{@code CLIQUE_ALLOWED_HOSTS}: names a request's {@code Host} may carry besides this
 *       machine's, comma-separated; one that starts with a dot allows a domain and its subdomains.
 *   <li>{@code CLIQUE_DISCOVER}: {@code off} (or {@code 0}, {@code false}, {@code no}) looks at no
 *       other tmux server; on by default.
 *   <li>{@code CLIQUE_DISCOVER_SHELLS}: {@code on} (or {@code 1}, {@code true}, {@code yes}) lists
 *       a discovered pane that runs only a shell too.
 *   <li>{@code CLIQUE_DISCOVER_SOCKETS}: more socket files for discovery, comma-separated.
 *   <li>{@code CLIQUE_DISCOVER_OUTSIDE}: {@code off} (or {@code 0}, {@code false}, {@code no})
 *       looks for no CLI that runs outside tmux (in a terminal tab, an IDE's terminal); on by
 *       default, while discovery is.
 *   <li>{@code CLIQUE_DISCOVER_HEADLESS}: {@code on} (or {@code 1}, {@code true}, {@code yes})
 *       lists a CLI outside tmux that has no terminal too (a {@code claude -p}, a {@code codex
 *       exec}, an MCP client's child); off by default.
 *   <li>{@code TMUX_TMPDIR}: where discovery looks, {@code ${TMUX_TMPDIR:-/tmp}/tmux-<uid>}, as
 *       tmux itself reads it. clique's own server is not placed by it: the tmux the engine starts
 *       inherits the engine process's own environment, so its socket is where that environment says
 *       ({@code TmuxProcess.socketFile()}).
 *   <li>{@code HOME}: the user's home ({@link #userHome()}): the default of the CLIs' own folders,
 *       and the folders under it where a CLI's command is looked for; default the JVM's {@code
 *       user.home}.
 *   <li>{@code PATH}: where a CLI's command is looked for ({@link #path()}).
 *   <li>{@code CLAUDE_CONFIG_DIR}, {@code CODEX_HOME}, {@code GEMINI_CLI_HOME}: where Claude Code,
 *       Codex and Gemini CLI keep their conversations ({@link #transcriptRoots()}), as each CLI
 *       reads its own.
 * </ul>
 *
 * <p>{@code CLIQUE_TLS_KEYSTORE} and {@code CLIQUE_TLS_PASSWORD_FILE} are no settings of this
 * value: the command that starts the engine loads and checks the keystore they name ({@code
 * TlsKeystore.fromEnvironment}) and hands it to {@code Engine.start}.
 */
public final class EngineSettings {
  /** The socket name of clique's own tmux server when {@code CLIQUE_TMUX_SOCKET} names none. */
  public static final String DEFAULT_TMUX_SOCKET = "clique";

  private static final Set<String> NO = Set.of("off", "0", "false", "no");
  private static final Set<String> YES = Set.of("on", "1", "true", "yes");

  private final CliqueHome home;
  private final Path userHome;
  private final String tmuxSocket;
  private final List<String> allowedHosts;
  private final DiscoverySettings discovery;
  private final TranscriptRoots transcriptRoots;
  private final String path;

  private EngineSettings(
      CliqueHome home,
      Path userHome,
      String tmuxSocket,
      List<String> allowedHosts,
      DiscoverySettings discovery,
      TranscriptRoots transcriptRoots,
      String path) {
    this.home = home;
    this.userHome = userHome;
    this.tmuxSocket = tmuxSocket;
    this.allowedHosts = List.copyOf(allowedHosts);
    this.discovery = discovery;
    this.transcriptRoots = transcriptRoots;
    this.path = path;
  }

  /** The settings {@code env} gives, with the JVM's {@code user.home} as the user's home. */
  public static EngineSettings fromEnvironment(Map<String, String> env) {
    return builder().environment(env).build();
  }

  /** A builder that starts from this process's environment and the JVM's {@code user.home}. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from these settings: every value set, no environment read again. */
  public Builder newBuilder() {
    return new Builder(this);
  }

  /** The home of clique's files: {@code CLIQUE_HOME}. */
  public CliqueHome home() {
    return home;
  }

  /** The user's home: {@code HOME}. */
  public Path userHome() {
    return userHome;
  }

  /** The socket name of clique's own tmux server: {@code CLIQUE_TMUX_SOCKET}. */
  public String tmuxSocket() {
    return tmuxSocket;
  }

  /** The {@code Host} names allowed besides this machine's: {@code CLIQUE_ALLOWED_HOSTS}. */
  public List<String> allowedHosts() {
    return allowedHosts;
  }

  /** What discovery looks at: {@code CLIQUE_DISCOVER*} and {@code TMUX_TMPDIR}. */
  public DiscoverySettings discovery() {
    return discovery;
  }

  /** Where each CLI keeps its conversations: its own variable, else under {@code HOME}. */
  public TranscriptRoots transcriptRoots() {
    return transcriptRoots;
  }

  /** Where a CLI's command is looked for: {@code PATH}, empty when unset. */
  public String path() {
    return path;
  }

  /**
   * Builds {@link EngineSettings}: each value as set here, or else as {@link #environment} gives
   * it, whatever the order of the calls.
   */
  public static final class Builder {
    private Map<String, String> env = System.getenv();
    private Path userHome = Path.of(System.getProperty("user.home"));
    private CliqueHome home;
    private String tmuxSocket;
    private List<String> allowedHosts;
    private DiscoverySettings discovery;
    private TranscriptRoots transcriptRoots;
    private String path;

    private Builder() {}

    private Builder(EngineSettings settings) {
      env = Map.of();
      userHome = settings.userHome;
      home = settings.home;
      tmuxSocket = settings.tmuxSocket;
      allowedHosts = settings.allowedHosts;
      discovery = settings.discovery;
      transcriptRoots = settings.transcriptRoots;
      path = settings.path;
    }

    /** The variables the values not set here are read from; this process's by default. */
    public Builder environment(Map<String, String> env) {
      this.env = new HashMap<>(Objects.requireNonNull(env, "env"));
      return this;
    }

    /**
     * The account's home directory, where {@code HOME} and {@code CLIQUE_HOME} fall back to; the
     * JVM's {@code user.home} by default.
     */
    public Builder userHome(Path userHome) {
      this.userHome = Objects.requireNonNull(userHome, "userHome");
      return this;
    }

    /** The home of clique's files, as {@code CLIQUE_HOME} names it. */
    public Builder home(Path dir) {
      this.home = new CliqueHome(dir);
      return this;
    }

    public Builder tmuxSocket(String tmuxSocket) {
      this.tmuxSocket = Objects.requireNonNull(tmuxSocket, "tmuxSocket");
      return this;
    }

    public Builder allowedHosts(List<String> allowedHosts) {
      this.allowedHosts = List.copyOf(allowedHosts);
      return this;
    }

    public Builder discovery(DiscoverySettings discovery) {
      this.discovery = Objects.requireNonNull(discovery, "discovery");
      return this;
    }

    public Builder transcriptRoots(TranscriptRoots transcriptRoots) {
      this.transcriptRoots = Objects.requireNonNull(transcriptRoots, "transcriptRoots");
      return this;
    }

    /**
     * Where a CLI's command is looked for, as {@code PATH} has it (folders joined by {@code :}).
     */
    public Builder path(String path) {
      this.path = Objects.requireNonNull(path, "path");
      return this;
    }

    public EngineSettings build() {
      String homeVariable = env.get("HOME");
      Path user = homeVariable == null || homeVariable.isBlank() ? userHome : Path.of(homeVariable);
      return new EngineSettings(
          home != null ? home : cliqueHome(),
          user,
          tmuxSocket != null ? tmuxSocket : tmuxSocketFromEnvironment(),
          allowedHosts != null ? allowedHosts : list("CLIQUE_ALLOWED_HOSTS"),
          discovery != null ? discovery : discoveryFromEnvironment(user),
          transcriptRoots != null ? transcriptRoots : TranscriptRoots.fromEnvironment(env, user),
          path != null ? path : Objects.requireNonNullElse(env.get("PATH"), ""));
    }

    private CliqueHome cliqueHome() {
      String configured = env.get("CLIQUE_HOME");
      return configured == null || configured.isBlank()
          ? new CliqueHome(userHome.resolve(".clique"))
          : new CliqueHome(Path.of(configured));
    }

    private String tmuxSocketFromEnvironment() {
      String socket = value("CLIQUE_TMUX_SOCKET");
      return socket.isEmpty() ? DEFAULT_TMUX_SOCKET : socket;
    }

    private DiscoverySettings discoveryFromEnvironment(Path user) {
      String tmp = value("TMUX_TMPDIR");
      Path claudeConfig = TranscriptRoots.fromEnvironment(env, user).claudeConfigDir();
      return new DiscoverySettings(
          !NO.contains(value("CLIQUE_DISCOVER").toLowerCase(Locale.ROOT)),
          YES.contains(value("CLIQUE_DISCOVER_SHELLS").toLowerCase(Locale.ROOT)),
          Path.of(tmp.isEmpty() ? "/tmp" : tmp, "tmux-" + Discovery.currentUid()),
          list("CLIQUE_DISCOVER_SOCKETS").stream().map(Path::of).toList(),
          !NO.contains(value("CLIQUE_DISCOVER_OUTSIDE").toLowerCase(Locale.ROOT)),
          YES.contains(value("CLIQUE_DISCOVER_HEADLESS").toLowerCase(Locale.ROOT)),
          List.of(claudeConfig.resolve("sessions")));
    }

    /** A comma list's entries, stripped, the blank ones left out. */
    private List<String> list(String name) {
      List<String> entries = new ArrayList<>();
      for (String entry : value(name).split(",")) {
        if (!entry.isBlank()) {
          entries.add(entry.strip());
        }
      }
      return entries;
    }

    /** A variable's value, stripped; empty when unset. */
    private String value(String name) {
      String value = env.get(name);
      return value == null ? "" : value.strip();
    }
  }
}
