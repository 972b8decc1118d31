package dev.clique.engine.transcript;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Claude Code's transcript is {@code projects/<slug>/<id>.jsonl} under its config directory, where
 * the id is the resumed session's CLI id or else clique's own (Claude Code is started with {@code
 * --session-id}). The slug is tried first, then every project directory, since very long paths are
 * cut and hashed.
 */
final class ClaudeTranscriptLocator implements TranscriptLocator {

  private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

  private final Path projects;
  private final Map<String, Path> found = new ConcurrentHashMap<>();

  ClaudeTranscriptLocator(Path claudeConfigDir) {
    this.projects = claudeConfigDir.resolve("projects");
  }

  @Override
  public Optional<Path> locate(TranscriptRequest request) throws IOException {
    String id = request.cliSessionId() != null ? request.cliSessionId() : request.sessionId();
    if (!SAFE_ID.matcher(id).matches()) {
      return Optional.empty(); // it names a file: nothing that could leave the directory
    }
    String name = id + ".jsonl";
    Path known = found.get(id);
    if (known != null && Files.isRegularFile(known)) {
      return Optional.of(known);
    }
    if (request.cwd() != null) {
      Path bySlug = projects.resolve(slug(request.cwd().toString())).resolve(name);
      if (Files.isRegularFile(bySlug)) {
        found.put(id, bySlug);
        return Optional.of(bySlug);
      }
    }
    if (!Files.isDirectory(projects)) {
      return Optional.empty();
    }
    Path newest = null;
    FileTime newestTime = null;
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(projects, Files::isDirectory)) {
      for (Path dir : dirs) {
        Path candidate = dir.resolve(name);
        if (Files.isRegularFile(candidate)) {
          FileTime time = Files.getLastModifiedTime(candidate);
          if (newest == null || time.compareTo(newestTime) > 0) {
            newest = candidate;
            newestTime = time;
          }
        }
      }
    }
    if (newest != null) {
      found.put(id, newest);
    }
    return Optional.ofNullable(newest);
  }

  /** {@code /home/u/my_app.v2} becomes {@code -home-u-my-app-v2}: runs are not collapsed. */
  static String slug(String cwd) {
    StringBuilder slug = new StringBuilder(cwd.length());
    for (int i = 0; i < cwd.length(); i++) {
      char c = cwd.charAt(i);
      boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
      slug.append(plain ? c : '-');
    }
    return slug.toString();
  }
}
