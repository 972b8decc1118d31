package dev.clique.engine.transcript;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * What a session's CLI recorded of its use: its {@link Usage} and its {@link Limits}, each {@code
 * null} when the CLI records none (a shell, a CLI that has not written its file yet, a CLI that is
 * told no limits), and what pricing the usage needs beyond its sums ({@link CostBasis}, not part of
 * any answer).
 */
@JsonIgnoreProperties("basis")
public record UsageReport(Usage usage, Limits limits, CostBasis basis) {

  /** Nothing recorded. */
  public static final UsageReport NONE = new UsageReport(null, null);

  /** A report with nothing known to price it by. */
  public UsageReport(Usage usage, Limits limits) {
    this(usage, limits, CostBasis.UNKNOWN);
  }

  /** This report with {@code usage} in place of its own. */
  public UsageReport withUsage(Usage usage) {
    return new UsageReport(usage, limits, basis);
  }
}
