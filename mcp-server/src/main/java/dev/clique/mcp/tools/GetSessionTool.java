package dev.clique.mcp.tools;

import dev.clique.client.CliqueClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** {@code get_session}: one session's row of {@code GET /api/state}. */
public final class GetSessionTool implements CliqueTool {
  private final CliqueClient client;

  public GetSessionTool(CliqueClient client) {
    this.client = client;
  }

  @Override
  public String name() {
    return "get_session";
  }

  @Override
  public Tool definition() {
    return Tool.builder(name(), Schemas.input(Map.of("id", Schemas.sessionId()), List.of("id")))
        .title("Get a session")
        .description(
            "Shows one session by id: its CLI, folder, state and what it is stuck on, and, where"
                + " its CLI records them, the tokens it used (with their cost at list prices, when"
                + " the model's prices are known), its context and its usage limits.")
        .outputSchema(Schemas.session())
        .annotations(Schemas.READ_ONLY)
        .build();
  }

  @Override
  public CompletableFuture<CallToolResult> call(Map<String, Object> arguments) {
    String id;
    try {
      id = Arguments.check(arguments, Set.of("id")).id();
    } catch (ToolArgumentException e) {
      return CompletableFuture.completedFuture(ToolResults.error(e.getMessage()));
    }
    return ToolResults.read(
        () -> client.sessionAsync(id),
        found ->
            found
                .map(session -> ToolResults.passThrough(session.json()))
                .orElseGet(() -> ToolResults.error("no session with id " + id)));
  }
}
