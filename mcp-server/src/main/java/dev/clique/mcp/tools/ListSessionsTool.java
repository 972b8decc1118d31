package dev.clique.mcp.tools;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.client.CliqueClient;
import dev.clique.client.Session;
import dev.clique.mcp.protocol.Json;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;
import java.util.Map;
import java.util.Set;
import reactor.core.publisher.Mono;

/**
 * {@code list_sessions}: every session and its state ({@code GET /api/state}). Its structure is
 * {@code {"sessions": [...]}}, its text the bare array.
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
                Map.of("sessions", Schemas.arrayOf(Schemas.session())), List.of("sessions")))
        .annotations(Schemas.READ_ONLY)
        .build();
  }

  @Override
  public Mono<CallToolResult> call(Map<String, Object> arguments) {
    try {
      Arguments.check(arguments, Set.of());
    } catch (ToolArgumentException e) {
      return Mono.just(ToolResults.error(e.getMessage()));
    }
    return ToolResults.read(
        client::sessionsAsync,
        sessions -> {
          ObjectNode result = JsonNodeFactory.instance.objectNode();
          var rows = result.putArray("sessions");
          for (Session session : sessions) {
            rows.add(Json.readAnswer(session.json()));
          }
          return ToolResults.ok(result, "sessions", rows);
        });
  }
}
