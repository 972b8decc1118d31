package dev.clique.mcp.tools;

import dev.clique.client.CliqueException;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Turns a failed client call into the tool error of its own cause (MCP.md, Errors). */
final class ToolErrors {
  private ToolErrors() {}

  static CallToolResult from(Throwable failure) {
    Throwable cause = failure;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof CliqueException clique) {
      // Already worded per cause by the client: unreachable, 401, 403/404/other, unexpected,
      // timed out.
      return ToolResults.error(clique.getMessage());
    }
    if (cause instanceof ToolArgumentException argument) {
      return ToolResults.error(argument.getMessage());
    }
    if (cause instanceof IllegalArgumentException refused) {
      // The client refuses an argument before any call (an id it cannot put in a path).
      return ToolResults.error("bad arguments: " + refused.getMessage());
    }
    if (cause instanceof CancellationException) {
      return ToolResults.error("the call was cancelled");
    }
    return ToolResults.error(
        "clique API returned an unexpected response: " + cause.getClass().getSimpleName());
  }
}
