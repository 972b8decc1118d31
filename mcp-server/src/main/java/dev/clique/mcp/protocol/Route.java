package dev.clique.mcp.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.concurrent.CompletableFuture;

/**
 * A method the router serves beyond the handshake (the tools, the resources): its answer to one
 * request, a JSON value {@link Json} writes (a tree, or one of the SDK's result records). A refusal
 * the protocol defines fails the answer with a {@link ProtocolError}; any other failure becomes an
 * internal error. The answer may stay pending until the request is cancelled (a {@code
 * subscriptions/listen}); cancelling it cancels what is under way.
 */
@FunctionalInterface
public interface Route {
  /**
   * @param id the request's id, which a long-lived answer tags its notifications with
   * @param params the request's params, or {@code null}
   * @param modern whether the request names the 2026-07-28 revision
   */
  CompletableFuture<?> answer(JsonNode id, JsonNode params, boolean modern);
}
