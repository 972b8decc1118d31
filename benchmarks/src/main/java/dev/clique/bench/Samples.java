package dev.clique.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Measurements of one thing; medians because this machine is shared and noisy. */
final class Samples {
  private final List<Double> values = new ArrayList<>();

  static Samples of(double... values) {
    Samples samples = new Samples();
    for (double value : values) {
      samples.add(value);
    }
    return samples;
  }

  void add(double value) {
    values.add(value);
  }

  int size() {
    return values.size();
  }

  double median() {
    return percentile(50);
  }

  /** The 95th percentile; NaN with fewer than 5 samples, where it says nothing. */
  double p95() {
    return values.size() < 5 ? Double.NaN : percentile(95);
  }

  double max() {
    return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }

  private double percentile(double p) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    double rank = p / 100 * (sorted.length - 1);
    int low = (int) Math.floor(rank);
    int high = (int) Math.ceil(rank);
    return sorted[low] + (sorted[high] - sorted[low]) * (rank - low);
  }
}
