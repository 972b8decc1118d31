package dev.clique.mcp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.client.CliqueClient;
import dev.clique.client.EngineReport;
import dev.clique.client.Session;
import dev.clique.client.Usage;
import dev.clique.mcp.protocol.Json;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * {@code list_sessions}: every session and its state ({@code GET /api/state?usage=brief}), each
 * session's usage in brief. Its structure is {@code {"sessions": [...]}}, its text the bare array.
 * Over several engines each session names its engine, and {@code "engines"} says how each engine
 * answered; the text is then the whole structure, so that an engine that did not answer is seen.
 */
public final class ListSessionsTool implements CliqueTool {
  private static final Set<String> BRIEF_USAGE =
      Set.of("tokens", "context_percent", "context_tokens");

  private final CliqueClient client;

  /**
   * The rows of the last listing that went out as the engine sent them, by their text, read: a row
   * whose session did not change since comes back as the same text, and is not read again. Only the
   * last listing's rows are kept, and their trees are never changed once kept.
   */
  private volatile Map<String, JsonNode> lastRows = Map.of();

  public ListSessionsTool(CliqueClient client) {
    this.client = client;
  }

  @Override
  public String name() {
    return "list_sessions";
  }

  @Override
  public Tool definition() {
    return Tool.builder(name(), Schemas.input(Map.of(), List.of()))
        .title("List sessions")
        .description(
            "Lists every coding-agent session clique runs, with its id, CLI, folder and state"
                + " (working, waiting, error, idle or stopped), and, where its CLI records them,"
                + " the tokens it used and how full its context is: the place to start.")
        .outputSchema(
            Schemas.output(
                Map.of(
                    "sessions",
                    Schemas.arrayOf(Schemas.listedSession()),
                    "engines",
                    Schemas.arrayOf(Schemas.engineReport())),
                List.of("sessions")))
        .annotations(Schemas.READ_ONLY)
        .build();
  }

  @Override
  public CompletableFuture<CallToolResult> call(Map<String, Object> arguments) {
    try {
      Arguments.check(arguments, Set.of());
    } catch (ToolArgumentException e) {
      return CompletableFuture.completedFuture(ToolResults.error(e.getMessage()));
    }
    return ToolResults.read(
        client::listingAsync,
        state -> {
          ObjectNode result = JsonNodeFactory.instance.objectNode();
          ArrayNode rows = result.putArray("sessions");
          List<String> texts = new ArrayList<>(state.sessions().size());
          Map<String, JsonNode> known = lastRows;
          Map<String, JsonNode> kept = new HashMap<>();
          for (Session session : state.sessions()) {
            JsonNode seen = known.get(session.json());
            if (seen != null) {
              rows.add(seen);
              texts.add(session.json());
              kept.put(session.json(), seen);
              continue;
            }
            Json.AnswerText row = Json.readAnswerText(session.json());
            rows.add(row.tree());
            // A row the engine sent as a listing shows it, on one line, goes out as it came.
            boolean cut = cutToListing(row.tree(), session);
            if (cut || !row.oneLine()) {
              texts.add(Json.write(row.tree()));
            } else {
              texts.add(session.json());
              kept.put(session.json(), row.tree());
            }
          }
          lastRows = kept;
          if (state.engines().isEmpty()) {
            return ToolResults.ok(result, "sessions", Json.Rendered.joining(rows, texts));
          }
          var engines = result.putArray("engines");
          for (EngineReport engine : state.engines()) {
            engines.add(Json.readAnswer(engine.json()));
          }
          return ToolResults.ok(result);
        });
  }

  /**
   * Makes {@code row} what a listing shows: its usage in brief and no limits, as the engine sends
   * them for {@code usage=brief}; an engine that sent them whole (an older one) has them cut here
   * alike. Many sessions then cost an assistant few tokens; {@code get_session} shows them whole.
   *
   * @return whether it had to be changed
   */
  private static boolean cutToListing(JsonNode row, Session session) {
    if (!(row instanceof ObjectNode object)) {
      return false;
    }
    boolean cut = object.remove("limits") != null;
    JsonNode usage = object.get("usage");
    if (usage != null && !isBrief(usage) && session.usage().isPresent()) {
      object.set("usage", brief(session.usage().get()));
      cut = true;
    }
    return cut;
  }

  private static boolean isBrief(JsonNode usage) {
    for (var names = usage.fieldNames(); names.hasNext(); ) {
      if (!BRIEF_USAGE.contains(names.next())) {
        return false;
      }
    }
    return true;
  }

  private static ObjectNode brief(Usage usage) {
    ObjectNode brief = JsonNodeFactory.instance.objectNode();
    usage.tokens().ifPresent(tokens -> brief.put("tokens", tokens));
    if (usage.contextPercent().isPresent()) {
      brief.put("context_percent", Math.round(usage.contextPercent().get()));
    } else {
      usage.contextTokens().ifPresent(tokens -> brief.put("context_tokens", tokens));
    }
    return brief;
  }
}
