package dev.clique.engine.transcript;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * pi keeps a session in {@code sessions/--<cwd>--/<start time>_<id>.jsonl} under its agent
 * directory, where {@code <cwd>} is the working directory without its leading {@code /} and with
 * {@code /}, {@code \} and {@code :} made {@code -}. The engine starts pi with {@code --session-id}
 * set to its own id (or the resumed one), so the file is found by that id: in the folder's
 * directory first, then in any. The file's first line must be pi's session header, of a version the
 * reader knows: else the conversation is an error naming the file.
 */
final class PiTranscriptLocator implements TranscriptLocator {

  private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
  private static final List<String> HEAD = List.of("/type", "/version");

  private final Path sessions;
  private final HeadFields heads;
  private final Map<String, Path> found = new ConcurrentHashMap<>();

  PiTranscriptLocator(Path piAgentDir, HeadFields heads) {
    this.sessions = piAgentDir.resolve("sessions");
    this.heads = heads;
  }

  @Override
  public Optional<Path> locate(TranscriptRequest request) throws IOException {
    String id = request.cliSessionId() != null ? request.cliSessionId() : request.sessionId();
    if (!SAFE_ID.matcher(id).matches()) {
      return Optional.empty(); // it names a file: nothing that could leave the directory
    }
    Path known = found.get(id);
    if (known == null || !Files.isRegularFile(known)) {
      known = find(id, request.cwd()).orElse(null);
    }
    if (known == null) {
      return Optional.empty();
    }
    found.put(id, known);
    requireKnownFormat(known);
    return Optional.of(known);
  }

  private Optional<Path> find(String id, Path cwd) throws IOException {
    if (!Files.isDirectory(sessions)) {
      return Optional.empty();
    }
    String suffix = "_" + id + ".jsonl";
    if (cwd != null) {
      Optional<Path> inFolder = inDirectory(sessions.resolve(folderName(cwd.toString())), suffix);
      if (inFolder.isPresent()) {
        return inFolder;
      }
    }
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(sessions, Files::isDirectory)) {
      for (Path dir : dirs) {
        Optional<Path> file = inDirectory(dir, suffix);
        if (file.isPresent()) {
          return file;
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<Path> inDirectory(Path dir, String suffix) throws IOException {
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + suffix)) {
      for (Path file : files) {
        return Optional.of(file);
      }
    }
    return Optional.empty();
  }

  /**
   * An empty file is one pi has not written yet; a first line that is not its session header, or a
   * header of a newer version, would be read wrong.
   */
  private void requireKnownFormat(Path file) throws IOException {
    if (Files.size(file) == 0) {
      return;
    }
    Map<String, String> head = heads.read(file, HEAD);
    if (!"session".equals(head.get("/type"))) {
      throw new UnreadableTranscriptException(
          file, "its first line is not a whole pi session header");
    }
    String version = head.getOrDefault("/version", "1");
    int number;
    try {
      number = Integer.parseInt(version);
    } catch (NumberFormatException e) {
      number = Integer.MAX_VALUE;
    }
    if (number > PiTranscriptReader.NEWEST_VERSION) {
      throw new UnreadableTranscriptException(
          file,
          "a pi session file of version "
              + version
              + ", newer than this clique reads (up to "
              + PiTranscriptReader.NEWEST_VERSION
              + ")");
    }
  }

  /** {@code /home/dev/my:app} becomes {@code --home-dev-my-app--}. */
  static String folderName(String cwd) {
    String path = cwd.startsWith("/") || cwd.startsWith("\\") ? cwd.substring(1) : cwd;
    return "--" + path.replaceAll("[/\\\\:]", "-") + "--";
  }
}
