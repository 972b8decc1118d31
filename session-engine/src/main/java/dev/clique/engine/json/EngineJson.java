package dev.clique.engine.json;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The engine's one JSON policy, for its answers and its files alike: integers as integers, seconds
 * with a fraction as plain decimals ({@code 1767171234.87}), never exponents.
 */
public final class EngineJson {
  private static final ObjectMapper MAPPER = newMapper();

  private EngineJson() {}

  /**
   * A mapper of its own with the same policy, for a form of the answers that configures it further
   * (mix-ins, serializers).
   */
  public static ObjectMapper newMapper() {
    return new ObjectMapper().registerModule(PlainNumbers.module());
  }

  /** The shared mapper; configured once, so safe to use from any thread. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }
}
