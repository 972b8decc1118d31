package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;

/** A running sum of one count that stays unknown ({@code null}) until a record carries it. */
final class TokenCount {
  private long sum;
  private boolean recorded;

  /** Adds {@code value} when it is known; never below 0. */
  void add(Long value) {
    if (value != null) {
      sum += Math.max(0, value);
      recorded = true;
    }
  }

  /** Adds what {@code other} has summed, known when either is. */
  void add(TokenCount other) {
    add(other.value());
  }

  /** The sum, or {@code null} when no record carried the count. */
  Long value() {
    return recorded ? sum : null;
  }

  /** The number {@code node} holds, or {@code null} when it holds none. */
  static Long of(JsonNode node) {
    return node != null && node.isNumber() ? node.asLong() : null;
  }

  /** The count {@code node} holds, as a sum takes it: 0 when it holds none, never below 0. */
  static long orZero(JsonNode node) {
    return orZero(of(node));
  }

  /** {@code count}, 0 when it is unknown, never below 0. */
  static long orZero(Long count) {
    return count == null ? 0 : Math.max(0, count);
  }
}
