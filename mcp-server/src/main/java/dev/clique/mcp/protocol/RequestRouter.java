package dev.clique.mcp.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.mcp.protocol.ModernEra.Era;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Mono;

/**
 * Between the stdio front and the MCP SDK's server: checks what the SDK would answer badly ({@code
 * initialize} without a version, unknown tools), serves what it does not know (the modern era,
 * {@link ModernEra}, and the methods given as {@link Route routes}: the resources), hands the rest
 * to the SDK and writes its answers.
 *
 * <p>No request holds a thread while it waits: each runs as its own subscription, so a long {@code
 * wait} never holds up a {@code ping}. {@code notifications/cancelled} disposes the subscription,
 * which cancels the client's future and so aborts its HTTP call; a cancelled request gets no
 * answer.
 */
public final class RequestRouter implements McpStatelessServerTransport, MessageHandler {
  private static final Logger log = LoggerFactory.getLogger(RequestRouter.class);
  private final FrameWriter out;
  private final ServerIdentity server;
  private final Set<String> toolNames;
  private final Map<String, Route> routes;
  private final ProgressReporter progress;
  private final Map<String, Disposable.Swap> pending = new ConcurrentHashMap<>();
  private final CompletableFuture<McpStatelessServerHandler> handler = new CompletableFuture<>();

  /**
   * @param out where answers go
   * @param server who this server is, for {@code server/discover}
   * @param toolNames the tools the SDK serves, to refuse any other name clearly
   * @param progressEvery how often a pending request that asked for progress hears of it
   * @param routes the methods served here rather than by the SDK, by name
   */
  public RequestRouter(
      FrameWriter out,
      ServerIdentity server,
      Set<String> toolNames,
      Duration progressEvery,
      Map<String, Route> routes) {
    this.out = out;
    this.server = server;
    this.toolNames = Set.copyOf(toolNames);
    this.routes = Map.copyOf(routes);
    this.progress = new ProgressReporter(out, progressEvery);
  }

  @Override
  public void setMcpHandler(McpStatelessServerHandler handler) {
    this.handler.complete(handler);
  }

  /** The SDK's server could not start: what needs it is answered with an internal error. */
  public void sdkFailed(Throwable failure) {
    log.warn("the MCP SDK's server did not start: {}", Tokens.scrub(failure.toString()));
    handler.completeExceptionally(failure);
  }

  @Override
  public List<String> protocolVersions() {
    return ProtocolVersions.INITIALIZE_ERA;
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(this::close);
  }

  @Override
  public void close() {
    cancelAll();
    progress.close();
  }

