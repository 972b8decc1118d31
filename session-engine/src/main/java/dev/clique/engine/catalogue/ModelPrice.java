package dev.clique.engine.catalogue;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * One row of the price table ({@code prices.toml}): a model's list prices in USD per million
 * tokens. A price the row leaves out is {@code null}.
 *
 * @param name the row's name, the model's own
 * @param input input tokens neither read from nor written to the prompt cache
 * @param output generated tokens, reasoning included
 * @param cacheRead input tokens read from the prompt cache, when the row says
 * @param cacheWrite input tokens written to the prompt cache (5-minute writes where the vendor has
 *     several kinds); {@code null}: writes are billed as input
 * @param cacheWriteLong one-hour cache writes, when the row says
 * @param flatUpTo the largest prompt, in tokens, the prices hold for; {@code null}: any
 */
public record ModelPrice(
    String name,
    BigDecimal input,
    BigDecimal output,
    BigDecimal cacheRead,
    BigDecimal cacheWrite,
    BigDecimal cacheWriteLong,
    Long flatUpTo) {

  /** Input and output are required. */
  public ModelPrice {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(output, "output");
  }
}
