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
 * Qwen Code's chat is {@code projects/<slug>/chats/<id>.jsonl} under its {@code .qwen} directory,
 * where the id is the resumed session's CLI id or else clique's own (Qwen Code is started with
 * {@code --session-id}), and the slug is the project's path with every character other than a
 * letter or digit made a {@code -}. The project is the folder it was started in, or the repository
 * that holds it: the folder's slug is tried first, then every project directory.
 */
final class QwenTranscriptLocator implements TranscriptLocator {

  private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

  private final Path projects;
  private final Map<String, Path> found = new ConcurrentHashMap<>();

  QwenTranscriptLocator(Path qwenHome) {
    this.projects = qwenHome.resolve("projects");
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
      Path bySlug = chats(request.cwd().toString()).resolve(name);
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
        Path candidate = dir.resolve("chats").resolve(name);
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

  /** The chats folder of the project at {@code cwd}. */
  Path chats(String cwd) {
    return projects.resolve(ClaudeTranscriptLocator.slug(cwd)).resolve("chats");
  }
}
