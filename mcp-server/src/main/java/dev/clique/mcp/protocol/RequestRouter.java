package dev.clique.mcp.protocol;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.mcp.stdio.FrameWriter;
import dev.clique.mcp.stdio.StdioFront;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * Hands well-formed messages to the MCP SDK's server and writes its answers. Each request runs on
 * its own, so a long {@code wait} never holds up a {@code ping}; {@code notifications/cancelled}
 * disposes the pending call, which aborts its HTTP request.
 */
public final class RequestRouter implements McpStatelessServerTransport, StdioFront.MessageHandler {
  /** The versions answered with themselves; any other request gets the newest. */
  public static final List<String> PROTOCOL_VERSIONS =
      List.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25");

  private static final Logger log = LoggerFactory.getLogger(RequestRouter.class);
  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};

  private final FrameWriter out;
  private final Set<String> toolNames;
  private final ObjectMapper json;
  private final Map<String, Disposable> inFlight = new ConcurrentHashMap<>();
  private volatile McpStatelessServerHandler handler;

  public RequestRouter(FrameWriter out, Set<String> toolNames, ObjectMapper json) {
    this.out = out;
    this.toolNames = Set.copyOf(toolNames);
    this.json = json;
  }

  @Override
  public void setMcpHandler(McpStatelessServerHandler handler) {
    this.handler = handler;
  }

  @Override
  public List<String> protocolVersions() {
    return PROTOCOL_VERSIONS;
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(this::cancelAll);
  }

  /** Cancels every pending call (stdin closed). */
  public void cancelAll() {
    inFlight.values().forEach(Disposable::dispose);
    inFlight.clear();
  }

  @Override
  public void request(JsonNode id, String method, ObjectNode message) {
    JsonNode params = message.get("params");
    if (method.equals("tools/call")) {
      JsonNode name = params == null ? null : params.get("name");
      if (name == null || !name.isTextual()) {
        out.write(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "tools/call needs a tool name"));
        return;
      }
      if (!toolNames.contains(name.asText())) {
        out.write(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Unknown tool: " + name.asText()));
        return;
      }
      JsonNode arguments = params.get("arguments");
      if (arguments != null && !arguments.isObject() && !arguments.isNull()) {
        out.write(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "arguments must be an object"));
        return;
      }
    }
    Object rawId = json.convertValue(id, Object.class);
    Map<String, Object> rawParams =
        params == null || params.isNull() ? null : json.convertValue(params, OBJECT);
    JSONRPCRequest request = new JSONRPCRequest("2.0", method, rawId, rawParams);
    String key = id.toString();
    Disposable call =
        Mono.defer(() -> handler.handleRequest(McpTransportContext.EMPTY, request))
            .doFinally(signal -> inFlight.remove(key))
            .subscribe(
                response -> out.write(write(response, id)),
                failure -> {
                  log.warn("{} failed: {}", method, failure.toString());
                  out.write(JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "internal error"));
                });
    if (!call.isDisposed()) {
      inFlight.put(key, call);
    }
  }

  @Override
  public void notification(String method, ObjectNode message) {
    JsonNode params = message.path("params");
    if (method.equals("notifications/cancelled")) {
      Disposable call = inFlight.remove(params.path("requestId").toString());
      if (call != null) {
        call.dispose();
      }
      return;
    }
    Map<String, Object> rawParams =
        params.isObject() ? json.convertValue(params, OBJECT) : Map.of();
    handler
        .handleNotification(
            McpTransportContext.EMPTY, new JSONRPCNotification("2.0", method, rawParams))
        .onErrorResume(failure -> Mono.empty())
        .subscribe();
  }

  private String write(JSONRPCResponse response, JsonNode id) {
    try {
      return json.writeValueAsString(response);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      log.warn("an answer could not be written: {}", e.getOriginalMessage());
      return JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "internal error");
    }
  }
}
