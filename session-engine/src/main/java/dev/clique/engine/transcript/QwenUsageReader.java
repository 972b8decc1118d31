package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Qwen Code's usage (0.24.4): each {@code assistant} record of its chat carries the {@code
 * usageMetadata} of the request that answered it ({@code promptTokenCount}, which includes {@code
 * cachedContentTokenCount}; {@code candidatesTokenCount}, which leaves {@code thoughtsTokenCount}
 * out), its {@code model} and the model's {@code contextWindowSize}. Each request is one record, so
 * every record counts; the context its last request filled is that request's prompt.
 */
final class QwenUsageReader extends UsageReader {

  static final String SOURCE = "qwen chat";

  private static final Counts COUNTS =
      Counts.required("promptTokenCount", "candidatesTokenCount")
          .optional("cachedContentTokenCount", "thoughtsTokenCount", "totalTokenCount");

  private static final Counts WINDOW = Counts.required().optional("contextWindowSize");

  QwenUsageReader() {
    super(
        SOURCE,
        Fields.of("type", "model", "usageMetadata", "contextWindowSize"),
        new RawJson.StringField("type", "assistant"));
  }

  @Override
  Tally tally() {
    return new QwenTally();
  }

  private static final class QwenTally extends SummingTally {
    QwenTally() {
      super(SOURCE, false);
    }

    @Override
    public void add(JsonNode line) {
      JsonNode usage = line.get("usageMetadata");
      if (!"assistant".equals(line.path("type").textValue()) || usage == null) {
        return;
      }
      if (!summable(COUNTS, usage) || !summable(WINDOW, line)) {
        return;
      }
      long prompt = TokenCount.orZero(usage.get("promptTokenCount"));
      Long cached = TokenCount.of(usage.get("cachedContentTokenCount"));
      Long thoughts = TokenCount.of(usage.get("thoughtsTokenCount"));
      sums.answer(line.path("model").textValue(), prompt)
          .input(Math.max(0, prompt - TokenCount.orZero(cached)))
          .output(
              TokenCount.orZero(usage.get("candidatesTokenCount")) + TokenCount.orZero(thoughts))
          .cacheRead(cached)
          .reasoning(thoughts)
          .window(TokenCount.of(line.get("contextWindowSize")));
    }
  }
}
