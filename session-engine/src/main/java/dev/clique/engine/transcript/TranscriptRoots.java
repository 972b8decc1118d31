package dev.clique.engine.transcript;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Where each CLI keeps its own files.
 *
 * <pre>{@code
 * TranscriptRoots roots =
 *     TranscriptRoots.fromEnvironment(Map.of("CODEX_HOME", "/srv/codex"), Path.of("/home/dev"));
 * }</pre>
 *
 * @param claudeConfigDir Claude Code's config directory, holding {@code projects/}
 * @param codexHome Codex's home, holding {@code sessions/}
 * @param geminiHome Gemini CLI's {@code .gemini} directory, holding {@code tmp/}
 * @param qwenHome Qwen Code's {@code .qwen} directory, holding {@code projects/}
 * @param copilotHome GitHub Copilot CLI's home, holding {@code session-state/}
 * @param piAgentDir pi's agent directory, holding {@code sessions/}
 * @param opencodeDatabase opencode's SQLite database, {@code opencode.db}
 */
public record TranscriptRoots(
    Path claudeConfigDir,
    Path codexHome,
    Path geminiHome,
    Path qwenHome,
    Path copilotHome,
    Path piAgentDir,
    Path opencodeDatabase) {

  /** The variables that choose the roots: each CLI's own, and {@code HOME} for its default. */
  public static final Set<String> VARIABLES =
      Set.of(
          "HOME",
          "CLAUDE_CONFIG_DIR",
          "CODEX_HOME",
          "GEMINI_CLI_HOME",
          "QWEN_HOME",
          "COPILOT_HOME",
          "PI_CODING_AGENT_DIR",
          "XDG_DATA_HOME",
          "OPENCODE_DB");

  /** Checks that every root is present. */
  public TranscriptRoots {
    Objects.requireNonNull(claudeConfigDir, "claudeConfigDir");
    Objects.requireNonNull(codexHome, "codexHome");
    Objects.requireNonNull(geminiHome, "geminiHome");
    Objects.requireNonNull(qwenHome, "qwenHome");
    Objects.requireNonNull(copilotHome, "copilotHome");
    Objects.requireNonNull(piAgentDir, "piAgentDir");
    Objects.requireNonNull(opencodeDatabase, "opencodeDatabase");
  }

  /**
   * The roots of the first three CLIs, the others' homes beside Gemini CLI's ({@code .qwen}, {@code
   * .copilot}, {@code .pi/agent}, opencode's database under {@code .local/share}), as in one user's
   * home.
   */
  public TranscriptRoots(Path claudeConfigDir, Path codexHome, Path geminiHome) {
    this(
        claudeConfigDir,
        codexHome,
        geminiHome,
        geminiHome.resolveSibling(".qwen"),
        geminiHome.resolveSibling(".copilot"),
        geminiHome.resolveSibling(".pi").resolve("agent"),
        opencodeDatabase(Map.of(), geminiHome.toAbsolutePath().getParent()));
  }

  /**
   * The roots the CLIs themselves would use: {@code CLAUDE_CONFIG_DIR} (default {@code ~/.claude}),
   * {@code CODEX_HOME} (default {@code ~/.codex}) and {@code $GEMINI_CLI_HOME/.gemini} ({@code
   * GEMINI_CLI_HOME} replaces the home directory, default {@code ~/.gemini}), {@code QWEN_HOME}
   * (default {@code ~/.qwen}) and {@code COPILOT_HOME} (default {@code ~/.copilot}). Blank
   * variables count as unset.
   *
   * @param env the variables: the engine's, or those a session's process was started with
   * @param userHome the user's home directory
   */
  public static TranscriptRoots fromEnvironment(Map<String, String> env, Path userHome) {
    Objects.requireNonNull(env, "env");
    Objects.requireNonNull(userHome, "userHome");
    Path claude = dir(env, "CLAUDE_CONFIG_DIR", userHome.resolve(".claude"));
    Path codex = dir(env, "CODEX_HOME", userHome.resolve(".codex"));
    Path gemini = dir(env, "GEMINI_CLI_HOME", userHome).resolve(".gemini");
    Path qwen = dir(env, "QWEN_HOME", userHome.resolve(".qwen"));
    Path copilot = dir(env, "COPILOT_HOME", userHome.resolve(".copilot"));
    Path pi = dir(env, "PI_CODING_AGENT_DIR", userHome.resolve(".pi").resolve("agent"));
    return new TranscriptRoots(
        claude, codex, gemini, qwen, copilot, pi, opencodeDatabase(env, userHome));
  }

  /**
   * The roots a session's CLI uses, from the variables its process was started with: what they set
   * wins; a CLI whose own variable is unset uses the session's {@code HOME}, and only when that is
   * unset too, these roots.
   *
   * @param sessionEnv values of {@link #VARIABLES} in the session's environment
   */
  public TranscriptRoots forSession(Map<String, String> sessionEnv) {
    Objects.requireNonNull(sessionEnv, "sessionEnv");
    String home = sessionEnv.get("HOME");
    if (home != null && !home.isBlank()) {
      return fromEnvironment(sessionEnv, Path.of(home.strip()));
    }
    String geminiCliHome = sessionEnv.get("GEMINI_CLI_HOME");
    return new TranscriptRoots(
        dir(sessionEnv, "CLAUDE_CONFIG_DIR", claudeConfigDir),
        dir(sessionEnv, "CODEX_HOME", codexHome),
        geminiCliHome == null || geminiCliHome.isBlank()
            ? geminiHome
            : Path.of(geminiCliHome.strip()).resolve(".gemini"),
        dir(sessionEnv, "QWEN_HOME", qwenHome),
        dir(sessionEnv, "COPILOT_HOME", copilotHome),
        dir(sessionEnv, "PI_CODING_AGENT_DIR", piAgentDir),
        sessionEnv.containsKey("OPENCODE_DB") || sessionEnv.containsKey("XDG_DATA_HOME")
            ? opencodeDatabase(sessionEnv, Path.of(System.getProperty("user.home")))
            : opencodeDatabase);
  }

  /**
   * Claude Code's project directory of a working directory: {@code projects/<slug>}, where the slug
   * is the path with every character other than a letter or digit made a {@code -}.
   */
  public Path claudeProjectDir(String cwd) {
    return claudeConfigDir.resolve("projects").resolve(ClaudeTranscriptLocator.slug(cwd));
  }

  /**
   * pi's folder of a working directory's sessions: {@code sessions/--home-dev-app--} for {@code
   * /home/dev/app}.
   */
  public Path piSessionDir(String cwd) {
    return piAgentDir.resolve("sessions").resolve(PiTranscriptLocator.folderName(cwd));
  }

  /** These roots with Codex's home at {@code codexHome} (a rollout found somewhere of its own). */
  public TranscriptRoots withCodexHome(Path codexHome) {
    return new TranscriptRoots(
        claudeConfigDir,
        codexHome,
        geminiHome,
        qwenHome,
        copilotHome,
        piAgentDir,
        opencodeDatabase);
  }

  /** These roots with opencode's database at {@code database} (the one its process holds open). */
  public TranscriptRoots withOpencodeDatabase(Path database) {
    return new TranscriptRoots(
        claudeConfigDir, codexHome, geminiHome, qwenHome, copilotHome, piAgentDir, database);
  }

  /**
   * opencode's database for a process whose environment is {@code env}, under {@code home}: {@code
   * OPENCODE_DB}, else {@code opencode/opencode.db} under {@code XDG_DATA_HOME} (default {@code
   * ~/.local/share}). Worked out here, not by the reader, so that knowing the roots loads no JSON
   * machinery ({@code clique mcp} reads them at its start).
   */
  static Path opencodeDatabase(Map<String, String> env, Path home) {
    String own = env.get("OPENCODE_DB");
    if (own != null && !own.isBlank()) {
      return Path.of(own.strip());
    }
    String data = env.get("XDG_DATA_HOME");
    Path root =
        data == null || data.isBlank() ? home.resolve(".local/share") : Path.of(data.strip());
    return root.resolve("opencode").resolve("opencode.db");
  }

  private static Path dir(Map<String, String> env, String name, Path fallback) {
    String value = env.get(name);
    return value == null || value.isBlank() ? fallback : Path.of(value.strip());
  }
}
