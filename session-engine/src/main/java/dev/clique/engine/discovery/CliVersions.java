package dev.clique.engine.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which version of its CLI a session runs: read from the {@code package.json} of the package the
 * CLI's process runs from (its script, or the native binary of a platform package), else from the
 * first version its program prints for {@code --version}; for a process that renamed itself to its
 * command and hid its arguments (pi), that command as its own {@code PATH} finds it. Asked once per
 * process: a pid and its start name one process, and a process does not change its version.
 */
public final class CliVersions {
  /** How long a program may take to print its version. */
  private static final long VERSION_TIMEOUT_MILLIS = 3_000;

  /** Most bytes of a {@code --version} answer read. */
  private static final int MAX_ANSWER = 4_096;

  /** Processes remembered; beyond it, those that ended are forgotten. */
  private static final int MAX_REMEMBERED = 512;

  private static final Pattern VERSION = Pattern.compile("\\d+\\.\\d+(?:\\.\\d+)?(?:-[\\w.]+)?");

  private static final ObjectMapper JSON = new ObjectMapper();

  private final CliCatalogue catalogue;
  private final Processes processes;
  private final Map<Long, Known> byPid = new LinkedHashMap<>(); // guarded by this

  /** The version of one process, or none, as it was found. */
  private record Known(long startTicks, Optional<String> version) {}

  CliVersions(CliCatalogue catalogue, Processes processes) {
    this.catalogue = catalogue;
    this.processes = processes;
  }

  public static CliVersions system(CliCatalogue catalogue) {
    return new CliVersions(catalogue, Processes.system());
  }

  /**
   * The version of CLI {@code cliId} that runs in the pane whose process is {@code panePid}: the
   * first process of its tree that runs the CLI (for a shell, the pane's own process).
   */
  public Optional<String> running(String cliId, long panePid) {
    Optional<CliDefinition> cli = catalogue.find(cliId);
    if (cli.isEmpty() || panePid <= 0) {
      return Optional.empty();
    }
    for (long pid : processes.tree(panePid)) {
      List<String> argv = processes.argv(pid);
      Optional<String> executable = processes.executable(pid);
      boolean runs =
          CliMatch.SHELL.equals(cliId)
              ? pid == panePid && CliMatch.isShell(argv)
              : !argv.isEmpty() && CliMatch.runs(cli.get(), argv, executable.orElse(null));
      if (runs) {
        return ofProcess(pid, cli.get(), argv, executable);
      }
    }
    return Optional.empty();
  }

  /** The version of the CLI that {@code clique new} would start now, if it is installed. */
  public Optional<String> installed(CliDefinition cli) {
    Optional<Path> binary = catalogue.resolve(cli);
    if (binary.isEmpty()) {
      return Optional.empty();
    }
    Path real;
    try {
      real = binary.get().toRealPath();
    } catch (IOException e) {
      real = binary.get();
    }
    Optional<String> packaged = packageVersion(real.toString(), cli.packages());
    return packaged.isPresent() ? packaged : asked(real);
  }

  private synchronized Optional<String> ofProcess(
      long pid, CliDefinition cli, List<String> argv, Optional<String> executable) {
    long start = processes.startTicks(pid);
    Known known = byPid.get(pid);
    if (known != null && known.startTicks() == start) {
      return known.version();
    }
    Optional<String> version = Optional.empty();
    List<String> paths = new ArrayList<>();
    executable.ifPresent(paths::add);
    for (String arg : argv) {
      // A script run by its link (node_modules/.bin/gemini) lies in its package once resolved.
      if (arg.startsWith("/")) {
        paths.add(arg);
        realPath(arg).ifPresent(paths::add);
      }
    }
    for (String path : paths) {
      version = packageVersion(path, cli.packages());
      if (version.isPresent()) {
        break;
      }
    }
    // Only the CLI's own program is asked, never an interpreter that runs it (node, python).
    String command = CliMatch.basename(cli.command());
    if (version.isEmpty()
        && executable.isPresent()
        && (CliMatch.SHELL.equals(cli.id())
            || CliMatch.basename(executable.get()).equals(command))) {
      version = asked(Path.of(executable.get()));
    } else if (version.isEmpty()
        && !argv.isEmpty()
        && CliMatch.basename(argv.get(0)).equals(command)) {
      // A process that renamed itself and hid its arguments (pi): its command as the PATH it was
      // started with finds it (the person's own install), else as installed here.
      version = onItsOwnPath(pid, cli);
      if (version.isEmpty()) {
        version = installed(cli);
      }
    }
    remember(pid, new Known(start, version));
    return version;
  }