  /** Waits until no request is pending, at most {@code limit}; true when none is left. */
  public boolean awaitIdle(Duration limit) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!pending.isEmpty()) {
      if (System.nanoTime() - deadline >= 0) {
        return false;
      }
      LockSupport.parkNanos(2_000_000);
    }
    return true;
  }

  /** Cancels every pending request (stdin closed): their HTTP calls are aborted. */
  public void cancelAll() {
    for (String key : List.copyOf(pending.keySet())) {
      Disposable call = pending.remove(key);
      if (call != null) {
        call.dispose();
      }
    }
  }

  @Override
  public void request(JsonNode id, String method, ObjectNode message) {
    String key = Json.write(id);
    if (pending.containsKey(key)) {
      out.write(inUse(id, key));
      return;
    }
    JsonNode params = message.get("params");
    Era era = ModernEra.of(params);
    if (era == Era.UNSUPPORTED) {
      out.write(ModernEra.unsupported(id, params));
      return;
    }
    String refusal =
        switch (method) {
          case "initialize" -> InitializeCheck.problem(params);
          case "tools/call" -> toolCallProblem(params);
          default -> null;
        };
    if (refusal != null) {
      out.write(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, refusal));
      return;
    }
    boolean modern = era == Era.MODERN;
    switch (method) {
      case ModernEra.DISCOVER -> out.write(JsonRpc.result(id, ModernEra.discover(server)));
      case "initialize" -> answer(id, method, initialize(params), modern);
      case "ping" -> answer(id, method, JsonNodeFactory.instance.objectNode(), modern);
      default -> {
        Route route = routes.get(method);
        if (route == null) {
          forward(id, key, method, params, modern);
        } else {
          serve(id, key, method, route, params, modern);
        }
      }
    }
  }

  /**
   * The handshake is answered here rather than by the SDK: it needs nothing the SDK has, and the
   * first answer a client waits for should not wait for the SDK's start.
   */
  private ObjectNode initialize(JsonNode params) {
    return server.initializeResult(
        ProtocolVersions.negotiate(params.get("protocolVersion").textValue()));
  }

  private void answer(JsonNode id, String method, ObjectNode result, boolean modern) {
    out.write(JsonRpc.result(id, modern ? ModernEra.complete(result, method) : result));
  }

  @Override
  public void notification(String method, ObjectNode message) {
    if (method.equals("notifications/cancelled")) {
      JsonNode requestId = message.path("params").path("requestId");
      Disposable call = requestId.isMissingNode() ? null : pending.remove(Json.write(requestId));
      if (call != null) {
        call.dispose();
      }
    }
    // Nothing else a client tells us changes what we answer: initialized, roots, progress.
  }

  private String toolCallProblem(JsonNode params) {
    JsonNode name = params == null ? null : params.get("name");
    if (name == null || !name.isTextual()) {
      return "tools/call needs params.name, the name of a tool";
    }
    if (!toolNames.contains(name.textValue())) {
      return "Unknown tool: " + name.textValue();
    }
    JsonNode arguments = params.get("arguments");
    if (arguments != null && !arguments.isObject() && !arguments.isNull()) {
      return "tools/call: arguments must be an object";
    }
    JsonNode meta = params.get("_meta");
    if (meta != null && !meta.isObject() && !meta.isNull()) {
      return "tools/call: _meta must be an object";
    }
    return null;
  }

  private void forward(JsonNode id, String key, String method, JsonNode params, boolean modern) {
    Disposable.Swap slot = Disposables.swap();
    if (pending.putIfAbsent(key, slot) != null) {
      out.write(inUse(id, key));
      return;
    }
    JsonNode token = method.equals("tools/call") ? ProgressReporter.token(params) : null;
    Disposable ticking =
        token == null
            ? Disposables.disposed()
            : progress.start(token, params.path("name").asText());
    JSONRPCRequest request =
        new JSONRPCRequest(
            "2.0",
            method,
            Json.toJava(id),
            params == null || params.isNull() ? null : Json.toJava(params));
    slot.update(
        // The SDK's server may still be starting: a request for it waits, holding no thread.
        Mono.fromFuture(handler, true)
            .flatMap(sdk -> sdk.handleRequest(McpTransportContext.EMPTY, request))
            .switchIfEmpty(Mono.error(() -> new IllegalStateException("the SDK gave no answer")))
            .doFinally(
                signal -> {
                  ticking.dispose();
                  pending.remove(key, slot);
                })
            .subscribe(
                response -> {
                  pending.remove(key, slot);
                  ticking.dispose();
                  out.write(answer(id, method, response, modern));
                },
                failure -> {
                  pending.remove(key, slot);
                  ticking.dispose();
                  log.warn("{} failed: {}", method, Tokens.scrub(failure.toString()));
                  out.write(JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "internal error"));
                }));
  }

  /**
   * Answers a request with a route: pending (and so cancellable) like a forwarded one, and, like
   * one, answered once.
   */
  private void serve(
      JsonNode id, String key, String method, Route route, JsonNode params, boolean modern) {
    Disposable.Swap slot = Disposables.swap();
    if (pending.putIfAbsent(key, slot) != null) {
      out.write(inUse(id, key));
      return;
    }
    slot.update(
        Mono.defer(() -> route.answer(id, params, modern))
            .switchIfEmpty(Mono.error(() -> new IllegalStateException(method + " gave no answer")))
            .doFinally(signal -> pending.remove(key, slot))
            .subscribe(
                result -> {
                  pending.remove(key, slot);
                  answer(id, method, result, modern);
                },
                failure -> {
                  pending.remove(key, slot);
                  out.write(refusal(id, method, failure));
                }));
  }

  /** A route's failure as an error answer: the protocol's own, or an internal error. */
  private static String refusal(JsonNode id, String method, Throwable failure) {
    if (failure instanceof ProtocolError refused) {
      return JsonRpc.error(id, refused.code(), refused.getMessage(), refused.data());
    }
    log.warn("{} failed: {}", method, Tokens.scrub(failure.toString()));
    return JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "internal error");
  }

  private static String inUse(JsonNode id, String key) {
    return JsonRpc.error(
        id,
        JsonRpc.INVALID_REQUEST,
        "request id " + key + " is already in use by a pending request");
  }

  /**
   * The SDK's answer as a frame, written in one pass as UTF-8 rather than through a tree: a list of
   * sessions is tens of kilobytes. An error's message is scrubbed of tokens.
   */
  private static byte[] answer(
      JsonNode id, String method, JSONRPCResponse response, boolean modern) {
    try {
      JSONRPCError error = response.error();
      if (error != null) {
        String message = error.message() == null ? "" : error.message();
        return JsonRpc.error(
                id, error.code(), message, error.data() == null ? null : Json.toTree(error.data()))
            .getBytes(StandardCharsets.UTF_8);
      }
      byte[] head =
          ("{\"jsonrpc\":\"2.0\",\"id\":" + Json.write(id) + ",\"result\":")
              .getBytes(StandardCharsets.UTF_8);
      byte[] result =
          modern
              ? Json.writeObjectBytes(response.result(), ModernEra.completion(method))
              : Json.writeBytes(response.result());
      byte[] frame = Arrays.copyOf(head, head.length + result.length + 1);
      System.arraycopy(result, 0, frame, head.length, result.length);
      frame[frame.length - 1] = '}';
      return frame;
    } catch (IllegalArgumentException e) {
      log.warn("an answer to {} could not be written: {}", method, Tokens.scrub(e.getMessage()));
      return JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "internal error")
          .getBytes(StandardCharsets.UTF_8);
    }
  }
}
