package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A tally of records that each tell one request's counts, summed as they come: a CLI's tally says
 * which records those are and what its counts mean; the check, the sums and the report are these.
 */
abstract class SummingTally implements UsageReader.Tally {

  /** The sums so far. */
  protected final UsageSums sums;

  private final String source;

  /**
   * @param source the kind of file, as {@code source} names it
   * @param writesApartFromInput whether the CLI records cache writes apart from its input ({@link
   *     CostBasis#writesApartFromInput})
   */
  SummingTally(String source, boolean writesApartFromInput) {
    this.source = source;
    this.sums = new UsageSums(writesApartFromInput);
  }

  /**
   * Whether the counts under {@code usage} can be summed; when they cannot, the record is left out
   * and counted as such.
   */
  protected final boolean summable(Counts counts, JsonNode usage) {
    RecordsLeftOut.Why fault = counts.fault(usage);
    if (fault != null) {
      sums.leftOut(fault);
    }
    return fault == null;
  }

  @Override
  public final void leftOut(RecordsLeftOut.Why why) {
    sums.leftOut(why);
  }

  @Override
  public UsageReport report(boolean partial) {
    return sums.report(source, partial);
  }

  /** What {@code sums} say of this tally's file. */
  protected final UsageReport report(UsageSums sums, boolean partial) {
    return sums.report(source, partial);
  }
}
