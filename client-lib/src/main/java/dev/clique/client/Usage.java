package dev.clique.client;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What a session has used, as its CLI recorded it: {@link Session#usage()}, the row's {@code
 * usage}.
 *
 * <p>The token counts do not overlap: {@link #inputTokens()} is the input neither read from nor
 * written to the prompt cache, {@link #cacheReadTokens()} and {@link #cacheWriteTokens()} the input
 * that was, {@link #outputTokens()} everything generated, reasoning included. A count the CLI does
 * not record is empty, never 0.
 *
 * <pre>{@code
 * session.usage().ifPresent(u -> System.out.printf("%s: %d of %d tokens of context%n",
 *     u.model().orElse("?"), u.contextTokens().orElse(0), u.contextWindow().orElse(0)));
 * }</pre>
 *
 * <p>Made by the client as it reads a session; there is no public constructor, so a later version
 * can add what a later engine sends. Two usages are equal when all their values are.
 */
public final class Usage {
  private final Optional<String> model;
  private final OptionalLong inputTokens;
  private final OptionalLong outputTokens;
  private final OptionalLong cacheReadTokens;
  private final OptionalLong cacheWriteTokens;
  private final OptionalLong reasoningTokens;
  private final OptionalLong turns;
  private final OptionalLong contextTokens;
  private final OptionalLong contextWindow;
  private final String source;
  private final boolean partial;
  private final OptionalDouble costUsdEstimate;
  private final OptionalLong
      listedTokens; // a listing's brief usage: its figures as the engine gave
  private final OptionalLong listedContextPercent;

  Usage(
      Optional<String> model,
      OptionalLong inputTokens,
      OptionalLong outputTokens,
      OptionalLong cacheReadTokens,
      OptionalLong cacheWriteTokens,
      OptionalLong reasoningTokens,
      OptionalLong turns,
      OptionalLong contextTokens,
      OptionalLong contextWindow,
      String source,
      boolean partial,
      OptionalDouble costUsdEstimate,
      OptionalLong listedTokens,
      OptionalLong listedContextPercent) {
    this.model = Objects.requireNonNull(model, "model");
    this.inputTokens = Objects.requireNonNull(inputTokens, "inputTokens");
    this.outputTokens = Objects.requireNonNull(outputTokens, "outputTokens");
    this.cacheReadTokens = Objects.requireNonNull(cacheReadTokens, "cacheReadTokens");
    this.cacheWriteTokens = Objects.requireNonNull(cacheWriteTokens, "cacheWriteTokens");
    this.reasoningTokens = Objects.requireNonNull(reasoningTokens, "reasoningTokens");
    this.turns = Objects.requireNonNull(turns, "turns");
    this.contextTokens = Objects.requireNonNull(contextTokens, "contextTokens");
    this.contextWindow = Objects.requireNonNull(contextWindow, "contextWindow");
    this.source = Objects.requireNonNull(source, "source");
    this.partial = partial;
    this.costUsdEstimate = Objects.requireNonNull(costUsdEstimate, "costUsdEstimate");
    this.listedTokens = Objects.requireNonNull(listedTokens, "listedTokens");
    this.listedContextPercent =
        Objects.requireNonNull(listedContextPercent, "listedContextPercent");
  }

  /**
   * The model of the last answer.
   *
   * @return e.g. {@code claude-opus-5-5}, when the CLI names it
   */
  public Optional<String> model() {
    return model;
  }

  /**
   * Input tokens that were not cached, summed over the conversation.
   *
   * @return the count, when the CLI records it
   */
  public OptionalLong inputTokens() {
    return inputTokens;
  }

  /**
   * Generated tokens, reasoning included, summed over the conversation.
   *
   * @return the count, when the CLI records it
   */
  public OptionalLong outputTokens() {
    return outputTokens;
  }

  /**
   * Input tokens read from the prompt cache, summed over the conversation.
   *
   * @return the count, when the CLI records it
   */
  public OptionalLong cacheReadTokens() {
    return cacheReadTokens;
  }

  /**
   * Input tokens written to the prompt cache, summed over the conversation.
   *
   * @return the count, when the CLI records it
   */
  public OptionalLong cacheWriteTokens() {
    return cacheWriteTokens;
  }

  /**
   * The part of {@link #outputTokens()} spent thinking.
   *
   * @return the count, when the CLI records it
   */
  public OptionalLong reasoningTokens() {
    return reasoningTokens;
  }

  /**
   * How many model answers of the session's own conversation the sums cover; its sub-agents'
   * answers are in the sums, not in this count.
   *
   * @return the count, when the engine sends it
   */
  public OptionalLong turns() {
    return turns;
  }

  /**
   * What the last request sent: its whole input, cached or not; the context it filled.
   *
   * @return the count, when the CLI records it
   */
  public OptionalLong contextTokens() {
    return contextTokens;
  }

  /**
   * The model's context window.
   *
   * @return its size in tokens, when the CLI records it (Codex does; Claude Code and Gemini CLI do
   *     not)
   */
  public OptionalLong contextWindow() {
    return contextWindow;
  }

  /**
   * The tokens the model took in or wrote, cache reads aside: what a list of sessions shows.
   *
   * @return {@link #inputTokens()}, {@link #cacheWriteTokens()} and {@link #outputTokens()} added
   *     up (those recorded), or the figure a {@linkplain CliqueClient#listing() listing} gave;
   *     empty when the CLI records none of them
   */
  public OptionalLong tokens() {
    if (listedTokens.isPresent()) {
      return listedTokens;
    }
    OptionalLong sum = OptionalLong.empty();
    for (OptionalLong part : List.of(inputTokens, cacheWriteTokens, outputTokens)) {
      if (part.isPresent()) {
        sum = OptionalLong.of(sum.orElse(0) + part.getAsLong());
      }
    }
    return sum;
  }

  /**
   * How full the context is.
   *
   * @return {@link #contextTokens()} as a percentage of {@link #contextWindow()}, when both are
   *     known; in a {@linkplain CliqueClient#listing() listing}, the whole percentage it gave
   */
  public Optional<Double> contextPercent() {
    if (listedContextPercent.isPresent()) {
      return Optional.of((double) listedContextPercent.getAsLong());
    }
    if (contextTokens.isEmpty() || contextWindow.isEmpty() || contextWindow.getAsLong() <= 0) {
      return Optional.empty();
    }
    return Optional.of(100.0 * contextTokens.getAsLong() / contextWindow.getAsLong());
  }

  /**
   * The kind of file the engine read, and the records it left out of the sums, if any.
   *
   * @return e.g. {@code "claude transcript"}, {@code "codex rollout"}, {@code "gemini chat"}, or
   *     {@code "claude transcript; left out: 1 record cut short"} when a record could not be
   *     summed; {@code ""} when not said
   */
  public String source() {
    return source;
  }

  /**
   * Whether the sums cover only the end of the CLI's file, which was too large to read whole.
   *
   * @return {@code true} when they do
   */
  public boolean partial() {
    return partial;
  }

  /**
   * What these tokens would cost at the model's list prices, from the engine's price table: an
   * estimate at pay-as-you-go API rates, not what a subscription is billed.
   *
   * <pre>{@code
   * usage.costUsdEstimate().ifPresent(usd -> System.out.printf("about $%.2f%n", usd));
   * }</pre>
   *
   * @return US dollars, when the engine's table prices the model and every count the prices need is
   *     known; empty otherwise, never a guess
   */
  public OptionalDouble costUsdEstimate() {
    return costUsdEstimate;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Usage that
        && model.equals(that.model)
        && inputTokens.equals(that.inputTokens)
        && outputTokens.equals(that.outputTokens)
        && cacheReadTokens.equals(that.cacheReadTokens)
        && cacheWriteTokens.equals(that.cacheWriteTokens)
        && reasoningTokens.equals(that.reasoningTokens)
        && turns.equals(that.turns)
        && contextTokens.equals(that.contextTokens)
        && contextWindow.equals(that.contextWindow)
        && source.equals(that.source)
        && partial == that.partial
        && costUsdEstimate.equals(that.costUsdEstimate)
        && listedTokens.equals(that.listedTokens)
        && listedContextPercent.equals(that.listedContextPercent);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
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
        costUsdEstimate,
        listedTokens,
        listedContextPercent);
  }

  @Override
  public String toString() {
    return "Usage[model="
        + model.orElse("?")
        + ", input="
        + text(inputTokens)
        + ", output="
        + text(outputTokens)
        + ", cacheRead="
        + text(cacheReadTokens)
        + ", cacheWrite="
        + text(cacheWriteTokens)
        + ", reasoning="
        + text(reasoningTokens)
        + ", turns="
        + text(turns)
        + ", context="
        + text(contextTokens)
        + "/"
        + text(contextWindow)
        + ", source="
        + source
        + (partial ? ", partial" : "")
        + (costUsdEstimate.isPresent() ? ", costUsd=" + costUsdEstimate.getAsDouble() : "")
        + "]";
  }

  private static String text(OptionalLong count) {
    return count.isPresent() ? Long.toString(count.getAsLong()) : "-";
  }
}