  /**
   * The version of the CLI's command as the {@code PATH} of the process's own environment finds it:
   * read from the package it lies in once its links are resolved, else asked.
   */
  private Optional<String> onItsOwnPath(long pid, CliDefinition cli) {
    String path = processes.environment(pid).get("PATH");
    if (path == null || path.isBlank()) {
      return Optional.empty();
    }
    List<Path> dirs = new ArrayList<>();
    for (String dir : path.split(":")) {
      // Only absolute folders: a relative one would be looked up from the engine's folder.
      if (dir.startsWith("/")) {
        dirs.add(Path.of(dir));
      }
    }
    Optional<Path> binary = cli.resolve(dirs);
    if (binary.isEmpty()) {
      return Optional.empty();
    }
    Optional<String> packaged =
        realPath(binary.get().toString()).flatMap(real -> packageVersion(real, cli.packages()));
    return packaged.isPresent() ? packaged : asked(binary.get());
  }

  private void remember(long pid, Known known) {
    if (byPid.size() >= MAX_REMEMBERED) {
      byPid.entrySet().removeIf(e -> !processes.alive(e.getKey(), e.getValue().startTicks()));
      if (byPid.size() >= MAX_REMEMBERED) {
        byPid.clear();
      }
    }
    byPid.put(pid, known);
  }

  /**
   * The version in the {@code package.json} of the package {@code path} lies in ({@code
   * .../node_modules/@openai/codex/bin/codex.js}), or in one of its platform packages ({@code
   * .../@openai/codex-linux-x64/...}, whose own version may carry the platform: {@code
   * 0.169.0-linux-x64}).
   */
  static Optional<String> packageVersion(String path, List<String> packages) {
    if (path == null) {
      return Optional.empty();
    }
    for (String pkg : packages) {
      String needle = "/" + pkg;
      for (int at = path.indexOf(needle); at >= 0; at = path.indexOf(needle, at + 1)) {
        int end = at + needle.length();
        if (end >= path.length()) {
          break;
        }
        String platform = "";
        if (path.charAt(end) == '-') {
          int slash = path.indexOf('/', end);
          if (slash < 0) {
            break;
          }
          platform = path.substring(end + 1, slash);
          end = slash;
        } else if (path.charAt(end) != '/') {
          continue;
        }
        Optional<String> version = declared(Path.of(path.substring(0, end), "package.json"));
        if (version.isPresent()) {
          return Optional.of(withoutSuffix(version.get(), "-" + platform));
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<String> realPath(String path) {
    try {
      return Optional.of(Path.of(path).toRealPath().toString());
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static String withoutSuffix(String version, String suffix) {
    return suffix.length() > 1 && version.endsWith(suffix)
        ? version.substring(0, version.length() - suffix.length())
        : version;
  }

  private static Optional<String> declared(Path packageJson) {
    if (!Files.isRegularFile(packageJson)) {
      return Optional.empty();
    }
    try {
      JsonNode version = JSON.readTree(packageJson.toFile()).path("version");
      return version.isTextual() && !version.asText().isBlank()
          ? Optional.of(version.asText())
          : Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The first version the program prints when asked with {@code --version}. */
  static Optional<String> asked(Path program) {
    Process process;
    try {
      process =
          new ProcessBuilder(program.toString(), "--version")
              .redirectErrorStream(true)
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .start();
    } catch (IOException e) {
      return Optional.empty();
    }
    try (InputStream out = process.getInputStream()) {
      // A program that waits for something never prints: the deadline ends it.
      if (!process.waitFor(VERSION_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        return Optional.empty();
      }
      String answer = new String(out.readNBytes(MAX_ANSWER), StandardCharsets.UTF_8);
      return versionIn(answer);
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      return Optional.empty();
    }
  }

  /** The first thing in {@code text} shaped like a version ({@code 2.1.328}, {@code 5.2.15}). */
  static Optional<String> versionIn(String text) {
    Matcher matcher = VERSION.matcher(text);
    return matcher.find() ? Optional.of(matcher.group()) : Optional.empty();
  }
}
