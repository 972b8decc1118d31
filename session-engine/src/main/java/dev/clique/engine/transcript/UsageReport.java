package dev.clique.engine.transcript;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;
import java.util.Objects;

/**
 * What a session's CLI recorded of its use: its {@link Usage} and its {@link Limits}, each {@code
 * null} when the CLI records none (a shell, a CLI that has not written its file yet, a CLI that is
 * told no limits), and what pricing the usage needs beyond its sums ({@link CostBasis}, not part of
 * any answer), and the records left out of the sums ({@link RecordsLeftOut}, which the usage's
 * {@code source} says).
 */
@JsonIgnoreProperties({"basis", "leftOut"})
public record UsageReport(Usage usage, Limits limits, CostBasis basis, RecordsLeftOut leftOut) {

  /** Nothing recorded. */
  public static final UsageReport NONE = new UsageReport(null, null);

  /** A report with nothing known to price it by. */
  public UsageReport(Usage usage, Limits limits) {
    this(usage, limits, CostBasis.UNKNOWN);
  }

  /** A report of sums that left no record out. */
  public UsageReport(Usage usage, Limits limits, CostBasis basis) {
    this(usage, limits, basis, RecordsLeftOut.NONE);
  }

  /**
   * This report, of a session's own file, with what its sub-agents used (each report of one of
   * their files) added to its sums: they are billed to the session. The model, the turns, the
   * context and the limits stay the session's own conversation's; the sums are partial when one of
   * the files was read only in part or {@code someLeftOut}; the records left out of theirs are said
   * in the {@code source} beside the session's own, its file being of {@code kind}.
   */
  UsageReport plusSubagents(List<UsageReport> subagents, boolean someLeftOut, String kind) {
    if (usage == null) {
      return this;
    }
    Usage sum = usage;
    RecordsLeftOut records = leftOut;
    boolean partial = someLeftOut || Boolean.TRUE.equals(usage.partial());
    boolean oneModel = basis.oneModel();
    Long largestPrompt = basis.largestPrompt();
    Long longWrites = basis.cacheWriteLongTokens();
    for (UsageReport subagent : subagents) {
      Usage used = subagent.usage();
      if (used == null) {
        continue;
      }
      records = records.plus(subagent.leftOut());
      sum =
          new Usage(
              sum.model(),
              plus(sum.inputTokens(), used.inputTokens()),
              plus(sum.outputTokens(), used.outputTokens()),
              plus(sum.cacheReadTokens(), used.cacheReadTokens()),
              plus(sum.cacheWriteTokens(), used.cacheWriteTokens()),
              plus(sum.reasoningTokens(), used.reasoningTokens()),
              sum.turns(),
              sum.contextTokens(),
              sum.contextWindow(),
              sum.source(),
              null);
      partial |= Boolean.TRUE.equals(used.partial());
      // A sub-agent often runs a smaller model: then no single model's prices fit the sums.
      oneModel &= subagent.basis().oneModel() && Objects.equals(used.model(), usage.model());
      Long prompt = subagent.basis().largestPrompt();
      if (prompt != null && (largestPrompt == null || prompt > largestPrompt)) {
        largestPrompt = prompt;
      }
      longWrites = plus(longWrites, subagent.basis().cacheWriteLongTokens());
    }
    return new UsageReport(
        new Usage(
            sum.model(),
            sum.inputTokens(),
            sum.outputTokens(),
            sum.cacheReadTokens(),
            sum.cacheWriteTokens(),
            sum.reasoningTokens(),
            sum.turns(),
            sum.contextTokens(),
            sum.contextWindow(),
            records.describe(kind),
            partial),
        limits,
        new CostBasis(oneModel, largestPrompt, longWrites, basis.writesApartFromInput()),
        records);
  }

  /** The sum of two counts, known when either is. */
  private static Long plus(Long a, Long b) {
    if (a == null) {
      return b;
    }
    return b == null ? a : a + b;
  }

  /** This report with {@code usage} in place of its own. */
  public UsageReport withUsage(Usage usage) {
    return new UsageReport(usage, limits, basis, leftOut);
  }
}
