package dev.clique.engine.discovery;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Which CLI of the catalogue a process runs, from its argv and executable: its name ({@code
 * claude}, {@code claude.exe}), a script of that name run by an interpreter ({@code python3
 * .../aider}), or a file inside one of the CLI's packages ({@code node
 * .../@google/gemini-cli/bundle/gemini.js}, a native binary of {@code
 * @anthropic-ai/claude-code-linux-x64}).
 */
final class CliMatch {
  /** The shell entry of the catalogue: a shell is what every pane runs, not a CLI found in one. */
  static final String SHELL = "shell";

  private static final Set<String> SHELLS = Set.of("bash", "zsh", "fish", "sh", "dash", "ksh");

  private static final Set<String> INTERPRETERS = Set.of("node", "nodejs", "bun", "deno", "ruby");

  private CliMatch() {}

  static Optional<CliDefinition> of(List<String> argv, String executable, CliCatalogue catalogue) {
    if (argv.isEmpty()) {
      return Optional.empty();
    }
    for (CliDefinition cli : catalogue.all()) {
      if (!cli.id().equals(SHELL) && runs(cli, argv, executable)) {
        return Optional.of(cli);
      }
    }
    return Optional.empty();
  }

  /** Whether the process is a shell (a login shell's argv[0] starts with {@code -}). */
  static boolean isShell(List<String> argv) {
    if (argv.isEmpty()) {
      return false;
    }
    String name = basename(argv.get(0));
    return SHELLS.contains(name.startsWith("-") ? name.substring(1) : name);
  }

  /** Whether the process with this argv and executable runs {@code cli}. */
  static boolean runs(CliDefinition cli, List<String> argv, String executable) {
    String command = basename(cli.command());
    String name = basename(argv.get(0));
    if (name.equals(command) || name.equals(command + ".exe")) {
      return true;
    }
    for (String pkg : cli.packages()) {
      if (inPackage(executable, pkg) || inPackage(argv.get(0), pkg)) {
        return true;
      }
    }
    if (!interpreter(name)) {
      return false;
    }
    String script = script(argv);
    if (script == null) {
      return false;
    }
    for (String pkg : cli.packages()) {
      if (inPackage(script, pkg)) {
        return true;
      }
    }
    return withoutExtension(basename(script)).equals(command);
  }

  /** The first argument after the interpreter's options: the script it runs. */
  private static String script(List<String> argv) {
    for (int i = 1; i < argv.size(); i++) {
      String arg = argv.get(i);
      if (!arg.startsWith("-")) {
        return arg;
      }
    }
    return null;
  }

  private static boolean interpreter(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return INTERPRETERS.contains(lower) || lower.startsWith("python") || lower.startsWith("node");
  }

  /**
   * A path inside the package, or inside one of its platform packages ({@code <pkg>-linux-x64}).
   */
  static boolean inPackage(String path, String pkg) {
    if (path == null || pkg.isBlank()) {
      return false;
    }
    String needle = "/" + pkg;
    int at = path.indexOf(needle);
    while (at >= 0) {
      int end = at + needle.length();
      if (end < path.length() && (path.charAt(end) == '/' || path.charAt(end) == '-')) {
        return true;
      }
      at = path.indexOf(needle, at + 1);
    }
    return false;
  }

  static String basename(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? path : path.substring(slash + 1);
  }

  private static String withoutExtension(String name) {
    for (String ext : List.of(".js", ".mjs", ".cjs", ".py", ".ts")) {
      if (name.endsWith(ext)) {
        return name.substring(0, name.length() - ext.length());
      }
    }
    return name;
  }
}
