package dev.clique.engine.transcript;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * GitHub Copilot CLI's record is {@code session-state/<id>/events.jsonl} under its home, where the
 * id is the resumed session's CLI id or else clique's own (Copilot is started with {@code
 * --session-id}). A session clique did not start (one discovered in a person's tmux) has an id of
 * Copilot's choosing: its record is the newest one whose {@code workspace.yaml} names the session's
 * folder and that was written since the session began. A record whose first event, {@code
 * session.start}, says its events are of a newer {@code version} than this engine reads would be
 * read wrong: it is an {@link UnreadableTranscriptException} naming the file and Copilot's version.
 */
final class CopilotTranscriptLocator implements TranscriptLocator {

  private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

  /** The head of {@code workspace.yaml} that may hold its {@code cwd:} line. */
  private static final int WORKSPACE_HEAD = 8192;

  private static final List<String> HEAD =
      List.of("/type", "/data/version", "/data/copilotVersion");

  private final Path sessions;
  private final HeadFields heads;

  CopilotTranscriptLocator(Path copilotHome, HeadFields heads) {
    this.sessions = copilotHome.resolve("session-state");
    this.heads = heads;
  }

  @Override
  public Optional<Path> locate(TranscriptRequest request) throws IOException {
    Optional<Path> found = find(request);
    if (found.isPresent()) {
      requireKnownVersion(found.get());
    }
    return found;
  }

  private Optional<Path> find(TranscriptRequest request) throws IOException {
    String id = request.cliSessionId() != null ? request.cliSessionId() : request.sessionId();
    if (SAFE_ID.matcher(id).matches()) {
      Path own = sessions.resolve(id).resolve("events.jsonl");
      if (Files.isRegularFile(own)) {
        return Optional.of(own);
      }
    }
    if (request.cliSessionId() != null || request.cwd() == null || !Files.isDirectory(sessions)) {
      return Optional.empty();
    }
    String cwdLine = "cwd: " + request.cwd();
    Path newest = null;
    FileTime newestTime = null;
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(sessions, Files::isDirectory)) {
      for (Path dir : dirs) {
        Path events = dir.resolve("events.jsonl");
        if (!Files.isRegularFile(events)) {
          continue;
        }
        FileTime time = Files.getLastModifiedTime(events);
        boolean recent =
            request.created() == null
                || time.toInstant().isAfter(request.created().minusSeconds(1));
        if (recent
            && (newest == null || time.compareTo(newestTime) > 0)
            && inFolder(dir.resolve("workspace.yaml"), cwdLine)) {
          newest = events;
          newestTime = time;
        }
      }
    }
    return Optional.ofNullable(newest);
  }

  /** A first event that says a newer events format (or one not a number) would be read wrong. */
  private void requireKnownVersion(Path file) throws IOException {
    if (Files.size(file) == 0) {
      return;
    }
    Map<String, String> head = heads.read(file, HEAD);
    String version = head.get("/data/version");
    if (!"session.start".equals(head.get("/type")) || version == null) {
      return;
    }
    int number;
    try {
      number = Integer.parseInt(version);
    } catch (NumberFormatException e) {
      number = Integer.MAX_VALUE;
    }
    if (number > CopilotTranscriptReader.NEWEST_VERSION) {
      String writer = head.get("/data/copilotVersion");
      throw new UnreadableTranscriptException(
          file,
          "line 1, its \"session.start\" event, says its events are of version "
              + version
              + ", newer than this clique reads (up to "
              + CopilotTranscriptReader.NEWEST_VERSION
              + "; the file was written by GitHub Copilot CLI"
              + (writer == null ? ", of a version the file does not say" : " " + writer)
              + "); its turns are not given rather than given wrong");
    }
  }

  private static boolean inFolder(Path workspace, String cwdLine) throws IOException {
    if (!Files.isRegularFile(workspace)) {
      return false;
    }
    byte[] head;
    try (var in = Files.newInputStream(workspace)) {
      head = in.readNBytes(WORKSPACE_HEAD);
    }
    for (String line : new String(head, java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
      if (line.strip().equals(cwdLine)) {
        return true;
      }
    }
    return false;
  }
}
