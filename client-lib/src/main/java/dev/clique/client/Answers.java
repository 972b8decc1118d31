package dev.clique.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.client.internal.AnswerParser;
import dev.clique.client.internal.AnswerReader;
import dev.clique.client.internal.JsonFields;
import dev.clique.client.internal.JsonText;
import dev.clique.client.internal.MalformedAnswer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * The engine's answers, one reader per route, as HTTP-API.md describes them: the one maker of the
 * values, whose constructors only this package sees.
 */
final class Answers implements AnswerReader {
  /** What {@link CliqueClient.Builder} gives the client it builds. */
  static final AnswerReader READER = new Answers();

  private static final String ANSWER = "the answer";

  private Answers() {}

  /** {@code reader}'s value of the JSON text {@code json}, for the values' {@code fromJson}. */
  static <T> T fromJson(String json, AnswerParser<T> reader) {
    Objects.requireNonNull(json, "json");
    JsonText answer;
    try {
      answer = JsonText.read(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    }
    if (answer.tree().isMissingNode()) {
      throw new IllegalArgumentException("not JSON: the text is empty");
    }
    try {
      return reader.parse(answer);
    } catch (MalformedAnswer e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** {@code GET /api/state}. */
  @Override
  public EngineState state(JsonText answer) throws MalformedAnswer {
    JsonFields fields = JsonFields.of(answer.tree(), ANSWER);
    List<Session> sessions = new ArrayList<>();
    for (JsonNode row : fields.requiredArray("sessions")) {
      sessions.add(session(row, answer));
    }
    List<Cli> clis = new ArrayList<>();
    for (JsonNode entry : fields.array("clis")) {
      clis.add(cli(entry, answer));
    }
    List<EngineReport> engines = new ArrayList<>();
    for (JsonNode entry : fields.array("engines")) {
      engines.add(engineReport(entry, answer));
    }
    return new EngineState(
        fields.string("version"),
        fields.longInteger("revision"),
        sessions,
        clis,
        engines,
        answer.textOf(answer.tree()));
  }

  /** One row of {@code GET /api/state}, on its own. */
  static Session readSession(JsonText row) throws MalformedAnswer {
    return session(row.tree(), row);
  }

  static EngineReport readEngineReport(JsonText report) throws MalformedAnswer {
    return engineReport(report.tree(), report);
  }

  @Override
  public Session session(JsonText row) throws MalformedAnswer {
    return readSession(row);
  }

  private static EngineReport engineReport(JsonNode entry, JsonText answer) throws MalformedAnswer {
    String name = JsonFields.of(entry, "an engines entry").requiredString("name");
    JsonFields f = JsonFields.of(entry, "engine", name);
    Optional<String> error = f.optionalString("error");
    if (f.requiredBool("ok") == error.isPresent()) {
      throw new MalformedAnswer(
          "engine " + name + " has \"ok\" and \"error\" at odds: an error only when not ok");
    }
    return new EngineReport(name, error, answer.textOf(entry));
  }

  private static Session session(JsonNode row, JsonText answer) throws MalformedAnswer {
    String id = JsonFields.of(row, "a session").requiredString("id");
    if (id.isBlank()) {
      throw new MalformedAnswer("a session has a blank \"id\"");
    }
    JsonFields f = JsonFields.of(row, "session", id);
    Optional<JsonNode> usage = f.optionalObject("usage");
    Optional<JsonNode> limits = f.optionalObject("limits");
    return new Session(
        id,
        f.string("name"),
        f.string("cli"),
        f.string("cli_label"),
        f.optionalString("cli_version"),
        f.string("cwd"),
        f.string("project"),
        f.optionalString("folder"),
        f.optionalString("mode"),
        f.instant("created"),
        f.bool("alive"),
        f.bool("attached"),
        f.optionalString("command"),
        f.instant("activity"),
        f.integer("cols"),
        f.integer("rows"),
        f.bool("busy"),
        f.string("signal"),
        f.string("saying"),
        SessionState.fromWire(f.optionalString("state").orElse(null)),
        f.longInteger("rss"),
        f.string("branch"),
        f.integer("dirty"),
        f.optionalString("engine"),
        usage.isEmpty() ? Optional.empty() : Optional.of(usage(usage.get(), id)),
        limits.isEmpty() ? Optional.empty() : Optional.of(limits(limits.get(), id)),
        f.optionalObject("source").map(source -> source.has("pid")).orElse(false),
        answer.textOf(row));
  }

  /**
   * Only the keys the usage has are looked at: a listing's has two of the fourteen, and a list of
   * many sessions is read at every call of an assistant's {@code list_sessions}.
   */
  private static Usage usage(JsonNode node, String id) throws MalformedAnswer {
    JsonFields u = JsonFields.of(node, "the usage of session", id);
    Optional<String> model = Optional.empty();
    OptionalLong input = OptionalLong.empty();
    OptionalLong output = OptionalLong.empty();
    OptionalLong cacheRead = OptionalLong.empty();
    OptionalLong cacheWrite = OptionalLong.empty();
    OptionalLong reasoning = OptionalLong.empty();
    OptionalLong turns = OptionalLong.empty();
    OptionalLong context = OptionalLong.empty();
    OptionalLong window = OptionalLong.empty();
    String source = "";
    boolean partial = false;
    OptionalDouble cost = OptionalDouble.empty();
    OptionalLong tokens = OptionalLong.empty();
    OptionalLong percent = OptionalLong.empty();
    for (Iterator<String> keys = node.fieldNames(); keys.hasNext(); ) {
      String key = keys.next();
      switch (key) {
        case "model" -> model = u.optionalString(key);
        case "input_tokens" -> input = u.optionalLong(key);
        case "output_tokens" -> output = u.optionalLong(key);
        case "cache_read_tokens" -> cacheRead = u.optionalLong(key);
        case "cache_write_tokens" -> cacheWrite = u.optionalLong(key);
        case "reasoning_tokens" -> reasoning = u.optionalLong(key);
        case "turns" -> turns = u.optionalLong(key);
        case "context_tokens" -> context = u.optionalLong(key);
        case "context_window" -> window = u.optionalLong(key);
        case "source" -> source = u.string(key);
        case "partial" -> partial = u.bool(key);
        case "cost_usd_estimate" -> cost = u.optionalNumber(key);
        case "tokens" -> tokens = u.optionalLong(key);
        case "context_percent" -> percent = u.optionalLong(key);
        default -> {} // what a later engine adds
      }
    }
    return new Usage(
        model,
        input,
        output,
        cacheRead,
        cacheWrite,
        reasoning,
        turns,
        context,
        window,
        source,
        partial,
        cost,
        tokens,
        percent);
  }

  private static Limits limits(JsonNode node, String id) throws MalformedAnswer {
    JsonFields l = JsonFields.of(node, "the limits of session", id);
    List<Limits.Window> windows = new ArrayList<>();
    for (JsonNode entry : l.array("windows")) {
      JsonFields w = JsonFields.of(entry, "a limit window of session", id);
      OptionalDouble used = w.optionalNumber("used_percent");
      windows.add(
          new Limits.Window(
              w.requiredString("name"),
              used.isPresent() ? used.getAsDouble() : 0,
              w.optionalLong("window_minutes"),
              w.optionalInstant("resets_at")));
    }
    return new Limits(windows, l.optionalInstant("as_of"), l.string("source"));
  }

  private static Cli cli(JsonNode entry, JsonText answer) throws MalformedAnswer {
    String id = JsonFields.of(entry, "a clis entry").requiredString("id");
    JsonFields f = JsonFields.of(entry, "clis entry", id);
    return new Cli(
        id, f.string("label"), f.bool("installed"), f.bool("transcript"), answer.textOf(entry));
  }

  /** {@code GET /api/sessions/{id}/peek}. */
  @Override
  public Pane pane(JsonText answer) throws MalformedAnswer {
    JsonFields f = JsonFields.of(answer.tree(), ANSWER);
    List<String> lines = new ArrayList<>();
    for (JsonNode line : f.requiredArray("lines")) {
      if (!line.isTextual()) {
        throw new MalformedAnswer("\"lines\" holds something that is not a string");
      }
      lines.add(line.textValue());
    }
    return new Pane(
        lines,
        f.bool("alive"),
        f.instant("activity"),
        f.optionalBool("screen").orElse(true),
        answer.textOf(answer.tree()));
  }

  /** {@code GET /api/sessions/{id}/wait}; {@code id} stands in when the answer has none. */
  @Override
  public WaitResult waitResult(JsonText answer, String id) throws MalformedAnswer {
    JsonFields f = JsonFields.of(answer.tree(), ANSWER);
    return new WaitResult(
        f.optionalString("id").orElse(id),
        SessionState.fromWire(f.requiredString("state")),
        f.requiredBool("matched"),
        f.optionalDuration("waited").orElse(Duration.ZERO),
        answer.textOf(answer.tree()));
  }

  /** {@code GET /api/sessions/{id}/transcript}. */
  @Override
  public Conversation conversation(JsonText answer) throws MalformedAnswer {
    JsonFields f = JsonFields.of(answer.tree(), ANSWER);
    List<Turn> turns = new ArrayList<>();
    for (JsonNode turn : f.requiredArray("turns")) {
      JsonFields t = JsonFields.of(turn, "a turn");
      turns.add(new Turn(t.requiredString("role"), t.requiredString("text")));
    }
    return new Conversation(f.string("cli"), f.string("name"), turns, answer.textOf(answer.tree()));
  }

  /** {@code GET /healthz}. */
  @Override
  public Health health(JsonText answer) throws MalformedAnswer {
    JsonFields f = JsonFields.of(answer.tree(), ANSWER);
    return new Health(
        f.requiredBool("ok"),
        f.optionalString("version"),
        f.optionalDuration("uptime"),
        f.optionalBool("tmux"),
        f.optionalInt("sessions"),
        f.optionalInt("alive"),
        f.optionalInt("attached"),
        answer.textOf(answer.tree()));
  }
}
