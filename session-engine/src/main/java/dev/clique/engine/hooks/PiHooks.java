package dev.clique.engine.hooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.engine.state.Attention;
import dev.clique.engine.state.Report;
import dev.clique.engine.state.SessionState;
import dev.clique.engine.state.StateSource;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Optional;

/**
 * pi's own events (1.6.0), from clique's extension, which the engine loads into each run with
 * {@code pi -e <file>}: pi has no hook settings, but an extension it is given on the command line
 * receives its lifecycle events. The extension ({@code pi-extension.mjs}, written into the engine's
 * own folder, never into pi's) posts small events of its own shape: {@code agent_start}, {@code
 * tool_call}, {@code agent_settled} (pi will not carry on by itself: idle, or the error its last
 * attempt ended on), {@code ui_prompt_start}/{@code ui_prompt_end} (an extension's dialog waits for
 * a person). pi asks no permission of its own.
 */
final class PiHooks implements HookDialect {
  /** The extension's name in the engine's folder. */
  static final String EXTENSION = "pi-extension.mjs";

  private static final int MAX_DETAIL = 300;

  @Override
  public Optional<Report> read(JsonNode event, long nowMillis) {
    JsonNode name = event.get("pi_event");
    if (name == null || !name.isTextual() || name.asText().isEmpty()) {
      throw new IllegalArgumentException("a pi event from clique's extension names its pi_event");
    }
    return switch (name.asText()) {
      case "agent_start" -> report(SessionState.WORKING, null, "agent_start");
      case "tool_call" -> report(SessionState.WORKING, null, "tool_call " + text(event, "tool"));
      case "agent_settled" -> {
        String error = text(event, "error");
        if (error.isEmpty()) {
          yield report(SessionState.IDLE, null, "agent_settled");
        }
        // A usage or rate limit it gave up retrying is no failure: a person waits or switches.
        yield LimitWords.in(error)
            ? report(
                SessionState.WAITING,
                new Attention(Attention.USAGE_LIMIT, error, nowMillis),
                "agent_settled on a usage limit")
            : report(
                SessionState.ERROR,
                new Attention("error", error, nowMillis),
                "agent_settled with an error");
      }
      case "ui_prompt_start" -> {
        String title = text(event, "title");
        yield report(
            SessionState.WAITING,
            new Attention(
                "question", title.isEmpty() ? "a dialog of an extension" : title, nowMillis),
            "ui_prompt_start " + text(event, "kind"));
      }
      case "ui_prompt_end" ->
          report(
              event.path("idle").asBoolean(false) ? SessionState.IDLE : SessionState.WORKING,
              null,
              "ui_prompt_end");
      default -> Optional.empty();
    };
  }

  private static Optional<Report> report(SessionState state, Attention attention, String evidence) {
    return Optional.of(new Report(state, attention, StateSource.HOOK, "pi " + evidence));
  }

  /** A string field, cut to one short line; a field of another type is refused. */
  private static String text(JsonNode event, String field) {
    JsonNode value = event.get(field);
    if (value == null || value.isNull()) {
      return "";
    }
    if (!value.isTextual()) {
      throw new IllegalArgumentException("a pi event's " + field + " is a string");
    }
    String line = value.asText().strip().lines().findFirst().orElse("");
    return line.length() > MAX_DETAIL ? line.substring(0, MAX_DETAIL) : line;
  }

  /**
   * Writes the extension into {@code hooksDir} (the engine's own, made private) unless it is there
   * already; its path is the value of {@code -e}. It reads the engine's URL, the session and its
   * token from the pane's environment, so one file serves every session.
   */
  @Override
  public Install install(String url, Path hooksDir) throws IOException {
    return Install.argument(extension(hooksDir));
  }

  private static String extension(Path folder) throws IOException {
    byte[] extension;
    try (InputStream in = PiHooks.class.getResourceAsStream(EXTENSION)) {
      if (in == null) {
        throw new IOException("clique's pi extension is missing from its jar");
      }
      extension = in.readAllBytes();
    }
    if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
      Files.createDirectories(folder);
      Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
    }
    Path file = folder.resolve(EXTENSION);
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
        || !Arrays.equals(Files.readAllBytes(file), extension)) {
      // Written whole, then moved into place: a pi starting meanwhile reads the old or the new.
      Path temp =
          Files.createTempFile(
              folder,
              "." + EXTENSION + ".",
              ".tmp",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      try {
        Files.write(temp, extension);
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(temp);
      }
    }
    return file.toString();
  }
}
