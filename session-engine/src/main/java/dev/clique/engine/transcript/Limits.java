package dev.clique.engine.transcript;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * The usage limits a CLI was last told of (Codex: the rate-limit windows of the account), as it
 * recorded them; they are the account's, so every session of one account tells the same.
 *
 * <pre>{@code
 * {"windows": [{"name": "primary", "used_percent": 12.5, "window_minutes": 300,
 *   "resets_at": 1796130000}], "as_of": 1796122943.472, "source": "codex rollout"}
 * }</pre>
 *
 * @param windows each window, in the CLI's order, never empty
 * @param asOf when the CLI recorded them, in unix seconds, when it says
 * @param source the kind of file read
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Limits(
    @JsonProperty("windows") List<Window> windows,
    @JsonProperty("as_of") Double asOf,
    @JsonProperty("source") String source) {

  /** Copies the windows. */
  public Limits {
    windows = List.copyOf(windows);
  }

  /**
   * One limit window.
   *
   * @param name the CLI's name for it ({@code primary}, {@code secondary})
   * @param usedPercent how much of it is used, 0 to 100
   * @param windowMinutes how long the window is, when the CLI says
   * @param resetsAt when it starts afresh, in unix seconds, when the CLI says
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Window(
      @JsonProperty("name") String name,
      @JsonProperty("used_percent") double usedPercent,
      @JsonProperty("window_minutes") Long windowMinutes,
      @JsonProperty("resets_at") Long resetsAt) {}
}
