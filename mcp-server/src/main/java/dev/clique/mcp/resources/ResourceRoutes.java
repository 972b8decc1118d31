package dev.clique.mcp.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.client.CliqueClient;
import dev.clique.client.CliqueException;
import dev.clique.client.EngineState;
import dev.clique.mcp.protocol.FrameWriter;
import dev.clique.mcp.protocol.Futures;
import dev.clique.mcp.protocol.JsonRpc;
import dev.clique.mcp.protocol.ProtocolError;
import dev.clique.mcp.protocol.Route;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The resource methods, served by the router itself: {@code resources/list}, {@code
 * resources/templates/list}, {@code resources/read}, {@code resources/subscribe} and {@code
 * resources/unsubscribe} (2025-11-25 and before) and {@code subscriptions/listen} (2026-07-28).
 *
 * <p>A URI that is not one of clique's, or names a session the engine does not have, is the
 * protocol's "resource not found": {@code -32002} up to 2025-11-25, {@code -32602} in 2026-07-28,
 * with the URI in {@code data}; nothing is subscribed then. An engine that cannot answer is an
 * internal error that says why, in the client's words.
 */
public final class ResourceRoutes implements AutoCloseable {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String LISTEN = "subscriptions/listen";

  private final SessionResources resources;
  private final Subscriptions subscriptions;

  public ResourceRoutes(CliqueClient client, FrameWriter out) {
    this.resources = new SessionResources(client);
    this.subscriptions = new Subscriptions(client, out);
  }

  /** The routes, by method name. */
  public Map<String, Route> routes() {
    Map<String, Route> routes = new LinkedHashMap<>();
    routes.put("resources/list", (id, params, modern) -> resources.list());
    routes.put(
        "resources/templates/list",
        (id, params, modern) -> CompletableFuture.completedFuture(SessionResources.templates()));
    routes.put("resources/read", this::read);
    routes.put("resources/subscribe", this::subscribe);
    routes.put("resources/unsubscribe", this::unsubscribe);
    routes.put(LISTEN, this::listen);
    // Every failure, thrown while checking or met while reading, as this era's protocol error.
    routes.replaceAll(
        (method, route) ->
            (id, params, modern) ->
                Futures.mapFailure(
                    Futures.start(() -> route.answer(id, params, modern)),
                    failure -> refusal(failure, modern)));
    return routes;
  }

  /** Stops following the change feed; nothing more is subscribed. */
  @Override
  public void close() {
    subscriptions.close();
  }

  private CompletableFuture<ObjectNode> read(JsonNode id, JsonNode params, boolean modern) {
    String uri = uriParam("resources/read", params);
    return resources.read(uri, known(uri));
  }

  private CompletableFuture<ObjectNode> subscribe(JsonNode id, JsonNode params, boolean modern) {
    earlierEraOnly("resources/subscribe", modern);
    String uri = uriParam("resources/subscribe", params);
    ResourceUri parsed = known(uri);
    return Futures.map(
        resources.existing(List.of(parsed)),
        seen -> {
          subscriptions.subscribe(uri, parsed, seen);
          return NODES.objectNode();
        });
  }

  private CompletableFuture<ObjectNode> unsubscribe(JsonNode id, JsonNode params, boolean modern) {
    earlierEraOnly("resources/unsubscribe", modern);
    String uri = uriParam("resources/unsubscribe", params);
    known(uri);
    subscriptions.unsubscribe(uri);
    return CompletableFuture.completedFuture(NODES.objectNode());
  }

