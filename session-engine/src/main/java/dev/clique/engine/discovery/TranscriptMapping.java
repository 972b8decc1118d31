package dev.clique.engine.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.transcript.TranscriptRequest;
import dev.clique.engine.transcript.TranscriptRoots;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which transcript a discovered CLI writes, read from its process rather than guessed from its
 * folder alone; the CLI's own environment says where its files are.
 *
 * <ul>
 *   <li>Claude Code: the id in its argv ({@code --session-id}, {@code --resume}); else the id its
 *       {@code sessions/<pid>.json} names, unless another file of the project is the one being
 *       written (the pid file goes stale after {@code /clear} and {@code --continue}); else the
 *       newest transcript of the folder written since the process started.
 *   <li>Codex: the rollout file the process holds open; else the first rollout of the folder that
 *       started since the process did.
 *   <li>Gemini CLI: the newest session of the folder's project that started since the process did.
 *   <li>Qwen Code: the id in its argv ({@code --session-id}, {@code --resume}); else the id its
 *       {@code sessions/<pid>.json} names (written by the process it re-executes itself as).
 *   <li>GitHub Copilot CLI: the id in its argv ({@code --session-id}, {@code --resume}); else the
 *       session whose folder holds the process's {@code inuse.<pid>.lock}; else the newest session
 *       of the folder written since the process started.
 *   <li>pi: the newest session file of the folder written since the process started (pi renames its
 *       process and hides its arguments, and holds no file open).
 * </ul>
 */
public final class TranscriptMapping {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
  private static final Pattern ROLLOUT =
      Pattern.compile(
          ".*/sessions/\\d{4}/\\d{2}/\\d{2}/rollout-.*-([0-9a-fA-F-]{36})\\.jsonl(?: \\(deleted\\))?");

  /** A file written this little before the process started is still its own (clock grain). */
  private static final long START_SLACK_MILLIS = 2_000;

  /**
   * Where the conversation is read from, and how sure that is.
   *
   * @param exact true when the process itself named the file (argv, its pid file, an open file)
   * @param evidence what the mapping rests on, in words
   */
  public record Mapped(
      TranscriptRequest request, TranscriptRoots roots, boolean exact, String evidence) {}

  private final Processes processes;

  public TranscriptMapping() {
    this(Processes.system());
  }

  TranscriptMapping(Processes processes) {
    this.processes = processes;
  }

  /**
   * The transcript of a discovered session whose CLI reads transcripts of {@code kind}.
   *
   * @param userHome the home to assume when the CLI's environment names none
   */
  public Mapped map(Found found, String kind, Path userHome) {
    String home = found.env().get("HOME");
    TranscriptRoots roots =
        TranscriptRoots.fromEnvironment(found.env(), home == null ? userHome : Path.of(home));
    Instant started = Instant.ofEpochMilli((long) (found.created() * 1000));
    return switch (kind) {
      case "claude" -> claude(found, roots, started);
      case "codex" -> codex(found, roots, started);
      case "qwen" -> qwen(found, roots, started);
      case "gemini" ->
          new Mapped(
              request(kind, found, null, started),
              roots,
              false,
              "the newest Gemini CLI session of " + found.cwd() + " since the process started");
      case "copilot" -> copilot(found, roots, started);
      case "pi" -> pi(found, roots, started);
      case "opencode" -> opencode(found, roots, started);
      default -> new Mapped(request(kind, found, null, started), roots, false, "no transcript");
    };
  }

