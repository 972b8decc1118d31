package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * GitHub Copilot CLI's usage: a {@code session.usage_record} event per model request, its {@code
 * data.usage} naming the {@code model} and {@code inputTokens}, {@code outputTokens}, {@code
 * cacheReadTokens}, {@code cacheWriteTokens}, {@code reasoningTokens}. Its input counts the cached
 * part as OpenAI's does: the sums follow {@link Usage}'s counting. The context is the last
 * request's whole input; its window ({@code maxPromptTokens}) is recorded too.
 */
final class CopilotUsageReader extends UsageReader {

  static final String SOURCE = "copilot events";

  private static final Counts COUNTS =
      Counts.required("inputTokens", "outputTokens")
          .optional("cacheReadTokens", "cacheWriteTokens", "reasoningTokens", "maxPromptTokens");

  CopilotUsageReader() {
    super(
        SOURCE,
        Fields.of("type", "data.usage"),
        new RawJson.StringField("type", "session.usage_record"));
  }

  @Override
  Tally tally() {
    return new CopilotTally();
  }

  private static final class CopilotTally extends SummingTally {
    CopilotTally() {
      super(SOURCE, false);
    }

    @Override
    public void add(JsonNode line) {
      JsonNode usage = line.path("data").get("usage");
      if (!"session.usage_record".equals(line.path("type").textValue()) || usage == null) {
        return;
      }
      if (!summable(COUNTS, usage)) {
        return;
      }
      long input = TokenCount.orZero(usage.get("inputTokens"));
      Long read = TokenCount.of(usage.get("cacheReadTokens"));
      Long written = TokenCount.of(usage.get("cacheWriteTokens"));
      sums.answer(usage.path("model").textValue(), input)
          .input(Math.max(0, input - TokenCount.orZero(read) - TokenCount.orZero(written)))
          .output(TokenCount.of(usage.get("outputTokens")))
          .cacheRead(read)
          .cacheWrite(written)
          .reasoning(TokenCount.of(usage.get("reasoningTokens")))
          .window(TokenCount.of(usage.get("maxPromptTokens")));
    }
  }
}
