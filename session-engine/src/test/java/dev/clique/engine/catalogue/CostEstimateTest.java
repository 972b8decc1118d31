package dev.clique.engine.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.transcript.CostBasis;
import dev.clique.engine.transcript.Usage;
import dev.clique.engine.transcript.UsageReport;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/**
 * The cost estimate: each CLI's counts priced as its records mean them, and no estimate wherever a
 * count, a price or the model is in doubt. The golden transcripts price one session per CLI through
 * its reader; these say why an estimate is withheld.
 */
class CostEstimateTest {
  /** Claude Code and pi: cache writes recorded apart from the input. */
  private static final CostBasis APART = new CostBasis(true, 1_000L, null, true);

  /** Codex, Copilot, Gemini CLI, Qwen Code: the input holds the whole prompt. */
  private static final CostBasis INSIDE = new CostBasis(true, 1_000L, null, false);

  /** $3 input, $15 output, $0.30 cache reads, $3.75 and $6 cache writes, up to 200K prompts. */
  private static final ModelPrice SONNET =
      PriceTable.bundled().find("claude-sonnet-4-5").orElseThrow();

  /** $1.25 input, $10 output, $0.125 cache reads, no cache-write price. */
  private static final ModelPrice GPT5 = PriceTable.bundled().find("gpt-5").orElseThrow();

  private static Usage usage(Long input, Long output, Long read, Long write) {
    return new Usage("m", input, output, read, write, null, 1L, null, null, "s", false);
  }

  @Test
  void eachCountIsPricedOnceAndRoundedToMillionthsOfADollar() {
    // 1001 × 3 + 10 × 15 + 100 × 0.30 + 10 × 3.75 = 3220.5 millionths
    assertThat(CostEstimate.of(usage(1_001L, 10L, 100L, 10L), APART, SONNET)).isEqualTo(0.003221);
  }

  @Test
  void oneHourCacheWritesArePricedAtTheOneHourRate() {
    Usage usage = usage(0L, 0L, 0L, 1_000_000L);
    CostBasis split = new CostBasis(true, 1_000L, 400_000L, true);

    // 600,000 five-minute writes at $3.75 and 400,000 one-hour writes at $6
    assertThat(CostEstimate.of(usage, split, SONNET)).isEqualTo(4.65);
    ModelPrice noLongRate =
        new ModelPrice(
            "x", BigDecimal.ONE, BigDecimal.ONE, BigDecimal.ONE, BigDecimal.ONE, null, null);
    assertThat(CostEstimate.of(usage, split, noLongRate))
        .as("one-hour writes with no one-hour price")
        .isNull();
    assertThat(CostEstimate.of(usage, new CostBasis(true, 1_000L, 2_000_000L, true), SONNET))
        .as("a split larger than the writes")
        .isNull();
  }

  @Test
  void aCliThatKeepsWritesApartGivesNoEstimateWithoutThem() {
    assertThat(CostEstimate.of(usage(1L, 1L, 0L, null), APART, SONNET)).isNull();
    assertThat(CostEstimate.of(usage(1L, 1L, 0L, 0L), APART, SONNET)).isNotNull();
  }

  @Test
  void aCliWhoseInputHoldsItsWritesPricesThemAsInputWhenTheRowHasNoWritePrice() {
    // Codex records no writes: they are inside its input, and OpenAI bills them as input.
    assertThat(CostEstimate.of(usage(1_000_000L, 0L, 0L, null), INSIDE, GPT5)).isEqualTo(1.25);
    // Copilot records them apart from the rest of its input: still billed as input.
    assertThat(CostEstimate.of(usage(600_000L, 0L, 0L, 400_000L), INSIDE, GPT5)).isEqualTo(1.25);
  }

  @Test
  void unknownInputOutputOrCacheReadsGiveNoEstimate() {
    // The input of Codex, Gemini CLI, Qwen Code and Copilot would hold an unknown cached part.
    assertThat(CostEstimate.of(usage(1L, 1L, null, 0L), INSIDE, GPT5)).isNull();
    assertThat(CostEstimate.of(usage(1L, 1L, null, 0L), APART, SONNET)).isNull();
    assertThat(CostEstimate.of(usage(null, 1L, 0L, 0L), INSIDE, GPT5)).isNull();
    assertThat(CostEstimate.of(usage(1L, null, 0L, 0L), INSIDE, GPT5)).isNull();
  }

  @Test
  void cacheReadsWithNoPriceInTheRowGiveNoEstimateButNoneReadDo() {
    ModelPrice flash = PriceTable.bundled().find("gemini-2.5-flash").orElseThrow();

    assertThat(CostEstimate.of(usage(1L, 1L, 5L, null), INSIDE, flash)).isNull();
    assertThat(CostEstimate.of(usage(1_000_000L, 0L, 0L, null), INSIDE, flash)).isEqualTo(0.3);
  }

  @Test
  void partialSumsOrSeveralModelsOrAPromptAboveTheFlatRatesGiveNoEstimate() {
    Usage usage = usage(1L, 1L, 0L, 0L);
    Usage partial = new Usage("m", 1L, 1L, 0L, 0L, null, 1L, null, null, "s", true);

    assertThat(CostEstimate.of(usage, APART, SONNET)).isNotNull();
    assertThat(CostEstimate.of(partial, APART, SONNET)).isNull();
    assertThat(CostEstimate.of(usage, new CostBasis(false, 1_000L, null, true), SONNET)).isNull();
    assertThat(CostEstimate.of(usage, new CostBasis(true, 200_001L, null, true), SONNET)).isNull();
    assertThat(CostEstimate.of(usage, new CostBasis(true, null, null, true), SONNET)).isNull();
    assertThat(CostEstimate.of(usage, new CostBasis(true, null, null, false), GPT5))
        .as("a row that holds for any prompt")
        .isNotNull();
  }

  @Test
  void aReportIsPricedByItsModelsRowAndOneWithoutARowIsLeftAsItIs() {
    PriceTable prices = PriceTable.bundled();
    UsageReport known =
        new UsageReport(
            new Usage("gpt-5-codex", 1_000_000L, 0L, 0L, null, null, 1L, 1L, null, "s", false),
            null,
            INSIDE);
    UsageReport unknown =
        new UsageReport(
            new Usage("gpt-6-codex", 1L, 1L, 0L, 0L, null, 1L, 1L, null, "s", false), null, INSIDE);

    assertThat(CostEstimate.priced(known, prices).usage().costUsdEstimate()).isEqualTo(1.25);
    assertThat(CostEstimate.priced(unknown, prices)).isSameAs(unknown);
    assertThat(CostEstimate.priced(UsageReport.NONE, prices)).isSameAs(UsageReport.NONE);
    assertThat(CostEstimate.priced(known, PriceTable.NONE)).isSameAs(known);
  }
}
