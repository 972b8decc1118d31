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
final class ClaudeUsageReader implements UsageReader {

  static final String SOURCE = "claude transcript";

  private static final Fields FIELDS =
      Fields.of("type", "isSidechain", "requestId", "message.id", "message.model", "message.usage");

  private static final RawJson.StringField ASSISTANT = new RawJson.StringField("type", "assistant");

  /** Response ids kept to pass over a response written again later; its blocks are adjacent. */
  private static final int REMEMBERED = 256;

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
    return new ClaudeTally();
  }

  @Override
  public SubagentFiles subagentFiles(Path sessionFile) throws IOException {
    return ClaudeSubagents.of(sessionFile);
  }

  /** One API response, as its last record so far tells it. */
  private record Response(String id, JsonNode usage, String model, boolean sidechain) {}

  private static final class ClaudeTally implements Tally {
    private final TokenCount input = new TokenCount();
    private final TokenCount output = new TokenCount();
    private final TokenCount cacheRead = new TokenCount();
    private final TokenCount cacheWrite = new TokenCount();
    private final TokenCount reasoning = new TokenCount();
    private final TokenCount longWrites = new TokenCount();
    private final CostBasis.Tally basis = new CostBasis.Tally(true);
    private long turns;
    private long responses;
    private String model;

    /** The model of the last side-chain answer: the model of a file that holds no other. */
    private String sideModel;

    private Long context;

    /** The response being read: more of its blocks may follow, so it is not counted yet. */
    private Response pending;

    private final Set<String> counted = new LinkedHashSet<>();

    @Override
    public void add(JsonNode line) {
      if (!"assistant".equals(line.path("type").textValue())) {
        return;
      }
      JsonNode message = line.path("message");
      JsonNode usage = message.get("usage");
      if (usage == null || !usage.isObject()) {
        return;
      }
      String lineModel = message.path("model").textValue();
      if (lineModel != null && lineModel.startsWith("<")) {
        return; // "<synthetic>": a message Claude Code wrote itself, no request behind it
      }
      String id = message.path("id").textValue();
      if (id == null) {
        id = line.path("requestId").textValue();
      }
      Response response =
          new Response(id, usage, lineModel, line.path("isSidechain").asBoolean(false));
      basis.model(lineModel);
      basis.prompt(contextOf(usage));
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
      JsonNode usage = response.usage();
      input.add(usage.get("input_tokens"));
      output.add(usage.get("output_tokens"));
      cacheRead.add(usage.get("cache_read_input_tokens"));
      cacheWrite.add(usage.get("cache_creation_input_tokens"));
      reasoning.add(usage.path("output_tokens_details").get("thinking_tokens"));
      longWrites.add(longWrites(usage));
      responses++;
      if (!response.sidechain()) {
        turns++;
        model = response.model() == null ? model : response.model();
        context = contextOf(usage);
      } else if (response.model() != null) {
        sideModel = response.model();
      }
      if (response.id() != null) {
        counted.add(response.id());
        if (counted.size() > REMEMBERED) {
          counted.remove(counted.iterator().next());
        }
      }
    }

    /** The one-hour cache writes of a response, when its record splits its writes by lifetime. */
    private static JsonNode longWrites(JsonNode usage) {
      return usage.path("cache_creation").get("ephemeral_1h_input_tokens");
    }

    /** The whole input of one request: fresh, read from the cache and written to it. */
    private static Long contextOf(JsonNode usage) {
      Long sum = null;
      for (String field :
          new String[] {"input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"}) {
        sum = plus(sum, TokenCount.of(usage.get(field)));
      }
      return sum;
    }

    @Override
    public UsageReport report(boolean partial) {
      // The response being read counts as it stands; it stays open for blocks to come.
      JsonNode last = pending == null ? null : pending.usage();
      boolean main = pending != null && !pending.sidechain();
      Usage usage =
          new Usage(
              modelSoFar(main),
              plus(input.value(), field(last, "input_tokens")),
              plus(output.value(), field(last, "output_tokens")),
              plus(cacheRead.value(), field(last, "cache_read_input_tokens")),
              plus(cacheWrite.value(), field(last, "cache_creation_input_tokens")),
              plus(
                  reasoning.value(),
                  last == null
                      ? null
                      : TokenCount.of(last.path("output_tokens_details").get("thinking_tokens"))),
              turns + (main ? 1 : 0),
              main ? contextOf(last) : context,
              null,
              SOURCE,
              partial);
      Long longWritten =
          plus(longWrites.value(), last == null ? null : TokenCount.of(longWrites(last)));
      return responses == 0 && pending == null
          ? UsageReport.NONE
          : new UsageReport(usage, null, basis.basis(longWritten));
    }

    /** The main conversation's last model; only for a file without one, its side chains'. */
    private String modelSoFar(boolean pendingIsMain) {
      if (pendingIsMain && pending.model() != null) {
        return pending.model();
      }
      if (model != null || turns > 0) {
        return model;
      }
      return pending != null && pending.model() != null ? pending.model() : sideModel;
    }

    private static Long field(JsonNode usage, String name) {
      return usage == null ? null : TokenCount.of(usage.get(name));
    }
  }

  static Long plus(Long a, Long b) {
    if (a == null) {
      return b;
    }
    return b == null ? a : a + b;
  }
}
