package dev.clique.engine.transcript;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What a session has used, summed over its conversation and its sub-agents' from its CLI's own
 * records. A count the CLI does not record is {@code null} (and left out of the JSON), never 0.
 *
 * <p>The token counts do not overlap, whatever each CLI calls them: {@code input_tokens} is the
 * input neither read from nor written to the prompt cache, {@code cache_read_tokens} and {@code
 * cache_write_tokens} the input that was, {@code output_tokens} everything generated, reasoning
 * included, and {@code reasoning_tokens} the part of it spent thinking. So input, cache reads,
 * cache writes and output add up to every token the session's requests used.
 *
 * <pre>{@code
 * {"model": "claude-opus-5-5", "input_tokens": 300, "output_tokens": 60, "cache_read_tokens": 0,
 *  "cache_write_tokens": 0, "turns": 3, "context_tokens": 100, "source": "claude transcript"}
 * }</pre>
 *
 * @param model the model of the last answer, when the CLI names it
 * @param inputTokens input tokens that were not cached
 * @param outputTokens generated tokens, reasoning included
 * @param cacheReadTokens input tokens read from the prompt cache
 * @param cacheWriteTokens input tokens written to the prompt cache
 * @param reasoningTokens the part of {@code outputTokens} spent thinking
 * @param turns how many model answers of the session's own conversation the sums cover; its
 *     sub-agents' answers (Claude Code's side chains) are in the sums, not in this count
 * @param contextTokens what the last request of the session's own conversation sent: its whole
 *     input, cached or not
 * @param contextWindow the model's context window, when the CLI records it
 * @param source the kind of file read, e.g. {@code "claude transcript"}, and the records left out
 *     of the sums, e.g. {@code "claude transcript; left out: 1 record cut short"}
 * @param partial {@code true} when the file was too large to read from its start, so the sums cover
 *     only its end; {@code null} otherwise
 * @param costUsdEstimate what the sums would cost at the model's list prices, in US dollars, when
 *     the engine's price table has the model and every count the prices need is known; {@code null}
 *     otherwise
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Usage(
    @JsonProperty("model") String model,
    @JsonProperty("input_tokens") Long inputTokens,
    @JsonProperty("output_tokens") Long outputTokens,
    @JsonProperty("cache_read_tokens") Long cacheReadTokens,
    @JsonProperty("cache_write_tokens") Long cacheWriteTokens,
    @JsonProperty("reasoning_tokens") Long reasoningTokens,
    @JsonProperty("turns") Long turns,
    @JsonProperty("context_tokens") Long contextTokens,
    @JsonProperty("context_window") Long contextWindow,
    @JsonProperty("source") String source,
    @JsonProperty("partial") Boolean partial,
    @JsonProperty("cost_usd_estimate") Double costUsdEstimate) {

  /** A {@code partial} that is not {@code true} is left out. */
  public Usage {
    partial = Boolean.TRUE.equals(partial) ? Boolean.TRUE : null;
  }

  /** A usage as a CLI's records tell it, before any price is applied. */
  public Usage(
      String model,
      Long inputTokens,
      Long outputTokens,
      Long cacheReadTokens,
      Long cacheWriteTokens,
      Long reasoningTokens,
      Long turns,
      Long contextTokens,
      Long contextWindow,
      String source,
      Boolean partial) {
    this(
        model,
        inputTokens,
        outputTokens,
        cacheReadTokens,
        cacheWriteTokens,
        reasoningTokens,
        turns,
        contextTokens,
        contextWindow,
        source,
        partial,
        null);
  }

  /** This usage with {@code estimate} as its cost. */
  public Usage withCostUsdEstimate(Double estimate) {
    return new Usage(
        model,
        inputTokens,
        outputTokens,
        cacheReadTokens,
        cacheWriteTokens,
        reasoningTokens,
        turns,
        contextTokens,
        contextWindow,
        source,
        partial,
        estimate);
  }
}
