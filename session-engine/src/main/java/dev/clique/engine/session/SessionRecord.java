package dev.clique.engine.session;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What clique remembers of a session across restarts ({@code state.json}). Whether it runs is asked
 * of tmux, never stored.
 *
 * @param created unix seconds
 * @param cliSessionId the CLI's own session id when it differs from {@code id} (a resumed session,
 *     or one whose CLI chose its own id, as opencode does), else null
 * @param source where a session clique did not start runs (discovered, or adopted), else null
 */
@JsonIgnoreProperties(ignoreUnknown = true)
@JsonInclude(JsonInclude.Include.ALWAYS)
public record SessionRecord(
    @JsonProperty("id") String id,
    @JsonProperty("name") String name,
    @JsonProperty("cli") String cli,
    @JsonProperty("cwd") String cwd,
    @JsonProperty("folder") String folder,
    @JsonProperty("mode") String mode,
    @JsonProperty("created") double created,
    @JsonProperty("cli_session_id") String cliSessionId,
    @JsonProperty("source") Source source) {

  /** A session of clique's own, on its own socket. */
  public SessionRecord(
      String id,
      String name,
      String cli,
      String cwd,
      String folder,
      String mode,
      double created,
      String cliSessionId) {
    this(id, name, cli, cwd, folder, mode, created, cliSessionId, null);
  }

  /** The same record, naming {@code own} as the CLI's own session id. */
  SessionRecord withCliSession(String own) {
    return new SessionRecord(id, name, cli, cwd, folder, mode, created, own, source);
  }
}
