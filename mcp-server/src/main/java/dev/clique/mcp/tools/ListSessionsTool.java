package dev.clique.mcp.tools;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.client.CliqueClient;
import dev.clique.client.EngineReport;
import dev.clique.client.Session;
import dev.clique.mcp.protocol.Json;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * {@code list_sessions}: every session and its state ({@code GET /api/state}). Its structure is
 * {@code {"sessions": [...]}}, its text the bare array. Over several engines each session names its
 * engine, and {@code "engines"} says how each engine answered; the text is then the whole
 * structure, so that an engine that did not answer is seen.
 */
public final class ListSessionsTool implements CliqueTool {
  private final CliqueClient client;

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
                + " (working, waiting, error, idle or stopped): the place to start.")
        .outputSchema(
            Schemas.output(
                Map.of(
                    "sessions",
                    Schemas.arrayOf(Schemas.session()),
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
        client::stateAsync,
        state -> {
          ObjectNode result = JsonNodeFactory.instance.objectNode();
          var rows = result.putArray("sessions");
          for (Session session : state.sessions()) {
            rows.add(Json.readAnswer(session.json()));
          }
          if (state.engines().isEmpty()) {
            return ToolResults.ok(result, "sessions", rows);
          }
          var engines = result.putArray("engines");
          for (EngineReport engine : state.engines()) {
            engines.add(Json.readAnswer(engine.json()));
          }
          return ToolResults.ok(result);
        });
  }
}
