package dev.clique.mcp.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.client.Tokens;
import dev.clique.mcp.protocol.ModernEra.Era;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every request, answered: the handshake ({@code initialize}, {@code ping}, and the modern era's
 * {@code server/discover}, {@link ModernEra}) here, every other method by its {@link Route} (the
 * tools, the resources), an unknown one as "method not found".
 *
 * <p>No request holds a thread while it waits: each runs as its own subscription, so a long {@code
 * wait} never holds up a {@code ping}. {@code notifications/cancelled} disposes the subscription,
 * which cancels the client's future and so aborts its HTTP call; a cancelled request gets no
 * answer.
 */
public final class RequestRouter implements MessageHandler {
  private static final Logger log = LoggerFactory.getLogger(RequestRouter.class);
  private final FrameWriter out;
  private final ServerIdentity server;
  private final Map<String, Route> routes;
  private final ProgressReporter progress;
  private final Map<String, CompletableFuture<Void>> pending = new ConcurrentHashMap<>();

  /**
   * @param out where answers go
   * @param server who this server is, for {@code initialize} and {@code server/discover}
   * @param progressEvery how often a pending tool call that asked for progress hears of it
   * @param routes the methods served beyond the handshake, by name
   */
  public RequestRouter(
      FrameWriter out, ServerIdentity server, Duration progressEvery, Map<String, Route> routes) {
    this.out = out;
    this.server = server;
    this.routes = Map.copyOf(routes);
    this.progress = new ProgressReporter(out, progressEvery);
  }

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
      CompletableFuture<Void> call = pending.remove(key);
      if (call != null) {
        call.cancel(true);
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
    boolean modern = era == Era.MODERN;
    switch (method) {
      case ModernEra.DISCOVER -> out.write(JsonRpc.result(id, ModernEra.discover(server)));
      case "initialize" -> {
        String refusal = InitializeCheck.problem(params);
        if (refusal != null) {
          out.write(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, refusal));
        } else {
          out.write(answer(id, method, initialize(params), modern));
        }
      }
      case "ping" -> out.write(answer(id, method, JsonNodeFactory.instance.objectNode(), modern));
      default -> {
        Route route = routes.get(method);
        if (route == null) {
          out.write(JsonRpc.error(id, JsonRpc.METHOD_NOT_FOUND, "Method not found: " + method));
        } else {
          serve(id, key, method, route, params, modern);
        }
      }
    }
  }

  private ObjectNode initialize(JsonNode params) {
    return server.initializeResult(
        ProtocolVersions.negotiate(params.get("protocolVersion").textValue()));
  }

  @Override
  public void notification(String method, ObjectNode message) {
    if (method.equals("notifications/cancelled")) {
      JsonNode requestId = message.path("params").path("requestId");
      CompletableFuture<Void> call =
          requestId.isMissingNode() ? null : pending.remove(Json.write(requestId));
      if (call != null) {
        call.cancel(true);
      }
    }
    // Nothing else a client tells us changes what we answer: initialized, roots, progress.
  }

  /**
   * Answers a request by its route: pending, and so cancellable, until it is answered once. A tool
   * call that asked for progress hears of it meanwhile.
   */
  private void serve(
      JsonNode id, String key, String method, Route route, JsonNode params, boolean modern) {
    // The request while it is pending: done when answered, cancelled when the client cancels it.
    CompletableFuture<Void> slot = new CompletableFuture<>();
    if (pending.putIfAbsent(key, slot) != null) {
      out.write(inUse(id, key));
      return;
    }
    JsonNode token = method.equals("tools/call") ? ProgressReporter.token(params) : null;
    Runnable stopTicking =
        token == null ? () -> {} : progress.start(token, params.path("name").asText());
    CompletableFuture<?> answer = Futures.start(() -> route.answer(id, params, modern));
    slot.whenComplete(
        (done, cancelled) -> {
          pending.remove(key, slot);
          stopTicking.run();
          if (slot.isCancelled()) {
            answer.cancel(true);
          }
        });
    answer.whenComplete(
        (result, failure) -> {
          if (!slot.complete(null)) {
            return; // cancelled: a cancelled request is never answered
          }
          if (failure != null) {
            out.write(refusal(id, method, Futures.cause(failure)));
          } else if (result == null) {
            out.write(refusal(id, method, new IllegalStateException(method + " gave no answer")));
          } else {
            out.write(answer(id, method, result, modern));
          }
        });
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
   * A result as a frame, written in one pass as UTF-8 rather than through a tree (a list of
   * sessions is tens of kilobytes), with the modern era's completion fields after its own.
   */
  private static byte[] answer(JsonNode id, String method, Object result, boolean modern) {
    try {
      byte[] head =
          ("{\"jsonrpc\":\"2.0\",\"id\":" + Json.write(id) + ",\"result\":")
              .getBytes(StandardCharsets.UTF_8);
      byte[] body =
          modern
              ? Json.writeObjectBytes(result, ModernEra.completion(method))
              : Json.writeBytes(result);
      byte[] frame = Arrays.copyOf(head, head.length + body.length + 1);
      System.arraycopy(body, 0, frame, head.length, body.length);
      frame[frame.length - 1] = '}';
      return frame;
    } catch (IllegalArgumentException e) {
      log.warn("an answer to {} could not be written: {}", method, Tokens.scrub(e.getMessage()));
      return JsonRpc.error(id, JsonRpc.INTERNAL_ERROR, "internal error")
          .getBytes(StandardCharsets.UTF_8);
    }
  }
}
