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
      case "gemini" ->
          new Mapped(
              request(kind, found, null, started),
              roots,
              false,
              "the newest Gemini CLI session of " + found.cwd() + " since the process started");
      case "opencode" -> opencode(found, roots, started);
      default -> new Mapped(request(kind, found, null, started), roots, false, "no transcript");
    };
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
          own =
              new TranscriptRoots(
                  roots.claudeConfigDir(), roots.codexHome(), roots.geminiHome(), Path.of(open));
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
          return new Mapped(
              request("claude", found, value, started), roots, true, "its argv: " + option);
        }
      }
    }
    Path project = roots.claudeProjectDir(found.cwd());
    Optional<Path> newest = newestSince(project, started);
    Optional<String> named = pidFileSession(roots, found.cliPid());
    if (named.isPresent()) {
      Path file = project.resolve(named.get() + ".jsonl");
      if (newest.isEmpty() || newest.get().equals(file)) {
        return new Mapped(
            request("claude", found, named.get(), started),
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

  private Mapped codex(Found found, TranscriptRoots roots, Instant started) {
    for (long pid : processes.tree(found.cliPid())) {
      for (String open : processes.openFiles(pid)) {
        Matcher rollout = ROLLOUT.matcher(open);
        if (rollout.matches()) {
          Path file = Path.of(open.replace(" (deleted)", ""));
          Path codexHome = file.getParent().getParent().getParent().getParent().getParent();
          TranscriptRoots own =
              new TranscriptRoots(roots.claudeConfigDir(), codexHome, roots.geminiHome());
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

  private static TranscriptRequest request(
      String kind, Found found, String cliSessionId, Instant started) {
    return new TranscriptRequest(kind, found.id(), cliSessionId, Path.of(found.cwd()), started);
  }

  private static Optional<String> pidFileSession(TranscriptRoots roots, long pid) {
    Path file = roots.claudeConfigDir().resolve("sessions").resolve(pid + ".json");
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
