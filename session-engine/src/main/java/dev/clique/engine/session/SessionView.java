package dev.clique.engine.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.clique.engine.transcript.Limits;
import dev.clique.engine.transcript.Usage;
import java.util.List;

/**
 * One row of {@code GET /api/state}: the record plus what tmux and the detector say now. {@code
 * adopted} and {@code source} are null for clique's own sessions; a discovered session has its
 * {@code source} and {@code adopted: false} until it is adopted. {@code usage} and {@code limits}
 * are what the session's CLI recorded, left out when it recorded none. {@code cli_version} is the
 * version of the program that runs in the pane, null while unknown (or once it stopped).
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record SessionView(
    @JsonProperty("id") String id,
    @JsonProperty("name") String name,
    @JsonProperty("cli") String cli,
    @JsonProperty("cli_label") String cliLabel,
    @JsonProperty("cli_version") String cliVersion,
    @JsonProperty("cwd") String cwd,
    @JsonProperty("project") String project,
    @JsonProperty("folder") String folder,
    @JsonProperty("mode") String mode,
    @JsonProperty("created") double created,
    @JsonProperty("alive") boolean alive,
    @JsonProperty("attached") boolean attached,
    @JsonProperty("command") String command,
    @JsonProperty("activity") double activity,
    @JsonProperty("cols") int cols,
    @JsonProperty("rows") int rows,
    @JsonProperty("busy") boolean busy,
    @JsonProperty("signal") String signal,
    @JsonProperty("saying") String saying,
    @JsonProperty("state") String state,
    @JsonProperty("rss") long rss,
    @JsonProperty("branch") String branch,
    @JsonProperty("dirty") int dirty,
    @JsonProperty("attention") AttentionView attention,
    @JsonProperty("state_source") SourceView stateSource,
    @JsonProperty("exit_status") Integer exitStatus,
    @JsonProperty("adopted") Boolean adopted,
    @JsonProperty("source") Source source,
    @JsonProperty("detached") List<DetachedView> detached,
    @JsonProperty("usage") @JsonInclude(JsonInclude.Include.NON_NULL) Usage usage,
    @JsonProperty("limits") @JsonInclude(JsonInclude.Include.NON_NULL) Limits limits) {

  /**
   * A process of the session outside its pane's process tree (it carries the session's marker): a
   * daemon its CLI forked away. Its memory counts in {@code rss}; a kill ends it with the session.
   */
  public record DetachedView(
      @JsonProperty("pid") long pid, @JsonProperty("command") String command) {}

  /**
   * Why a person is needed: {@code since} in unix seconds; {@code resets_at} (ISO-8601, UTC) when a
   * usage limit lifts, only where the CLI said it.
   */
  public record AttentionView(
      @JsonProperty("kind") String kind,
      @JsonProperty("detail") String detail,
      @JsonProperty("since") double since,
      @JsonProperty("resets_at") @JsonInclude(JsonInclude.Include.NON_NULL) String resetsAt) {}

  /** Which signal decided the state, and its evidence. */
  public record SourceView(
      @JsonProperty("authority") String authority, @JsonProperty("evidence") String evidence) {}
}
