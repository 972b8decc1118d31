package dev.clique.mcp.tools;

import dev.clique.client.CliqueClient;
import dev.clique.client.Session;
import dev.clique.mcp.protocol.Futures;
import dev.clique.mcp.protocol.Json;
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
            "Shows one session, by id or name: its CLI, folder, state and what it is stuck on,"
                + " and, where its CLI records them, the tokens it used (with their cost at list"
                + " prices, when the model's prices are known), its context and its usage limits.")
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
    CompletableFuture<CallToolResult> answered =
        Futures.then(
            Futures.start(() -> client.sessionAsync(id)),
            found ->
                found.isPresent()
                    ? CompletableFuture.completedFuture(ToolResults.passThrough(found.get().json()))
                    : byName(id));
    return Futures.recover(answered, ToolErrors::from);
  }

  /**
   * The session {@code given} names when it is no session's id: the whole state is read once, and
   * the row is taken from it (SessionLookup's rule), not read again.
   */
  private CompletableFuture<CallToolResult> byName(String given) {
    return Futures.map(
        Futures.start(client::stateAsync),
        state -> {
          try {
            Session session = SessionLookup.theOne(state, given, "no session with id " + given);
            return SessionLookup.resolved(Json.readAnswer(session.json()), given, session);
          } catch (ToolArgumentException e) {
            return ToolResults.error(e.getMessage());
          }
        });
  }
}
