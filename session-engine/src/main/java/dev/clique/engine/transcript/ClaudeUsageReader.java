package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Claude Code's usage: each {@code assistant} record carries its API response's {@code
 * message.usage} ({@code input_tokens}, {@code output_tokens}, {@code cache_read_input_tokens},
 * {@code cache_creation_input_tokens}, {@code output_tokens_details.thinking_tokens}) and {@code
 * message.model}. One response is written as one record per content block, all with its {@code
 * message.id} and its usage: it is counted once, with the usage of its last record. Side chains
 * ({@code isSidechain}: older versions' sub-agents, in the same file) count to the sums, not to the
 * turns, the model or the context; today's sub-agents write files of their own ({@link
 * #subagentFiles}), whose records are side chains too. No record says the context window.
 */
final class ClaudeUsageReader extends UsageReader {

  static final String SOURCE = "claude transcript";

  private static final Counts COUNTS =
      Counts.required("input_tokens", "output_tokens")
          .optional(
              "cache_read_input_tokens",
              "cache_creation_input_tokens",
              "cache_creation.ephemeral_5m_input_tokens",
              "cache_creation.ephemeral_1h_input_tokens",
              "output_tokens_details.thinking_tokens");

  /** Response ids kept to pass over a response written again later; its blocks are adjacent. */
  private static final int REMEMBERED = 256;

  ClaudeUsageReader() {
    super(
        SOURCE,
        Fields.of(
            "type", "isSidechain", "requestId", "message.id", "message.model", "message.usage"),
        new RawJson.StringField("type", "assistant"));
  }

  @Override
  Tally tally() {
    return new ClaudeTally();
  }

  @Override
  SubagentFiles subagentFiles(Path sessionFile) throws IOException {
    return ClaudeSubagents.of(sessionFile);
  }

  /** One API response, as its last record so far tells it. */
  private record Response(String id, JsonNode usage, String model, boolean sidechain) {

    /** Counts this response into {@code sums}. */
    void countInto(UsageSums sums) {
      Long prompt = contextOf(usage);
      if (sidechain) {
        sums.sideAnswer(model, prompt);
      } else {
        sums.answer(model, prompt);
      }
      sums.input(TokenCount.of(usage.get("input_tokens")))
          .output(TokenCount.of(usage.get("output_tokens")))
          .cacheRead(TokenCount.of(usage.get("cache_read_input_tokens")))
          .cacheWrite(TokenCount.of(usage.get("cache_creation_input_tokens")))
          .reasoning(TokenCount.of(usage.path("output_tokens_details").get("thinking_tokens")))
          // the one-hour cache writes, when the record splits its writes by lifetime
          .cacheWriteLong(
              TokenCount.of(usage.path("cache_creation").get("ephemeral_1h_input_tokens")));
    }

    /** The whole input of the request: fresh, read from the cache and written to it. */
    private static Long contextOf(JsonNode usage) {
      return TokenCount.orZero(usage.get("input_tokens"))
          + TokenCount.orZero(usage.get("cache_read_input_tokens"))
          + TokenCount.orZero(usage.get("cache_creation_input_tokens"));
    }
  }

  private static final class ClaudeTally extends SummingTally {

    /** The response being read: more of its blocks may follow, so it is not counted yet. */
    private Response pending;

    private final Set<String> counted = new LinkedHashSet<>();

    ClaudeTally() {
      super(SOURCE, true);
    }

    @Override
    public void add(JsonNode line) {
      if (!"assistant".equals(line.path("type").textValue())) {
        return;
      }
      JsonNode message = line.path("message");
      JsonNode usage = message.get("usage");
      if (usage == null) {
        return;
      }
      String lineModel = message.path("model").textValue();
      if (lineModel != null && lineModel.startsWith("<")) {
        return; // "<synthetic>": a message Claude Code wrote itself, no request behind it
      }
      if (!summable(COUNTS, usage)) {
        return;
      }
      String id = message.path("id").textValue();
      if (id == null) {
        id = line.path("requestId").textValue();
      }
      Response response =
          new Response(id, usage, lineModel, line.path("isSidechain").asBoolean(false));
      if (pending != null && id != null && id.equals(pending.id())) {
        pending = response; // another block of the same response
        return;
      }
      if (id != null && counted.contains(id)) {
        return;
      }
      if (pending != null) {
        count(pending);
      }
      pending = response;
    }

    private void count(Response response) {
      response.countInto(sums);
      if (response.id() != null) {
        counted.add(response.id());
        if (counted.size() > REMEMBERED) {
          counted.remove(counted.iterator().next());
        }
      }
    }

    @Override
    public UsageReport report(boolean partial) {
      if (pending == null) {
        return super.report(partial);
      }
      // The response being read counts as it stands; it stays open for blocks to come.
      UsageSums now = sums.copy();
      pending.countInto(now);
      return report(now, partial);
    }
  }
}
