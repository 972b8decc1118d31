package dev.clique.bench;

/**
 * One measured figure of BENCHMARKS.md.
 *
 * @param median the median of the samples, in {@code unit}
 * @param p95 the 95th percentile, or NaN where it does not apply
 * @param target the target in words, such as {@code <= 200 ms}; empty when there is none
 * @param met whether the median meets the target (true when there is no target)
 * @param note how it was measured, in a few words
 */
record Figure(
    String name, String unit, double median, double p95, String target, boolean met, String note) {

  /** A figure that must be at most {@code limit}. */
  static Figure atMost(String name, String unit, Samples samples, double limit, String note) {
    return new Figure(
        name,
        unit,
        samples.median(),
        samples.p95(),
        "<= " + Report.number(limit) + " " + unit,
        samples.median() <= limit,
        note);
  }

  /** A figure that must be at least {@code limit}. */
  static Figure atLeast(String name, String unit, Samples samples, double limit, String note) {
    return new Figure(
        name,
        unit,
        samples.median(),
        samples.p95(),
        ">= " + Report.number(limit) + " " + unit,
        samples.median() >= limit,
        note);
  }

  /** A figure measured beside the others, with no target of its own. */
  static Figure reference(String name, String unit, Samples samples, String note) {
    return new Figure(name, unit, samples.median(), samples.p95(), "", true, note);
  }
}
