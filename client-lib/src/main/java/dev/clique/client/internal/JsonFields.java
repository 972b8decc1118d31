package dev.clique.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Reads the keys of one JSON object of an engine answer.
 *
 * <p>A key that is missing or {@code null} reads as its empty value, so an engine that leaves out
 * an optional key (an older one, a CLIque panel) still works. A key that is present with the wrong
 * type is a {@link MalformedAnswer}: that is not an engine this client understands. Keys nobody
 * asks for are ignored.
 */
public final class JsonFields {
  private final JsonNode object;
  private final String what;
  private final String name;

  private JsonFields(JsonNode object, String what, String name) {
    this.object = object;
    this.what = what;
    this.name = name;
  }

  /** Reads {@code node}, which must be an object; {@code where} names it in messages. */
  public static JsonFields of(JsonNode node, String where) throws MalformedAnswer {
    return of(node, where, null);
  }

  /**
   * Reads {@code node}, which must be an object, named in messages as {@code what} and {@code name}
   * ({@code session 4f1c...}): the two are joined only for a message, not for every row of a list
   * that is read without one.
   */
  public static JsonFields of(JsonNode node, String what, String name) throws MalformedAnswer {
    if (node == null || !node.isObject()) {
      throw new MalformedAnswer(where(what, name) + " is not a JSON object");
    }
    return new JsonFields(node, what, name);
  }

  private static String where(String what, String name) {
    return name == null ? what : what + " " + name;
  }

  public JsonNode node() {
    return object;
  }

  public String string(String key) throws MalformedAnswer {
    return optionalString(key).orElse("");
  }

  public String requiredString(String key) throws MalformedAnswer {
    return optionalString(key).orElseThrow(() -> missing(key));
  }

  public Optional<String> optionalString(String key) throws MalformedAnswer {
    JsonNode value = present(key);
    if (value == null) {
      return Optional.empty();
    }
    if (!value.isTextual()) {
      throw wrongType(key, "a string");
    }
    return Optional.of(value.textValue());
  }

  public boolean bool(String key) throws MalformedAnswer {
    return optionalBool(key).orElse(false);
  }

  public boolean requiredBool(String key) throws MalformedAnswer {
    return optionalBool(key).orElseThrow(() -> missing(key));
  }

  public Optional<Boolean> optionalBool(String key) throws MalformedAnswer {
    JsonNode value = present(key);
    if (value == null) {
      return Optional.empty();
    }
    if (!value.isBoolean()) {
      throw wrongType(key, "true or false");
    }
    return Optional.of(value.booleanValue());
  }

  public int integer(String key) throws MalformedAnswer {
    OptionalInt value = optionalInt(key);
    return value.isPresent() ? value.getAsInt() : 0;
  }

  public OptionalInt optionalInt(String key) throws MalformedAnswer {
    JsonNode value = present(key);
    if (value == null) {
      return OptionalInt.empty();
    }
    if (!value.isNumber() || !value.canConvertToInt()) {
      throw wrongType(key, "a whole number");
    }
    return OptionalInt.of(value.intValue());
  }

  public long longInteger(String key) throws MalformedAnswer {
    JsonNode value = present(key);
    if (value == null) {
      return 0;
    }
    if (!value.isNumber() || !value.canConvertToLong()) {
      throw wrongType(key, "a whole number");
    }
    return value.longValue();
  }

  public OptionalLong optionalLong(String key) throws MalformedAnswer {
    JsonNode value = present(key);
    if (value == null) {
      return OptionalLong.empty();
    }
    if (!value.isNumber() || !value.canConvertToLong()) {
      throw wrongType(key, "a whole number");
    }
    return OptionalLong.of(value.longValue());
  }

  public OptionalDouble optionalNumber(String key) throws MalformedAnswer {
    JsonNode value = present(key);
    if (value == null) {
      return OptionalDouble.empty();
    }
    if (!value.isNumber()) {
      throw wrongType(key, "a number");
    }
    return OptionalDouble.of(value.doubleValue());
  }

  /** Unix seconds, when the answer has them. */
  public Optional<Instant> optionalInstant(String key) throws MalformedAnswer {
    return present(key) == null ? Optional.empty() : Optional.of(instant(key));
  }

  /** An object the answer may leave out (or send as null): empty then. */
  public Optional<JsonNode> optionalObject(String key) throws MalformedAnswer {
    JsonNode value = present(key);
    if (value == null) {
      return Optional.empty();
    }
    if (!value.isObject()) {
      throw wrongType(key, "an object");
    }
    return Optional.of(value);
  }

  /** Unix seconds; missing reads as the epoch, which is what a stopped pane reports anyway. */
  public Instant instant(String key) throws MalformedAnswer {
    Optional<BigDecimal> seconds = seconds(key);
    if (seconds.isEmpty()) {
      return Instant.EPOCH;
    }
    try {
      return Seconds.instant(seconds.get());
    } catch (ArithmeticException | DateTimeException e) {
      throw new MalformedAnswer(quote(key) + " is not a time" + in(), e);
    }
  }

  public Optional<Duration> optionalDuration(String key) throws MalformedAnswer {
    Optional<BigDecimal> seconds = seconds(key);
    if (seconds.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Seconds.duration(seconds.get()));
    } catch (ArithmeticException | DateTimeException e) {
      throw new MalformedAnswer(quote(key) + " is not a number of seconds" + in(), e);
    }
  }

  /** An array the answer must have, e.g. the {@code sessions} of a state. */
  public JsonNode requiredArray(String key) throws MalformedAnswer {
    JsonNode value = present(key);
    if (value == null) {
      throw missing(key);
    }
    if (!value.isArray()) {
      throw wrongType(key, "an array");
    }
    return value;
  }

  /** An array the answer may leave out; missing reads as empty. */
  public JsonNode array(String key) throws MalformedAnswer {
    JsonNode value = present(key);
    if (value == null) {
      return JsonNodeFactory.instance.arrayNode();
    }
    if (!value.isArray()) {
      throw wrongType(key, "an array");
    }
    return value;
  }

  private Optional<BigDecimal> seconds(String key) throws MalformedAnswer {
    JsonNode value = present(key);
    if (value == null) {
      return Optional.empty();
    }
    if (!value.isNumber()) {
      throw wrongType(key, "a number");
    }
    return Optional.of(value.decimalValue());
  }

  private JsonNode present(String key) {
    JsonNode value = object.get(key);
    return value == null || value.isNull() ? null : value;
  }

  private MalformedAnswer missing(String key) {
    return new MalformedAnswer(quote(key) + " is missing" + in());
  }

  private MalformedAnswer wrongType(String key, String expected) {
    return new MalformedAnswer(quote(key) + " is not " + expected + in());
  }

  private String in() {
    return " in " + where(what, name);
  }

  private static String quote(String key) {
    return '"' + key + '"';
  }
}
