package dev.clique.engine.transcript;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;
import java.util.Objects;

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

  /**
   * This report, of a session's own file, with what its sub-agents used (each report of one of
   * their files) added to its sums: they are billed to the session. The model, the turns, the
   * context and the limits stay the session's own conversation's; the sums are partial when one of
   * the files was read only in part or {@code someLeftOut}.
   */
  UsageReport plusSubagents(List<UsageReport> subagents, boolean someLeftOut) {
    if (usage == null) {
      return this;
    }
    Usage sum = usage;
    boolean partial = someLeftOut || Boolean.TRUE.equals(usage.partial());
    boolean oneModel = basis.oneModel();
    Long largestPrompt = basis.largestPrompt();
    Long longWrites = basis.cacheWriteLongTokens();
    for (UsageReport subagent : subagents) {
      Usage used = subagent.usage();
      if (used == null) {
        continue;
      }
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
            sum.source(),
            partial),
        limits,
        new CostBasis(oneModel, largestPrompt, longWrites, basis.writesApartFromInput()));
  }

  private static Long plus(Long a, Long b) {
    return ClaudeUsageReader.plus(a, b);
  }

  /** This report with {@code usage} in place of its own. */
  public UsageReport withUsage(Usage usage) {
    return new UsageReport(usage, limits, basis);
  }
}
