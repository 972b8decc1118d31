package dev.clique.mcp.tools;

import dev.clique.client.CliqueClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import reactor.core.publisher.Mono;

/** {@code wait}: blocks until a session is idle, or the time-out passes. */
public final class WaitTool implements CliqueTool {
  private final CliqueClient client;

  public WaitTool(CliqueClient client) {
    this.client = client;
  }

  @Override
  public String name() {
    return "wait";
  }

  @Override
  public Tool definition() {
    Map<String, Object> input = new LinkedHashMap<>();
    input.put("id", Schemas.sessionId());
    input.put(
        "timeout",
        Schemas.typed(
            "number", "Seconds to wait at most (the engine's default when omitted; at most 300)."));
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("id", Schemas.type("string"));
    output.put("state", Schemas.type("string"));
    output.put("matched", Schemas.type("boolean"));
    output.put("waited", Schemas.type("number"));
    return Tool.builder(name(), Schemas.input(input, List.of("id")))
        .title("Wait for a session")
        .description(
            "Waits until a session is idle (finished) or the time-out passes, and says which.")
        .outputSchema(Schemas.output(output, List.of("id", "state", "matched")))
        .annotations(Schemas.READ_ONLY)
        .build();
  }

  @Override
  public Mono<CallToolResult> call(Map<String, Object> arguments) {
    String id;
    OptionalDouble timeout;
    try {
      Arguments args = Arguments.check(arguments, Set.of("id", "timeout"));
      id = args.id();
      timeout = args.timeout();
    } catch (ToolArgumentException e) {
      return Mono.just(ToolResults.error(e.getMessage()));
    }
    Duration limit =
        timeout.isPresent() ? Duration.ofMillis(Math.round(timeout.getAsDouble() * 1000)) : null;
    return ToolResults.read(
        () -> client.waitForAsync(id, limit), result -> ToolResults.ok(result.json()));
  }
}
