package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Gemini CLI's usage: each {@code gemini} message carries {@code tokens} ({@code input}, {@code
 * output}, {@code cached}, {@code thoughts}, {@code tool}, {@code total}) and {@code model}. A
 * message written again (the log is one of upserts, and a {@code $set} of the message list writes
 * every message once more) is counted once, as its last copy says. What a rewind drops was still
 * used, so it still counts. Gemini's {@code input} includes the cached part and its {@code output}
 * leaves the thoughts out: the sums follow {@link Usage}'s counting. No cache writes and no context
 * window are recorded.
 */
final class GeminiUsageReader extends UsageReader {

  static final String SOURCE = "gemini chat";

  private static final Counts COUNTS =
      Counts.required("input", "output").optional("cached", "thoughts", "tool", "total");

  GeminiUsageReader() {
    super(
        SOURCE,
        Fields.of(
            "id",
            "type",
            "model",
            "tokens",
            "$set.messages.id",
            "$set.messages.type",
            "$set.messages.model",
            "$set.messages.tokens",
            "messages.id",
            "messages.type",
            "messages.model",
            "messages.tokens"),
        new RawJson.StringField("type", "gemini"));
  }

  @Override
  Tally tally() {
    return new GeminiTally();
  }

  private static final class GeminiTally extends SummingTally {
    /**
     * Each answer's last copy by message id, in the order the answers came; memory grows with
     * answers, not with bytes.
     */
    private final Map<String, JsonNode> answers = new LinkedHashMap<>();

    /** Its sums hold only the records left out: an answer counts as its last copy says. */
    GeminiTally() {
      super(SOURCE, false);
    }

    /** A message line, a {@code $set} of the message list, or a document's {@code messages}. */
    @Override
    public void add(JsonNode line) {
      if (line.path("id").isTextual()) {
        message(line);
        return;
      }
      for (JsonNode list :
          new JsonNode[] {line.path("$set").path("messages"), line.path("messages")}) {
        for (JsonNode message : list) {
          message(message);
        }
      }
    }

    private void message(JsonNode message) {
      JsonNode id = message.get("id");
      JsonNode tokens = message.get("tokens");
      if (id == null
          || !id.isTextual()
          || !"gemini".equals(message.path("type").textValue())
          || tokens == null) {
        return;
      }
      if (summable(COUNTS, tokens)) { // else an earlier copy that could be summed still counts
        answers.put(id.textValue(), message);
      }
    }

    @Override
    public UsageReport report(boolean partial) {
      UsageSums now = sums.copy();
      for (JsonNode message : answers.values()) {
        JsonNode tokens = message.get("tokens");
        long input = TokenCount.orZero(tokens.get("input"));
        long tool = TokenCount.orZero(tokens.get("tool"));
        Long cached = TokenCount.of(tokens.get("cached"));
        Long thoughts = TokenCount.of(tokens.get("thoughts"));
        // The tool-use prompt is input too: Gemini's total counts it beside the prompt.
        now.answer(message.path("model").textValue(), input + tool)
            .input(Math.max(0, input - TokenCount.orZero(cached)) + tool)
            .output(TokenCount.orZero(tokens.get("output")) + TokenCount.orZero(thoughts))
            .cacheRead(cached)
            .reasoning(thoughts);
      }
      return report(now, partial);
    }
  }
}
