package dev.clique.mcp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.client.CliqueClient;
import dev.clique.client.Session;
import dev.clique.client.SessionState;
import dev.clique.client.WaitResult;
import dev.clique.mcp.protocol.Futures;
import dev.clique.mcp.protocol.Json;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * {@code wait}: blocks until a session is in one of the states asked for (by default: no longer
 * working), or the time-out passes. A session that stopped for a person comes back with the
 * engine's {@code attention}: why.
 */
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
    Map<String, Object> until = new LinkedHashMap<>();
    until.put("type", "array");
    until.put("items", Map.of("type", "string", "enum", Arguments.WAITABLE));
    until.put("minItems", 1);
    until.put(
        "description",
        "The states to return on, any of idle, waiting, error, stopped; omitted means all four:"
            + " until the session is no longer working (it finished or needs a person).");
    input.put("until", until);
    Map<String, Object> output = new LinkedHashMap<>();
    output.put("id", Schemas.type("string"));
    output.put("state", Schemas.type("string"));
    output.put("matched", Schemas.type("boolean"));
    output.put("waited", Schemas.type("number"));
    output.put("attention", Schemas.attention());
    output.put("resolved", Schemas.resolved());
    return Tool.builder(name(), Schemas.input(input, List.of("id")))
        .title("Wait for a session")
        .description(
            "Waits until a session (by id or name) is no longer working (idle, waiting, error or"
                + " stopped: it finished or needs a person), or is in one of the states in until,"
                + " or the time-out passes, and says which state it reached and, when a person is"
                + " needed, why (attention).")
        .outputSchema(Schemas.output(output, List.of("id", "state", "matched")))
        .annotations(Schemas.READ_ONLY)
        .build();
  }

  @Override
  public CompletableFuture<CallToolResult> call(Map<String, Object> arguments) {
    String id;
    OptionalDouble timeout;
    SessionState[] until;
    try {
      Arguments args = Arguments.check(arguments, Set.of("id", "timeout", "until"));
      id = args.id();
      timeout = args.timeout();
      until = args.until();
    } catch (ToolArgumentException e) {
      return CompletableFuture.completedFuture(ToolResults.error(e.getMessage()));
    }
    Duration limit =
        timeout.isPresent() ? Duration.ofMillis(Math.round(timeout.getAsDouble() * 1000)) : null;
    return SessionLookup.read(
        client,
        id,
        session ->
            Futures.then(
                Futures.start(() -> client.waitForAsync(session, limit, until)),
                this::withAttention));
  }

  /**
   * The wait's answer, with the session's {@code attention} when it stopped for a person and the
   * answer does not say why: the engine keeps that on the session row, read right after. A row in
   * another state by then, or a read that fails, adds nothing (the wait itself was answered).
   */
  private CompletableFuture<JsonNode> withAttention(WaitResult result) {
    JsonNode answer = Json.readAnswer(result.json());
    boolean needsPerson =
        result.state() == SessionState.WAITING || result.state() == SessionState.ERROR;
    if (!needsPerson || !answer.isObject() || answer.has("attention")) {
      return CompletableFuture.completedFuture(answer);
    }
    return Futures.recover(
        Futures.map(
            Futures.start(() -> client.sessionAsync(result.id())),
            row -> attach((ObjectNode) answer, row, result.state())),
        failure -> answer);
  }

  private static JsonNode attach(ObjectNode answer, Optional<Session> row, SessionState state) {
    row.filter(session -> session.state() == state)
        .map(session -> Json.readAnswer(session.json()).get("attention"))
        .filter(JsonNode::isObject)
        .ifPresent(attention -> answer.set("attention", attention));
    return answer;
  }
}
