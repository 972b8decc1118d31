package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * pi's usage: each assistant {@code message} entry carries {@code usage} ({@code input}, {@code
 * output}, {@code cacheRead}, {@code cacheWrite}, {@code totalTokens}) and {@code model}, its
 * {@code input} already without the cached part. Each entry is one request, written once; a failed
 * one ({@code stopReason} {@code error}) records zeros and is no answer. Entries of a branch left
 * with {@code /tree} were still used, so they count.
 */
final class PiUsageReader extends UsageReader {

  static final String SOURCE = "pi session";

  private static final Counts COUNTS =
      Counts.required("input", "output")
          .optional("cacheRead", "cacheWrite", "cacheWrite1h", "totalTokens");

  PiUsageReader() {
    super(
        SOURCE,
        Fields.of("type", "message.role", "message.model", "message.usage", "message.stopReason"),
        new RawJson.StringField("role", "assistant"));
  }

  @Override
  Tally tally() {
    return new PiTally();
  }

  private static final class PiTally extends SummingTally {
    PiTally() {
      super(SOURCE, true);
    }

    @Override
    public void add(JsonNode line) {
      JsonNode message = line.path("message");
      JsonNode usage = message.get("usage");
      if (!"message".equals(line.path("type").textValue())
          || !"assistant".equals(message.path("role").textValue())
          || usage == null
          || "error".equals(message.path("stopReason").textValue())) {
        return;
      }
      if (!summable(COUNTS, usage)) {
        return;
      }
      Long read = TokenCount.of(usage.get("cacheRead"));
      Long written = TokenCount.of(usage.get("cacheWrite"));
      long prompt =
          TokenCount.orZero(usage.get("input"))
              + TokenCount.orZero(read)
              + TokenCount.orZero(written);
      sums.answer(message.path("model").textValue(), prompt > 0 ? prompt : null)
          .input(TokenCount.of(usage.get("input")))
          .output(TokenCount.of(usage.get("output")))
          .cacheRead(read)
          .cacheWrite(written);
    }
  }
}
