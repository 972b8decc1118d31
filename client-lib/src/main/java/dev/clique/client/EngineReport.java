package dev.clique.client;

import java.util.Objects;
import java.util.Optional;

/**
 * How one engine of several answered a call made over all of them ({@link EngineState#engines()}):
 * its name from the engines file, whether it answered, and if not, why. An engine that did not
 * answer never fails the whole answer; its sessions are absent from it and this says so.
 *
 * <p>Its JSON is {@code {"name": "box", "ok": false, "error": "..."}}, {@code "error"} being {@code
 * null} when it answered.
 */
public final class EngineReport {
  private final String name;
  private final Optional<String> error;
  private final String json;

  EngineReport(String name, Optional<String> error, String json) {
    this.name = Objects.requireNonNull(name, "name");
    this.error = Objects.requireNonNull(error, "error");
    this.json = Objects.requireNonNull(json, "json");
  }

  /**
   * Reads one report from its JSON text, as a fake or a test has it.
   *
   * @param json one report's JSON object
   * @return the report
   * @throws IllegalArgumentException if it is not JSON or not a report
   */
  public static EngineReport fromJson(String json) {
    return Answers.fromJson(json, Answers::readEngineReport);
  }

  /**
   * The engine's name, as the engines file gives it.
   *
   * @return its name
   */
  public String name() {
    return name;
  }

  /**
   * Whether the engine answered.
   *
   * @return {@code true} when its sessions are in the answer
   */
  public boolean ok() {
    return error.isEmpty();
  }

  /**
   * Why the engine did not answer, in the client's words (a token never appears in it).
   *
   * @return the reason, or empty when it answered
   */
  public Optional<String> error() {
    return error;
  }

  /**
   * The report's JSON text.
   *
   * @return its JSON object
   */
  public String json() {
    return json;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof EngineReport that && json.equals(that.json);
  }

  @Override
  public int hashCode() {
    return json.hashCode();
  }

  @Override
  public String toString() {
    return "EngineReport[name="
        + name
        + ", ok="
        + ok()
        + error.map(e -> ", error=" + e).orElse("")
        + "]";
  }
}
