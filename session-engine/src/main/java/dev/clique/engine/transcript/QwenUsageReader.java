package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Qwen Code's usage (0.24.4): each {@code assistant} record of its chat carries the {@code
 * usageMetadata} of the request that answered it ({@code promptTokenCount}, which includes {@code
 * cachedContentTokenCount}; {@code candidatesTokenCount}, which leaves {@code thoughtsTokenCount}
 * out), its {@code model} and the model's {@code contextWindowSize}. Each request is one record, so
 * every record counts; the context its last request filled is that request's prompt.
 */
final class QwenUsageReader implements UsageReader {

  static final String SOURCE = "qwen chat";

  private static final Fields FIELDS =
      Fields.of("type", "model", "usageMetadata", "contextWindowSize");

  private static final RawJson.StringField ASSISTANT = new RawJson.StringField("type", "assistant");

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
    return ASSISTANT.in(bytes, start, end);
  }

  @Override
  public Tally tally() {
    return new QwenTally();
  }

  private static final class QwenTally implements Tally {
    private final TokenCount input = new TokenCount();
    private final TokenCount output = new TokenCount();
    private final TokenCount cached = new TokenCount();
    private final TokenCount thoughts = new TokenCount();
    private long requests;
    private String model;
    private Long context;
    private Long window;
    private final CostBasis.Tally basis = new CostBasis.Tally(false);

    @Override
    public void add(JsonNode line) {
      JsonNode usage = line.get("usageMetadata");
      if (!"assistant".equals(line.path("type").textValue())
          || usage == null
          || !usage.isObject()) {
        return;
      }
      requests++;
      String named = line.path("model").textValue();
      model = named == null ? model : named;
      basis.model(named);
      Long prompt = TokenCount.of(usage.get("promptTokenCount"));
      Long cachedHere = TokenCount.of(usage.get("cachedContentTokenCount"));
      Long out = TokenCount.of(usage.get("candidatesTokenCount"));
      Long thought = TokenCount.of(usage.get("thoughtsTokenCount"));
      if (prompt != null) {
        input.add(Math.max(0, prompt - (cachedHere == null ? 0 : cachedHere)));
        context = prompt;
        basis.prompt(prompt);
      }
      if (out != null || thought != null) {
        output.add((out == null ? 0 : out) + (thought == null ? 0 : thought));
      }
      cached.add(usage.get("cachedContentTokenCount"));
      thoughts.add(usage.get("thoughtsTokenCount"));
      Long size = TokenCount.of(line.get("contextWindowSize"));
      window = size == null ? window : size;
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
              cached.value(),
              null,
              thoughts.value(),
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