  private Mapped copilot(Found found, TranscriptRoots roots, Instant started) {
    Optional<Mapped> named = byArgv("copilot", found, roots, started);
    if (named.isPresent()) {
      return named.get();
    }
    // Copilot marks the session it has open with inuse.<pid>.lock, the pid of its npm loader.
    Path sessions = roots.copilotHome().resolve("session-state");
    List<Long> tree = processes.tree(found.cliPid());
    if (Files.isDirectory(sessions)) {
      try (DirectoryStream<Path> dirs = Files.newDirectoryStream(sessions, Files::isDirectory)) {
        for (Path dir : dirs) {
          for (long pid : tree) {
            if (Files.exists(dir.resolve("inuse." + pid + ".lock"))
                && SAFE_ID.matcher(dir.getFileName().toString()).matches()) {
              return new Mapped(
                  request("copilot", found, dir.getFileName().toString(), started),
                  roots,
                  true,
                  "the inuse." + pid + ".lock of its session folder");
            }
          }
        }
      } catch (IOException e) {
        // unreadable: the folder decides below
      }
    }
    return new Mapped(
        request("copilot", found, null, started),
        roots,
        false,
        "guessed: the newest Copilot session of " + found.cwd() + " since the process started");
  }

  /**
   * opencode: the session its argv names ({@code -s}, {@code --session}), in the database its
   * process holds open; else the newest top-level session of its folder since it started.
   */
  private Mapped opencode(Found found, TranscriptRoots roots, Instant started) {
    TranscriptRoots own = roots;
    String where = "";
    for (long pid : processes.tree(found.cliPid())) {
      for (String open : processes.openFiles(pid)) {
        if (open.endsWith("/opencode.db")) {
          own = roots.withOpencodeDatabase(Path.of(open));
          where = ", in the database pid " + pid + " holds open";
          break;
        }
      }
    }
    List<String> argv = found.argv();
    for (int i = 0; i + 1 < argv.size(); i++) {
      if ((argv.get(i).equals("-s") || argv.get(i).equals("--session"))
          && SAFE_ID.matcher(argv.get(i + 1)).matches()) {
        return new Mapped(
            request("opencode", found, argv.get(i + 1), started),
            own,
            true,
            "its argv: " + argv.get(i) + where);
      }
    }
    return new Mapped(
        request("opencode", found, null, started),
        own,
        false,
        "guessed: the newest opencode session of "
            + found.cwd()
            + " since the process started"
            + where);
  }

  private Mapped claude(Found found, TranscriptRoots roots, Instant started) {
    Optional<Mapped> named = byArgv("claude", found, roots, started);
    if (named.isPresent()) {
      return named.get();
    }
    Path project = roots.claudeProjectDir(found.cwd());
    Optional<Path> newest = newestSince(project, started);
    Optional<String> pidFile =
        pidFileSession(roots.claudeConfigDir().resolve("sessions"), found.cliPid());
    if (pidFile.isPresent()) {
      Path file = project.resolve(pidFile.get() + ".jsonl");
      if (newest.isEmpty() || newest.get().equals(file)) {
        return new Mapped(
            request("claude", found, pidFile.get(), started),
            roots,
            true,
            "its sessions/" + found.cliPid() + ".json");
      }
      return new Mapped(
          request("claude", found, sessionOf(newest.get()), started),
          roots,
          false,
          "guessed: sessions/"
              + found.cliPid()
              + ".json names another session, the newest transcript of the folder is written");
    }
    if (newest.isPresent()) {
      return new Mapped(
          request("claude", found, sessionOf(newest.get()), started),
          roots,
          false,
          "guessed: the newest transcript of "
              + found.cwd()
              + " written since the process started");
    }
    return new Mapped(
        request("claude", found, null, started),
        roots,
        false,
        "no transcript of " + found.cwd() + " written since the process started");
  }