  /**
   * A listen: checked, acknowledged, then open until it is cancelled; its answer never comes
   * otherwise (the process ends first).
   */
  private CompletableFuture<ObjectNode> listen(JsonNode id, JsonNode params, boolean modern) {
    if (!modern) {
      throw new ProtocolError(
          JsonRpc.METHOD_NOT_FOUND,
          LISTEN
              + " belongs to 2026-07-28: name that version in"
              + " params._meta[\"io.modelcontextprotocol/protocolVersion\"], or use"
              + " resources/subscribe");
    }
    JsonNode filter = params == null ? null : params.get("notifications");
    if (filter == null || !filter.isObject()) {
      throw invalid(
          LISTEN
              + " needs params.notifications, an object such as {\"resourcesListChanged\":"
              + " true, \"resourceSubscriptions\": [\"clique://sessions\"]}");
    }
    JsonNode listChanged = filter.get("resourcesListChanged");
    if (listChanged != null && !listChanged.isBoolean() && !listChanged.isNull()) {
      throw invalid(LISTEN + ": notifications.resourcesListChanged must be true or false");
    }
    JsonNode wanted = filter.get("resourceSubscriptions");
    Map<String, ResourceUri> uris = new LinkedHashMap<>();
    if (wanted != null && !wanted.isNull()) {
      if (!wanted.isArray()) {
        throw invalid(LISTEN + ": notifications.resourceSubscriptions must be an array of URIs");
      }
      for (JsonNode uri : wanted) {
        if (!uri.isTextual()) {
          throw invalid(LISTEN + ": notifications.resourceSubscriptions must be an array of URIs");
        }
        uris.put(uri.textValue(), known(uri.textValue()));
      }
    }
    boolean hearsListChanges = listChanged != null && listChanged.asBoolean();
    Subscriptions.Listen listen = new Subscriptions.Listen(id, hearsListChanges, uris);
    ObjectNode agreed = NODES.objectNode();
    if (hearsListChanges) {
      agreed.put("resourcesListChanged", true);
    }
    if (wanted != null && !wanted.isNull()) {
      ArrayNode followed = agreed.putArray("resourceSubscriptions");
      uris.keySet().forEach(followed::add);
    }
    CompletableFuture<Optional<EngineState>> baseline =
        listen.wantsAny()
            ? Futures.map(resources.existing(new ArrayList<>(uris.values())), Optional::of)
            : CompletableFuture.completedFuture(Optional.empty());
    CompletableFuture<ObjectNode> open =
        Futures.then(
            baseline,
            seen -> {
              subscriptions.listen(listen, agreed, seen.orElse(null));
              return new CompletableFuture<>(); // answered never: open until cancelled
            });
    open.whenComplete((never, cancelled) -> subscriptions.end(listen));
    return open;
  }

  private static void earlierEraOnly(String method, boolean modern) {
    if (modern) {
      throw new ProtocolError(
          JsonRpc.METHOD_NOT_FOUND,
          method + " is not part of 2026-07-28: subscriptions/listen replaces it");
    }
  }

  private static String uriParam(String method, JsonNode params) {
    JsonNode uri = params == null ? null : params.get("uri");
    if (uri == null || !uri.isTextual()) {
      throw invalid(method + " needs params.uri, a URI such as " + ResourceUri.SESSIONS);
    }
    return uri.textValue();
  }

  private static ResourceUri known(String uri) {
    return ResourceUri.parse(uri)
        .orElseThrow(
            () ->
                new UnknownResource(
                    uri,
                    "clique's resources are "
                        + ResourceUri.SESSIONS
                        + " and "
                        + ResourceUri.SESSIONS
                        + "/{id}, /{id}/pane, /{id}/conversation"));
  }

  private static ProtocolError invalid(String message) {
    return new ProtocolError(JsonRpc.INVALID_PARAMS, message);
  }

  private static Throwable refusal(Throwable failure, boolean modern) {
    if (failure instanceof UnknownResource unknown) {
      ObjectNode data = NODES.objectNode().put("uri", unknown.uri());
      return new ProtocolError(
          modern ? JsonRpc.INVALID_PARAMS : JsonRpc.RESOURCE_NOT_FOUND, unknown.getMessage(), data);
    }
    if (failure instanceof CliqueException clique) {
      return new ProtocolError(JsonRpc.INTERNAL_ERROR, clique.getMessage());
    }
    return failure;
  }
}
