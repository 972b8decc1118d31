package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * pi's usage: each assistant {@code message} entry carries {@code usage} ({@code input}, {@code
 * output}, {@code cacheRead}, {@code cacheWrite}, {@code totalTokens}) and {@code model}, its
 * {@code input} already without the cached part. Each entry is one request, written once; a failed
 * one ({@code stopReason} {@code error}) records zeros and is no answer. Entries of a branch left
 * with {@code /tree} were still used, so they count.
 */
final class PiUsageReader implements UsageReader {

  static final String SOURCE = "pi session";

  private static final Fields FIELDS =
      Fields.of("type", "message.role", "message.model", "message.usage", "message.stopReason");

  private static final RawJson.StringField ASSISTANT = new RawJson.StringField("role", "assistant");

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
    return new PiTally();
  }

  private static final class PiTally implements Tally {
    private final TokenCount input = new TokenCount();
    private final TokenCount output = new TokenCount();
    private final TokenCount cacheRead = new TokenCount();
    private final TokenCount cacheWrite = new TokenCount();
    private long answers;
    private String model;
    private Long context;
    private final CostBasis.Tally basis = new CostBasis.Tally(true);

    @Override
    public void add(JsonNode line) {
      JsonNode message = line.path("message");
      JsonNode usage = message.get("usage");
      if (!"message".equals(line.path("type").textValue())
          || !"assistant".equals(message.path("role").textValue())
          || usage == null
          || !usage.isObject()
          || "error".equals(message.path("stopReason").textValue())) {
        return;
      }
      answers++;
      String named = message.path("model").textValue();
      model = named == null ? model : named;
      basis.model(named);
      input.add(usage.get("input"));
      output.add(usage.get("output"));
      cacheRead.add(usage.get("cacheRead"));
      cacheWrite.add(usage.get("cacheWrite"));
      Long in = TokenCount.of(usage.get("input"));
      if (in != null
          && in
                  + TokenCount.orZero(usage.get("cacheRead"))
                  + TokenCount.orZero(usage.get("cacheWrite"))
              > 0) {
        context =
            in
                + TokenCount.orZero(usage.get("cacheRead"))
                + TokenCount.orZero(usage.get("cacheWrite"));
        basis.prompt(context);
      }
    }

    @Override
    public UsageReport report(boolean partial) {
      if (answers == 0) {
        return UsageReport.NONE;
      }
      return new UsageReport(
          new Usage(
              model,
              input.value(),
              output.value(),
              cacheRead.value(),
              cacheWrite.value(),
              null,
              answers,
              context,
              null,
              SOURCE,
              partial),
          null,
          basis.basis(null));
    }
  }
}
