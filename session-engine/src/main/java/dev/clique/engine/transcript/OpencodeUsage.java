package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The running usage of one opencode session: its assistant messages in order, each the {@code data}
 * of a row of opencode's {@code message} table, which names the model ({@code modelID}) and what
 * its request used ({@code tokens}: {@code input} without the cache's share, {@code cache.read} and
 * {@code cache.write}, {@code output} without the reasoning, {@code reasoning}: opencode 1.18
 * writes each part apart). A request that failed records only zeros and is no answer.
 */
final class OpencodeUsage extends SummingTally {
  static final String SOURCE = "opencode database";

  private static final Counts COUNTS =
      Counts.required("input", "output").optional("reasoning", "cache.read", "cache.write");

  OpencodeUsage() {
    super(SOURCE, true);
  }

  @Override
  public void add(JsonNode message) {
    JsonNode tokens = message.get("tokens");
    if (!"assistant".equals(message.path("role").textValue()) || tokens == null) {
      return;
    }
    if (!summable(COUNTS, tokens)) {
      return;
    }
    JsonNode cache = tokens.path("cache");
    long prompt =
        TokenCount.orZero(tokens.get("input"))
            + TokenCount.orZero(cache.get("read"))
            + TokenCount.orZero(cache.get("write"));
    long output = TokenCount.orZero(tokens.get("output"));
    Long reasoning = TokenCount.of(tokens.get("reasoning"));
    if (prompt + output + TokenCount.orZero(reasoning) == 0) {
      return; // a request that failed: nothing was sent back, nothing counted
    }
    sums.answer(message.path("modelID").textValue(), prompt > 0 ? prompt : null)
        .input(TokenCount.of(tokens.get("input")))
        .output(output + TokenCount.orZero(reasoning)) // everything generated: reasoning too
        .reasoning(reasoning)
        .cacheRead(TokenCount.of(cache.get("read")))
        .cacheWrite(TokenCount.of(cache.get("write")));
  }
}