  /** The session id in the CLI's argv: {@code --session-id ID}, {@code --resume ID}, {@code -r}. */
  private static Optional<Mapped> byArgv(
      String kind, Found found, TranscriptRoots roots, Instant started) {
    List<String> argv = found.argv();
    for (int i = 0; i < argv.size(); i++) {
      for (String option : List.of("--session-id", "--resume", "-r")) {
        String value = null;
        if (argv.get(i).equals(option) && i + 1 < argv.size()) {
          value = argv.get(i + 1);
        } else if (argv.get(i).startsWith(option + "=")) {
          value = argv.get(i).substring(option.length() + 1);
        }
        if (value != null && SAFE_ID.matcher(value).matches()) {
          return Optional.of(
              new Mapped(request(kind, found, value, started), roots, true, "its argv: " + option));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Qwen Code runs as a node process that re-executes itself as a child: the child writes {@code
   * sessions/<its pid>.json} under its {@code .qwen} directory, naming the session it records.
   */
  private Mapped qwen(Found found, TranscriptRoots roots, Instant started) {
    Optional<Mapped> named = byArgv("qwen", found, roots, started);
    if (named.isPresent()) {
      return named.get();
    }
    Path sessions = roots.qwenHome().resolve("sessions");
    for (long pid : processes.tree(found.cliPid())) {
      Optional<String> id = pidFileSession(sessions, pid);
      if (id.isPresent()) {
        return new Mapped(
            request("qwen", found, id.get(), started),
            roots,
            true,
            "its sessions/" + pid + ".json");
      }
    }
    return new Mapped(
        request("qwen", found, null, started),
        roots,
        false,
        "no sessions/<pid>.json of its processes names a session");
  }

  private Mapped codex(Found found, TranscriptRoots roots, Instant started) {
    for (long pid : processes.tree(found.cliPid())) {
      for (String open : processes.openFiles(pid)) {
        Matcher rollout = ROLLOUT.matcher(open);
        if (rollout.matches()) {
          Path file = Path.of(open.replace(" (deleted)", ""));
          Path codexHome = file.getParent().getParent().getParent().getParent().getParent();
          TranscriptRoots own = roots.withCodexHome(codexHome);
          return new Mapped(
              request("codex", found, rollout.group(1), started),
              own,
              true,
              "the rollout file pid " + pid + " holds open");
        }
      }
    }
    return new Mapped(
        request("codex", found, null, started),
        roots,
        false,
        "guessed: the first rollout of " + found.cwd() + " started since the process did");
  }

  private static Mapped pi(Found found, TranscriptRoots roots, Instant started) {
    Path folder = roots.piSessionDir(found.cwd());
    Optional<Path> newest = newestSince(folder, started);
    if (newest.isPresent()) {
      String name = newest.get().getFileName().toString();
      String id = name.substring(name.indexOf('_') + 1, name.length() - ".jsonl".length());
      if (SAFE_ID.matcher(id).matches()) {
        return new Mapped(
            request("pi", found, id, started),
            roots,
            false,
            "guessed: the newest pi session of "
                + found.cwd()
                + " written since the process started");
      }
    }
    return new Mapped(
        request("pi", found, null, started),
        roots,
        false,
        "no pi session of " + found.cwd() + " written since the process started");
  }

  private static TranscriptRequest request(
      String kind, Found found, String cliSessionId, Instant started) {
    return new TranscriptRequest(kind, found.id(), cliSessionId, Path.of(found.cwd()), started);
  }

  /** The {@code sessionId} of {@code sessions/<pid>.json}, if it is the file of that process. */
  private static Optional<String> pidFileSession(Path sessions, long pid) {
    Path file = sessions.resolve(pid + ".json");
    try {
      JsonNode node = JSON.readTree(Files.readAllBytes(file));
      String id = node == null ? "" : node.path("sessionId").asText("");
      long owner = node == null ? -1 : node.path("pid").asLong(pid);
      return owner == pid && SAFE_ID.matcher(id).matches() ? Optional.of(id) : Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // none (older versions write none), or unreadable
    }
  }

  /** The project's transcript written last, if it was written since {@code started}. */
  private static Optional<Path> newestSince(Path project, Instant started) {
    if (!Files.isDirectory(project)) {
      return Optional.empty();
    }
    Path newest = null;
    FileTime newestTime = null;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(project, "*.jsonl")) {
      for (Path file : files) {
        FileTime time = Files.getLastModifiedTime(file);
        if (newest == null || time.compareTo(newestTime) > 0) {
          newest = file;
          newestTime = time;
        }
      }
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    if (newest == null || newestTime.toMillis() < started.toEpochMilli() - START_SLACK_MILLIS) {
      return Optional.empty();
    }
    return Optional.of(newest);
  }

  private static String sessionOf(Path transcript) {
    String name = transcript.getFileName().toString();
    return name.substring(0, name.length() - ".jsonl".length());
  }
}
