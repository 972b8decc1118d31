package dev.clique.mcp.tools;

import dev.clique.client.SessionState;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The argument rules of MCP.md: an argument the tool does not declare is refused by name, {@code
 * id} is a non-blank string, {@code lines} and {@code timeout} are numbers with defaults and caps,
 * {@code until} a non-empty list of the states a wait can end on.
 */
final class Arguments {
  static final int DEFAULT_LINES = 8;
  static final int MAX_LINES = 200;
  static final double MAX_TIMEOUT = 300;

  /** The states {@code wait} may return on, in the order its schema and errors name them. */
  static final List<String> WAITABLE = List.of("idle", "waiting", "error", "stopped");

  private static final String UNTIL_RULE =
      "until must be a non-empty array of states, each one of " + String.join(", ", WAITABLE);

  private final Map<String, Object> values;

  private Arguments(Map<String, Object> values) {
    this.values = values;
  }

  static Arguments check(Map<String, Object> values, Set<String> declared)
      throws ToolArgumentException {
    Map<String, Object> given = values == null ? Map.of() : values;
    for (String name : given.keySet()) {
      if (!declared.contains(name)) {
        throw new ToolArgumentException(
            "unknown argument " + name + ": this tool takes " + describe(declared));
      }
    }
    return new Arguments(given);
  }

  String id() throws ToolArgumentException {
    Object id = values.get("id");
    if (!(id instanceof String text) || text.isBlank()) {
      throw new ToolArgumentException("id must be a non-blank string (a session's id or name)");
    }
    String stripped = text.strip();
    if (stripped.equals(".") || stripped.equals("..")) {
      throw new ToolArgumentException("id must be a session id, not `" + stripped + "`");
    }
    return stripped;
  }

  /** Default 8; above 200 is capped to 200; below 1 is refused; a fraction is truncated. */
  int lines() throws ToolArgumentException {
    Object lines = values.get("lines");
    if (lines == null) {
      return DEFAULT_LINES;
    }
    double value = number(lines, "lines must be a number of lines");
    if (value < 1) {
      throw new ToolArgumentException("lines must be at least 1");
    }
    return (int) Math.min(MAX_LINES, Math.floor(value));
  }

  /** Empty means the engine's default; above 300 is capped; negative is refused. */
  OptionalDouble timeout() throws ToolArgumentException {
    Object timeout = values.get("timeout");
    if (timeout == null) {
      return OptionalDouble.empty();
    }
    double value = number(timeout, "timeout must be a number of seconds");
    if (value < 0) {
      throw new ToolArgumentException("timeout must be 0 or more seconds");
    }
    return OptionalDouble.of(Math.min(MAX_TIMEOUT, value));
  }

  /** Omitted: all of {@link #WAITABLE} (until the session is no longer working). */
  SessionState[] until() throws ToolArgumentException {
    Object until = values.get("until");
    if (until == null) {
      return states(WAITABLE);
    }
    if (!(until instanceof List<?> names) || names.isEmpty()) {
      throw new ToolArgumentException(UNTIL_RULE);
    }
    Set<String> wanted = new LinkedHashSet<>();
    for (Object name : names) {
      if (!(name instanceof String state) || !WAITABLE.contains(state)) {
        throw new ToolArgumentException(UNTIL_RULE + ", not " + shown(name));
      }
      wanted.add(state);
    }
    return states(new ArrayList<>(wanted));
  }

  private static SessionState[] states(List<String> names) {
    return names.stream().map(SessionState::fromWire).toArray(SessionState[]::new);
  }

  /** A refused value as the error names it: strings quoted, and never more than 40 characters. */
  private static String shown(Object value) {
    String text = value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
    return text.length() > 40 ? text.substring(0, 40) + "..." : text;
  }

  private static double number(Object value, String message) throws ToolArgumentException {
    if (!(value instanceof Number number)) {
      throw new ToolArgumentException(message);
    }
    double d = number.doubleValue();
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      throw new ToolArgumentException(message);
    }
    return d;
  }

  private static String describe(Set<String> declared) {
    return declared.isEmpty()
        ? "no arguments"
        : String.join(", ", declared.stream().sorted().toList());
  }
}
