package dev.clique.engine.catalogue;

import dev.clique.engine.transcript.CostBasis;
import dev.clique.engine.transcript.Usage;
import dev.clique.engine.transcript.UsageReport;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * What a session's tokens would cost at its model's list prices: an estimate, never a guess. The
 * counts of a {@link Usage} do not overlap (each CLI's reader takes the cached part out of the
 * input its CLI records, and adds the thinking Gemini CLI and Qwen Code record apart to the
 * output), so the estimate is each count times its price:
 *
 * <pre>
 *   input × input + output × output + cache reads × cache_read + cache writes × cache_write
 * </pre>
 *
 * <p>What each CLI's records leave open decides which counts must be known (its reader says which
 * kind it is: {@link CostBasis#writesApartFromInput()}):
 *
 * <ul>
 *   <li>Claude Code and pi record cache reads and writes apart from the input (Anthropic's usage),
 *       so all four counts must be known. Claude Code's one-hour cache writes (the {@code
 *       cache_creation} split of its newer records) are priced at {@code cache_write_1h}; a record
 *       without the split made five-minute writes, the API's default, and so does pi.
 *   <li>Codex, GitHub Copilot CLI, Gemini CLI and Qwen Code record the whole prompt as input and
 *       the cached part inside it. Cache reads must be known (else the input would hold an unknown
 *       cached part); cache writes they do not record apart are inside the input, billed as input,
 *       which is how OpenAI and Gemini's implicit caching bill them.
 *   <li>Reasoning is part of the output everywhere and billed at the output price, as every vendor
 *       bills it.
 * </ul>
 *
 * <p>There is no estimate when the sums cover only the end of a file ({@code partial}), when more
 * than one model answered (the sums cannot be split between their prices), when a count that is not
 * 0 has no price in the row, or when the row holds only up to a prompt size ({@code flat_up_to})
 * and a request was larger or the sizes are not known.
 */
public final class CostEstimate {

  /** Millionths of a dollar: what one token costs at a price of $1 per million. */
  static final int DECIMALS = 6;

  private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

  private CostEstimate() {}

  /**
   * {@code report} with its usage's {@code cost_usd_estimate}, from the row {@code prices} has for
   * its model, when one can be made; {@code report} itself otherwise.
   */
  public static UsageReport priced(UsageReport report, PriceTable prices) {
    Usage usage = report.usage();
    if (usage == null) {
      return report;
    }
    Double estimate =
        prices.find(usage.model()).map(price -> of(usage, report.basis(), price)).orElse(null);
    return estimate == null ? report : report.withUsage(usage.withCostUsdEstimate(estimate));
  }

  /**
   * The estimate, in US dollars rounded to millionths, or {@code null} when the counts and the row
   * cannot give one.
   */
  static Double of(Usage usage, CostBasis basis, ModelPrice price) {
    if (Boolean.TRUE.equals(usage.partial()) || !basis.oneModel()) {
      return null;
    }
    if (price.flatUpTo() != null
        && (basis.largestPrompt() == null || basis.largestPrompt() > price.flatUpTo())) {
      return null;
    }
    Long input = usage.inputTokens();
    Long output = usage.outputTokens();
    Long cacheRead = usage.cacheReadTokens();
    Long cacheWrite = usage.cacheWriteTokens();
    if (input == null || output == null || cacheRead == null) {
      return null;
    }
    if (cacheWrite == null) {
      if (basis.writesApartFromInput()) {
        return null; // its writes are in no count we have
      }
      cacheWrite = 0L; // inside the input, and billed as input
    }
    long longWrites = basis.cacheWriteLongTokens() == null ? 0 : basis.cacheWriteLongTokens();
    long shortWrites = cacheWrite - longWrites;
    if (shortWrites < 0) {
      return null; // a split that does not add up
    }
    BigDecimal perMillion = price.input().multiply(BigDecimal.valueOf(input));
    perMillion = perMillion.add(price.output().multiply(BigDecimal.valueOf(output)));
    BigDecimal read = priced(cacheRead, price.cacheRead());
    BigDecimal written =
        priced(shortWrites, price.cacheWrite() == null ? price.input() : price.cacheWrite());
    BigDecimal writtenLong = priced(longWrites, price.cacheWriteLong());
    if (read == null || written == null || writtenLong == null) {
      return null;
    }
    perMillion = perMillion.add(read).add(written).add(writtenLong);
    return perMillion.divide(MILLION, DECIMALS, RoundingMode.HALF_UP).doubleValue();
  }

  /** {@code count × price}; 0 for no tokens; {@code null} for tokens the row has no price for. */
  private static BigDecimal priced(long count, BigDecimal price) {
    if (count == 0) {
      return BigDecimal.ZERO;
    }
    return price == null ? null : price.multiply(BigDecimal.valueOf(count));
  }
}
