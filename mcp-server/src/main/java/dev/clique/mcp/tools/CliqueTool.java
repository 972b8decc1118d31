package dev.clique.mcp.tools;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** One read-only MCP tool: its definition, and a call that only reads through the client. */
public interface CliqueTool {
  /** The tool's name, as {@code tools/call} names it. */
  String name();

  Tool definition();

  /** Runs the tool; failures come back as tool errors ({@code isError: true}), never thrown. */
  CompletableFuture<CallToolResult> call(Map<String, Object> arguments);
}
