package dev.clique.mcp.tools;

import dev.clique.client.CliqueClient;
import dev.clique.mcp.protocol.Futures;
import dev.clique.mcp.protocol.Json;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/** {@code conversation}: what the person asked and the agent answered, from the CLI's files. */
public final class ConversationTool implements CliqueTool {
  private final CliqueClient client;

  public ConversationTool(CliqueClient client) {
    this.client = client;
  }

  @Override
  public String name() {
    return "conversation";
  }

  @Override
  public Tool definition() {
    Map<String, Object> turn = new LinkedHashMap<>();
    turn.put("type", "object");
    Map<String, Object> said = new LinkedHashMap<>();
    said.put("role", Schemas.typed("string", "user or assistant."));
    said.put("text", Schemas.typed("string", "What was said."));
    turn.put("properties", said);
    turn.put("required", List.of("role", "text"));
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("cli", Schemas.typed("string", "The session's CLI."));
    output.put("name", Schemas.typed("string", "The session's name."));
    output.put("turns", Schemas.arrayOf(turn));
    output.put("resolved", Schemas.resolved());
    return Tool.builder(name(), Schemas.input(Map.of("id", Schemas.sessionId()), List.of("id")))
        .title("Read a conversation")
        .description(
            "Reads a session's conversation (by id or name) from its CLI's own transcript: what"
                + " the person typed and what the agent answered, oldest first.")
        .outputSchema(Schemas.output(output, List.of("turns")))
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
    return SessionLookup.read(
        client,
        id,
        session ->
            Futures.map(
                Futures.start(() -> client.conversationAsync(session)),
                conversation -> Json.readAnswer(conversation.json())));
  }
}
