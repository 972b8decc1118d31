package dev.clique.engine.catalogue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The models' list prices: the bundled {@code prices.toml}, with {@code $CLIQUE_HOME/prices.toml}
 * laid over it row by row (a row of the same name replaces the bundled one, a new name adds one). A
 * model is found by its exact name, else by the first row whose {@code match} pattern the whole
 * name matches (the user's rows first); a model no row names has no price.
 *
 * <p>A user file with any error stops nothing: each error is logged once, with the file and the
 * line, and the table then prices nothing, the bundled rows included, until the file is fixed (its
 * author meant other prices, so the bundled ones are no better a guess).
 */
public final class PriceTable {
  private static final Logger log = LoggerFactory.getLogger(PriceTable.class);
  private static final String BUNDLED = "prices.toml";

  /** Names looked up are remembered, up to this many, so a listing matches no pattern twice. */
  static final int REMEMBERED_NAMES = 256;

  private static final Set<String> KEYS =
      Set.of(
          "match", "input", "output", "cache_read", "cache_write", "cache_write_1h", "flat_up_to");

  /** A table that prices nothing. */
  public static final PriceTable NONE = new PriceTable(Map.of(), List.of(), List.of());

  private final Map<String, Row> byName;
  private final List<Row> byPattern;
  private final List<String> problems;
  private final Map<String, Optional<ModelPrice>> found = new ConcurrentHashMap<>();

  private PriceTable(Map<String, Row> byName, List<Row> byPattern, List<String> problems) {
    this.byName = byName;
    this.byPattern = byPattern;
    this.problems = problems;
  }

  /** The bundled table alone. */
  public static PriceTable bundled() {
    return of(Bundled.ROWS, List.of());
  }

  /**
   * The bundled table with {@code override} (if it exists) laid over it; a broken override is
   * logged here, once, and leaves a table that prices nothing.
   */
  public static PriceTable load(Path override) {
    return load(override, log::warn);
  }

  /** As {@link #load(Path)}, each problem said to {@code warn}. */
  static PriceTable load(Path override, Consumer<String> warn) {
    if (override == null || !Files.isRegularFile(override)) {
      return bundled();
    }
    List<String> problems = new ArrayList<>();
    List<Row> user = List.of();
    try {
      user = rows(TomlFile.parse(override.toString(), Files.readString(override)), problems);
    } catch (IOException | RuntimeException e) {
      problems.add(e.getMessage());
    }
    if (!problems.isEmpty()) {
      List<String> said = new ArrayList<>();
      for (String problem : problems) {
        said.add(
            "ignoring the prices in "
                + problem
                + "; no cost estimates are given until "
                + override
                + " is fixed");
      }
      said.forEach(warn);
      return new PriceTable(Map.of(), List.of(), List.copyOf(said));
    }
    List<Row> merged = new ArrayList<>(user);
    Set<String> replaced = new HashSet<>();
    user.forEach(row -> replaced.add(row.price().name()));
    Bundled.ROWS.stream()
        .filter(row -> !replaced.contains(row.price().name()))
        .forEach(merged::add);
    return of(merged, List.of());
  }

  private static PriceTable of(List<Row> rows, List<String> problems) {
    Map<String, Row> byName = new LinkedHashMap<>();
    List<Row> byPattern = new ArrayList<>();
    for (Row row : rows) {
      byName.putIfAbsent(row.price().name(), row);
      if (row.match() != null) {
        byPattern.add(row);
      }
    }
    return new PriceTable(Map.copyOf(byName), List.copyOf(byPattern), problems);
  }

  /**
   * The prices of {@code model}, by its exact name or the first pattern that matches it whole.
   *
   * @return empty for a model no row names, and for every model when the user's file is broken
   */
  public Optional<ModelPrice> find(String model) {
    if (model == null || model.isEmpty()) {
      return Optional.empty();
    }
    Optional<ModelPrice> known = found.get(model);
    if (known != null) {
      return known;
    }
    Optional<ModelPrice> price = lookUp(model);
    if (found.size() >= REMEMBERED_NAMES) {
      found.clear(); // names are a handful; only a stream of odd ones gets here
    }
    found.put(model, price);
    return price;
  }

  private Optional<ModelPrice> lookUp(String model) {
    Row exact = byName.get(model);
    if (exact != null) {
      return Optional.of(exact.price());
    }
    return byPattern.stream()
        .filter(row -> row.match().matcher(model).matches())
        .map(Row::price)
        .findFirst();
  }

  /** What was refused while loading, one sentence each (also in the log). */
  List<String> problems() {
    return problems;
  }

  /** A row and the pattern that finds it, if it has one. */
  private record Row(ModelPrice price, Pattern match) {}

  /** The rows of {@code file}, in its order; each error it has is added to {@code problems}. */
  private static List<Row> rows(TomlFile file, List<String> problems) {
    List<Row> rows = new ArrayList<>();
    for (Map.Entry<String, JsonNode> top : file.tree().properties()) {
      if (!top.getKey().equals("model")) {
        problems.add(file.where(top.getKey()) + ": unknown key " + top.getKey());
      }
    }
    JsonNode models = file.tree().path("model");
    if (models.isMissingNode()) {
      return rows;
    }
    if (!models.isObject()) {
      problems.add(file.where("model") + ": model is not a table of rows");
      return rows;
    }
    for (Map.Entry<String, JsonNode> entry : models.properties()) {
      Row row = row(file, entry.getKey(), entry.getValue(), problems);
      if (row != null) {
        rows.add(row);
      }
    }
    return rows;
  }

  private static Row row(TomlFile file, String name, JsonNode node, List<String> problems) {
    String at = "model." + name;
    if (!node.isObject()) {
      problems.add(file.where(at) + ": " + at + " is not a table");
      return null;
    }
    int before = problems.size();
    for (Map.Entry<String, JsonNode> field : node.properties()) {
      if (!KEYS.contains(field.getKey())) {
        problems.add(
            file.where(at + "." + field.getKey())
                + ": "
                + at
                + " has an unknown key "
                + field.getKey());
      }
    }
    Pattern match = null;
    JsonNode pattern = node.get("match");
    if (pattern != null) {
      try {
        if (!pattern.isTextual()) {
          throw new PatternSyntaxException("not a string", pattern.toString(), -1);
        }
        match = Pattern.compile(pattern.textValue());
      } catch (PatternSyntaxException e) {
        problems.add(
            file.where(at + ".match")
                + ": "
                + at
                + ".match is a bad pattern: "
                + e.getDescription());
      }
    }
    BigDecimal input = price(file, at, node, "input", true, problems);
    BigDecimal output = price(file, at, node, "output", true, problems);
    BigDecimal cacheRead = price(file, at, node, "cache_read", false, problems);
    BigDecimal cacheWrite = price(file, at, node, "cache_write", false, problems);
    BigDecimal cacheWriteLong = price(file, at, node, "cache_write_1h", false, problems);
    Long flatUpTo = null;
    JsonNode limit = node.get("flat_up_to");
    if (limit != null) {
      if (limit.isIntegralNumber() && limit.canConvertToLong() && limit.longValue() > 0) {
        flatUpTo = limit.longValue();
      } else {
        problems.add(
            file.where(at + ".flat_up_to")
                + ": "
                + at
                + ".flat_up_to is not a whole number of tokens above 0");
      }
    }
    if (problems.size() > before) {
      return null;
    }
    return new Row(
        new ModelPrice(name, input, output, cacheRead, cacheWrite, cacheWriteLong, flatUpTo),
        match);
  }

  private static BigDecimal price(
      TomlFile file, String at, JsonNode row, String key, boolean required, List<String> problems) {
    JsonNode value = row.get(key);
    if (value == null) {
      if (required) {
        problems.add(file.where(at) + ": " + at + " has no " + key + " price");
      }
      return null;
    }
    // TOML allows inf and nan; a price is a finite amount of dollars
    if (!value.isNumber()
        || (value.isFloatingPointNumber() && !Double.isFinite(value.doubleValue()))
        || value.decimalValue().signum() < 0) {
      problems.add(
          file.where(at + "." + key)
              + ": "
              + at
              + "."
              + key
              + " is not a price (a number of dollars, 0 or more)");
      return null;
    }
    return value.decimalValue();
  }

  /** The bundled file, read once: every table starts from it. */
  private static final class Bundled {
    static final List<Row> ROWS = read();

    private static List<Row> read() {
      try (InputStream in = PriceTable.class.getResourceAsStream(BUNDLED)) {
        if (in == null) {
          throw new IllegalStateException("the bundled prices.toml is missing from the jar");
        }
        List<String> problems = new ArrayList<>();
        List<Row> rows =
            rows(
                TomlFile.parse(
                    "the bundled prices.toml",
                    new String(in.readAllBytes(), StandardCharsets.UTF_8)),
                problems);
        if (!problems.isEmpty()) {
          throw new IllegalStateException(String.join("; ", problems));
        }
        return List.copyOf(rows);
      } catch (IOException e) {
        throw new IllegalStateException(
            "the bundled prices.toml cannot be read: " + e.getMessage(), e);
      }
    }
  }
}
