package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Codex's usage: each {@code event_msg} of type {@code token_count} carries the session's totals so
 * far ({@code info.total_token_usage}: {@code input_tokens}, {@code cached_input_tokens}, {@code
 * cache_write_input_tokens}, {@code output_tokens}, {@code reasoning_output_tokens}, {@code
 * total_tokens}), the last request's ({@code info.last_token_usage}), the model's {@code
 * info.model_context_window} and the account's {@code rate_limits}; {@code turn_context} names the
 * model. Codex's {@code input_tokens} include the cached ones, and its {@code output_tokens} the
 * reasoning: the sums take the cached part out of the input, as {@link Usage} counts. The totals
 * are Codex's own, so only the count of answers depends on how much of the file was read.
 */
final class CodexUsageReader extends UsageReader {

  static final String SOURCE = "codex rollout";

  /** The counts of a {@code total_token_usage}. */
  private static final Counts TOTAL =
      Counts.required("input_tokens", "output_tokens")
          .optional(
              "cached_input_tokens",
              "cache_write_input_tokens",
              "reasoning_output_tokens",
              "total_tokens");

  /** The counts of a {@code last_token_usage}: only its input is read (the context). */
  private static final Counts LAST =
      Counts.required("input_tokens")
          .optional(
              "output_tokens",
              "cached_input_tokens",
              "cache_write_input_tokens",
              "reasoning_output_tokens",
              "total_tokens");

  private static final Counts WINDOW = Counts.required().optional("model_context_window");

  CodexUsageReader() {
    super(
        SOURCE,
        Fields.of(
            "timestamp",
            "type",
            "payload.type",
            "payload.model",
            "payload.info",
            "payload.rate_limits"),
        new RawJson.StringField("type", "token_count"),
        new RawJson.StringField("type", "turn_context"));
  }

  @Override
  Tally tally() {
    return new CodexTally();
  }

  private static final class CodexTally implements Tally {
    private JsonNode totals;
    private Long lastTotal;
    private long turns;
    private Long context;
    private Long window;
    private String model;
    private Limits limits;
    private final CostBasis.Tally basis = new CostBasis.Tally(false);
    private RecordsLeftOut leftOut = RecordsLeftOut.NONE;

    @Override
    public void add(JsonNode line) {
      String type = line.path("type").textValue();
      JsonNode payload = line.path("payload");
      if ("turn_context".equals(type)) {
        String named = payload.path("model").textValue();
        model = named == null ? model : named;
        basis.model(named);
        return;
      }
      if (!"event_msg".equals(type) || !"token_count".equals(payload.path("type").textValue())) {
        return;
      }
      JsonNode info = payload.path("info");
      JsonNode total = info.get("total_token_usage");
      JsonNode last = info.get("last_token_usage");
      RecordsLeftOut.Why fault = fault(info, total, last);
      if (fault != null) {
        leftOut(fault); // the whole event: its totals, its last request and its limits
        return;
      }
      if (total != null && total.isObject()) {
        // Codex repeats the event when only the limits changed: an answer is a total that moved.
        Long sum = TokenCount.of(total.get("total_tokens"));
        if (sum == null || !sum.equals(lastTotal)) {
          turns++;
        }
        totals = total;
        lastTotal = sum;
      }
      if (last != null && last.isObject()) {
        context = TokenCount.of(last.get("input_tokens"));
        basis.prompt(context);
      }
      Long size = TokenCount.of(info.get("model_context_window"));
      window = size == null ? window : size;
      Limits told = limits(payload.get("rate_limits"), line.path("timestamp").textValue());
      limits = told == null ? limits : told;
    }

    /** What is wrong with the counts of an event's {@code info}, or {@code null}. */
    private static RecordsLeftOut.Why fault(JsonNode info, JsonNode total, JsonNode last) {
      RecordsLeftOut.Why fault = total == null || total.isNull() ? null : TOTAL.fault(total);
      if (fault == null && last != null && !last.isNull()) {
        fault = LAST.fault(last);
      }
      return fault == null && info.isObject() ? WINDOW.fault(info) : fault;
    }

    @Override
    public void leftOut(RecordsLeftOut.Why why) {
      leftOut = leftOut.plus(why);
    }

    /**
     * The windows of a {@code rate_limits} object ({@code primary}, {@code secondary}, each with
     * {@code used_percent}, {@code window_minutes} and {@code resets_at} in unix seconds, or,
     * before Codex wrote that, {@code resets_in_seconds} from the line's time); null when it has
     * none.
     */
    private static Limits limits(JsonNode rateLimits, String timestamp) {
      if (rateLimits == null || !rateLimits.isObject()) {
        return null;
      }
      Double asOf = seconds(timestamp);
      List<Limits.Window> windows = new ArrayList<>();
      for (Map.Entry<String, JsonNode> entry : rateLimits.properties()) {
        JsonNode window = entry.getValue();
        JsonNode used = window.get("used_percent");
        if (!window.isObject() || used == null || !used.isNumber()) {
          continue; // a window Codex was not told of (null), or not a window (credits, plan)
        }
        Long resetsAt = TokenCount.of(window.get("resets_at"));
        Long resetsIn = TokenCount.of(window.get("resets_in_seconds"));
        if (resetsAt == null && resetsIn != null && asOf != null) {
          resetsAt = Math.round(asOf) + resetsIn;
        }
        windows.add(
            new Limits.Window(
                entry.getKey(),
                used.asDouble(),
                TokenCount.of(window.get("window_minutes")),
                resetsAt));
      }
      return windows.isEmpty() ? null : new Limits(windows, asOf, SOURCE);
    }

    private static Double seconds(String timestamp) {
      if (timestamp == null) {
        return null;
      }
      try {
        return Instant.parse(timestamp).toEpochMilli() / 1000.0;
      } catch (DateTimeParseException e) {
        return null;
      }
    }

    @Override
    public UsageReport report(boolean partial) {
      if (totals == null && leftOut.none()) {
        return limits == null ? UsageReport.NONE : new UsageReport(null, limits);
      }
      JsonNode sums = totals == null ? MissingNode.getInstance() : totals;
      Long input = TokenCount.of(sums.get("input_tokens"));
      Long cached = TokenCount.of(sums.get("cached_input_tokens"));
      Long written = TokenCount.of(sums.get("cache_write_input_tokens"));
      Usage usage =
          new Usage(
              model,
              input == null
                  ? null
                  : Math.max(0, input - TokenCount.orZero(cached) - TokenCount.orZero(written)),
              TokenCount.of(sums.get("output_tokens")),
              cached,
              written,
              TokenCount.of(sums.get("reasoning_output_tokens")),
              turns,
              context,
              window,
              leftOut.describe(SOURCE),
              partial);
      return new UsageReport(usage, limits, basis.basis(null), leftOut);
    }
  }
}
