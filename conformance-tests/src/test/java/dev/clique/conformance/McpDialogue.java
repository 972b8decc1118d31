package dev.clique.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** JSON-RPC over a spawned {@code clique mcp}'s stdin and stdout, as an MCP client speaks it. */
final class McpDialogue {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Spawned mcp;
  private int nextId = 1;

  McpDialogue(Spawned mcp) {
    this.mcp = mcp;
  }

  /** Sends a request and returns its answer; every stdout line must be a JSON-RPC frame. */
  JsonNode request(String method, Map<String, Object> params)
      throws IOException, InterruptedException {
    int id = nextId++;
    Map<String, Object> message =
        params == null
            ? Map.of("jsonrpc", "2.0", "id", id, "method", method)
            : Map.of("jsonrpc", "2.0", "id", id, "method", method, "params", params);
    mcp.send(JSON.writeValueAsString(message));
    while (true) {
      JsonNode frame = JSON.readTree(mcp.nextLine(Duration.ofSeconds(30)));
      if (!"2.0".equals(frame.path("jsonrpc").asText())) {
        throw new AssertionError("stdout carried something that is not JSON-RPC: " + frame);
      }
      if (frame.has("id") && frame.get("id").asInt(-1) == id) {
        return frame;
      }
    }
  }

  JsonNode initialize(String version) throws IOException, InterruptedException {
    JsonNode answer =
        request(
            "initialize",
            Map.of(
                "protocolVersion", version,
                "capabilities", Map.of(),
                "clientInfo", Map.of("name", "conformance", "version", "0")));
    mcp.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    return answer;
  }

  /** {@code tools/list}: the tool names, in the order the server lists them. */
  List<String> toolNames() throws IOException, InterruptedException {
    List<String> names = new ArrayList<>();
    request("tools/list", null)
        .at("/result/tools")
        .forEach(tool -> names.add(tool.path("name").asText()));
    return names;
  }

  JsonNode callTool(String name, Map<String, Object> arguments)
      throws IOException, InterruptedException {
    return request("tools/call", Map.of("name", name, "arguments", arguments));
  }
}
