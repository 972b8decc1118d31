package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * GitHub Copilot CLI's usage: a {@code session.usage_record} event per model request, its {@code
 * data.usage} naming the {@code model} and {@code inputTokens}, {@code outputTokens}, {@code
 * cacheReadTokens}, {@code cacheWriteTokens}, {@code reasoningTokens}. Its input counts the cached
 * part as OpenAI's does: the sums follow {@link Usage}'s counting. The context is the last
 * request's whole input; its window ({@code maxPromptTokens}) is recorded too.
 */
final class CopilotUsageReader implements UsageReader {

  static final String SOURCE = "copilot events";

  private static final Fields FIELDS = Fields.of("type", "data.usage");

  private static final RawJson.StringField USAGE_RECORD =
      new RawJson.StringField("type", "session.usage_record");

  @Override
  public String source() {
    return SOURCE;
  }

  @Override
  public Fields fields() {
    return FIELDS;
  }

  @Override
  public boolean mayMatter(byte[] bytes, int start, int end) {
    return USAGE_RECORD.in(bytes, start, end);
  }

  @Override
  public Tally tally() {
    return new CopilotTally();
  }

  private static final class CopilotTally implements Tally {
    private final TokenCount input = new TokenCount();
    private final TokenCount output = new TokenCount();
    private final TokenCount cacheRead = new TokenCount();
    private final TokenCount cacheWrite = new TokenCount();
    private final TokenCount reasoning = new TokenCount();
    private long requests;
    private String model;
    private Long context;
    private Long window;
    private final CostBasis.Tally basis = new CostBasis.Tally(false);

    @Override
    public void add(JsonNode line) {
      JsonNode usage = line.path("data").path("usage");
      if (!"session.usage_record".equals(line.path("type").textValue()) || !usage.isObject()) {
        return;
      }
      requests++;
      model = usage.path("model").isTextual() ? usage.path("model").textValue() : model;
      basis.model(usage.path("model").textValue());
      Long in = TokenCount.of(usage.get("inputTokens"));
      Long read = TokenCount.of(usage.get("cacheReadTokens"));
      Long written = TokenCount.of(usage.get("cacheWriteTokens"));
      if (in != null) {
        input.add(Math.max(0, in - TokenCount.orZero(read) - TokenCount.orZero(written)));
        context = in;
        basis.prompt(in);
      }
      output.add(usage.get("outputTokens"));
      cacheRead.add(usage.get("cacheReadTokens"));
      cacheWrite.add(usage.get("cacheWriteTokens"));
      reasoning.add(usage.get("reasoningTokens"));
      Long max = TokenCount.of(usage.get("maxPromptTokens"));
      window = max == null ? window : max;
    }

    @Override
    public UsageReport report(boolean partial) {
      if (requests == 0) {
        return UsageReport.NONE;
      }
      return new UsageReport(
          new Usage(
              model,
              input.value(),
              output.value(),
              cacheRead.value(),
              cacheWrite.value(),
              reasoning.value(),
              requests,
              context,
              window,
              SOURCE,
              partial),
          null,
          basis.basis(null));
    }
  }
}
