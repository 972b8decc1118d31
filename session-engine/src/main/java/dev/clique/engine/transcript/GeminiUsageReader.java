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
final class GeminiUsageReader implements UsageReader {

  static final String SOURCE = "gemini chat";

  private static final Fields FIELDS =
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
          "messages.tokens");

  private static final RawJson.StringField GEMINI = new RawJson.StringField("type", "gemini");

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
    return GEMINI.in(bytes, start, end);
  }

  @Override
  public Tally tally() {
    return new GeminiTally();
  }

  private static final class GeminiTally implements Tally {
    /** The tokens of each answer by message id; memory grows with answers, not with bytes. */
    private final Map<String, JsonNode> tokensById = new LinkedHashMap<>();

    private String model;
    private Long context;
    private final CostBasis.Tally basis = new CostBasis.Tally(false);

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
          || tokens == null
          || !tokens.isObject()) {
        return;
      }
      tokensById.put(id.textValue(), tokens);
      String named = message.path("model").textValue();
      model = named == null ? model : named;
      basis.model(named);
      Long input = TokenCount.of(tokens.get("input"));
      Long tool = TokenCount.of(tokens.get("tool"));
      context = input == null ? context : input + (tool == null ? 0 : tool);
      basis.prompt(input == null ? null : context);
    }

    @Override
    public UsageReport report(boolean partial) {
      if (tokensById.isEmpty()) {
        return UsageReport.NONE;
      }
      TokenCount input = new TokenCount();
      TokenCount output = new TokenCount();
      TokenCount cached = new TokenCount();
      TokenCount thoughts = new TokenCount();
      for (JsonNode tokens : tokensById.values()) {
        Long in = TokenCount.of(tokens.get("input"));
        Long cachedHere = TokenCount.of(tokens.get("cached"));
        Long tool = TokenCount.of(tokens.get("tool"));
        Long out = TokenCount.of(tokens.get("output"));
        Long thought = TokenCount.of(tokens.get("thoughts"));
        if (in != null) {
          // The tool-use prompt is input too: Gemini's total counts it beside the prompt.
          input.add(Math.max(0, in - TokenCount.orZero(cachedHere)) + TokenCount.orZero(tool));
        }
        if (out != null || thought != null) {
          output.add(TokenCount.orZero(out) + TokenCount.orZero(thought));
        }
        cached.add(tokens.get("cached"));
        thoughts.add(tokens.get("thoughts"));
      }
      return new UsageReport(
          new Usage(
              model,
              input.value(),
              output.value(),
              cached.value(),
              null,
              thoughts.value(),
              (long) tokensById.size(),
              context,
              null,
              SOURCE,
              partial),
          null,
          basis.basis(null));
    }
  }
}
