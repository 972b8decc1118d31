package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The running usage of one opencode session: its assistant messages in order, each the {@code data}
 * of a row of opencode's {@code message} table, which names the model ({@code modelID}) and what
 * its request used ({@code tokens}: {@code input} without the cache's share, {@code cache.read} and
 * {@code cache.write}, {@code output} without the reasoning, {@code reasoning}: opencode 1.18
 * writes each part apart). A request that failed records only zeros and is no answer.
 */
final class OpencodeUsage implements UsageReader.Tally {
  static final String SOURCE = "opencode database";

  private final TokenCount input = new TokenCount();
  private final TokenCount output = new TokenCount();
  private final TokenCount reasoning = new TokenCount();
  private final TokenCount cacheRead = new TokenCount();
  private final TokenCount cacheWrite = new TokenCount();
  private final CostBasis.Tally basis = new CostBasis.Tally(true);
  private long answers;
  private String model;
  private Long context;

  @Override
  public void add(JsonNode message) {
    JsonNode tokens = message.get("tokens");
    if (!"assistant".equals(message.path("role").textValue())
        || tokens == null
        || !tokens.isObject()) {
      return;
    }
    JsonNode cache = tokens.path("cache");
    long prompt =
        TokenCount.orZero(tokens.get("input"))
            + TokenCount.orZero(cache.get("read"))
            + TokenCount.orZero(cache.get("write"));
    if (prompt
            + TokenCount.orZero(tokens.get("output"))
            + TokenCount.orZero(tokens.get("reasoning"))
        == 0) {
      return; // a request that failed: nothing was sent back, nothing counted
    }
    answers++;
    String named = message.path("modelID").textValue();
    model = named == null ? model : named;
    basis.model(named);
    input.add(tokens.get("input"));
    output.add(tokens.get("output")); // everything generated: the reasoning is output too
    output.add(tokens.get("reasoning"));
    reasoning.add(tokens.get("reasoning"));
    cacheRead.add(cache.get("read"));
    cacheWrite.add(cache.get("write"));
    if (prompt > 0) {
      context = prompt;
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
            reasoning.value(),
            answers,
            context,
            null,
            SOURCE,
            partial),
        null,
        basis.basis(null));
  }
}
