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

/** {@code preview_pane}: the last lines of a session's terminal, as plain text. */
public final class PreviewPaneTool implements CliqueTool {
  private final CliqueClient client;

  public PreviewPaneTool(CliqueClient client) {
    this.client = client;
  }

  @Override
  public String name() {
    return "preview_pane";
  }

  @Override
  public Tool definition() {
    Map<String, Object> input = new LinkedHashMap<>();
    input.put("id", Schemas.sessionId());
    input.put(
        "lines", Schemas.typed("integer", "How many lines to show (default 8, at most 200)."));
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("lines", Schemas.arrayOf(Schemas.type("string")));
    output.put("alive", Schemas.type("boolean"));
    output.put("activity", Schemas.type("number"));
    output.put(
        "screen",
        Schemas.typed(
            "boolean",
            "false for a session outside tmux: it has no screen to read, and lines are its"
                + " conversation's last lines (a prompt marked \"> \")."));
    output.put("resolved", Schemas.resolved());
    output.put("from", Schemas.typed("string", "\"conversation\" when lines are not a screen's."));
    return Tool.builder(name(), Schemas.input(input, List.of("id")))
        .title("Preview a pane")
        .description(
            "Shows the last lines of a session's terminal (by id or name) as plain text, or of its conversation"
                + " (\"screen\": false) for one outside tmux, which has no screen to read.")
        .outputSchema(Schemas.output(output, List.of("lines", "alive")))
        .annotations(Schemas.READ_ONLY)
        .build();
  }

  @Override
  public CompletableFuture<CallToolResult> call(Map<String, Object> arguments) {
    String id;
    int lines;
    try {
      Arguments args = Arguments.check(arguments, Set.of("id", "lines"));
      id = args.id();
      lines = args.lines();
    } catch (ToolArgumentException e) {
      return CompletableFuture.completedFuture(ToolResults.error(e.getMessage()));
    }
    return SessionLookup.read(
        client,
        id,
        session ->
            Futures.map(
                Futures.start(() -> client.peekAsync(session, lines)),
                pane -> Json.readAnswer(pane.json())));
  }
}
