package dev.clique.engine.transcript;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * GitHub Copilot CLI's record is {@code session-state/<id>/events.jsonl} under its home, where the
 * id is the resumed session's CLI id or else clique's own (Copilot is started with {@code
 * --session-id}). A session clique did not start (one discovered in a person's tmux) has an id of
 * Copilot's choosing: its record is the newest one whose {@code workspace.yaml} names the session's
 * folder and that was written since the session began.
 */
final class CopilotTranscriptLocator implements TranscriptLocator {

  private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");

  /** The head of {@code workspace.yaml} that may hold its {@code cwd:} line. */
  private static final int WORKSPACE_HEAD = 8192;

  private final Path sessions;

  CopilotTranscriptLocator(Path copilotHome) {
    this.sessions = copilotHome.resolve("session-state");
  }

  @Override
  public Optional<Path> locate(TranscriptRequest request) throws IOException {
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
