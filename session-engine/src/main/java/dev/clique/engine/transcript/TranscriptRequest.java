package dev.clique.engine.transcript;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * Which session's conversation to read.
 *
 * <pre>{@code
 * new TranscriptRequest("claude", "5f0c9a2e-1111-4c3b-9d1e-222233334444", null,
 *     Path.of("/home/dev/my_app"), Instant.parse("2026-08-01T10:00:00Z"))
 * }</pre>
 *
 * @param kind {@code "claude"}, {@code "codex"}, {@code "gemini"} or {@code "qwen"}; any other kind
 *     has no transcript
 * @param sessionId clique's session id (Claude Code and Qwen Code are started with {@code
 *     --session-id} set to it)
 * @param cliSessionId the CLI's own id of a resumed session, or {@code null}
 * @param cwd the session's working directory, or {@code null} when unknown
 * @param created when clique started the session, or {@code null} when unknown
 * @param environment the variables of {@link TranscriptRoots#VARIABLES} that the session's own
 *     process was started with (unset ones left out): the CLI writes where they say; {@code null}
 *     when unknown, and then the engine's own roots are used
 */
public record TranscriptRequest(
    String kind,
    String sessionId,
    String cliSessionId,
    Path cwd,
    Instant created,
    Map<String, String> environment) {

  /** Checks the required parts and turns a blank {@code cliSessionId} into {@code null}. */
  public TranscriptRequest {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(sessionId, "sessionId");
    if (cliSessionId != null && cliSessionId.isBlank()) {
      cliSessionId = null;
    }
    environment = environment == null ? null : Map.copyOf(environment);
  }

  /** A request whose session's environment is unknown: the engine's own roots are used. */
  public TranscriptRequest(
      String kind, String sessionId, String cliSessionId, Path cwd, Instant created) {
    this(kind, sessionId, cliSessionId, cwd, created, null);
  }
}
