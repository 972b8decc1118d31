package dev.clique.mcp.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.client.CliqueClient;
import dev.clique.client.CliqueException;
import dev.clique.client.EngineState;
import dev.clique.client.Session;
import dev.clique.mcp.protocol.Futures;
import dev.clique.mcp.protocol.Json;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * What the resources show, read through the GET-only client: the list of sessions, one session's
 * row of {@code GET /api/state}, its pane ({@code peek}) and its conversation ({@code transcript}),
 * each as JSON. A session the engine does not have is an {@link UnknownResource}; any other failure
 * is the client's own, worded per cause.
 */
final class SessionResources {
  static final String JSON_TYPE = "application/json";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final CliqueClient client;

  SessionResources(CliqueClient client) {
    this.client = client;
  }

  /** {@code resources/list}: the list itself, then one resource per session. */
  CompletableFuture<ObjectNode> list() {
    return Futures.map(
        Futures.start(client::stateAsync),
        state -> {
          ObjectNode result = NODES.objectNode();
          ArrayNode resources = result.putArray("resources");
          resources.add(
              described(
                  NODES.objectNode().put("uri", ResourceUri.SESSIONS).put("name", "sessions"),
                  "Sessions",
                  "Every coding-agent session clique runs and its state, as list_sessions"
                      + " shows them."));
          for (Session session : state.sessions()) {
            String title =
                session.name() + " (" + session.cliLabel() + ", " + session.project() + ")";
            resources.add(
                described(
                    NODES
                        .objectNode()
                        .put("uri", ResourceUri.of(ResourceUri.Kind.SESSION, session.id()).text())
                        .put("name", session.name()),
                    title,
                    "One session: its CLI, folder, state and, when a person is needed, why."));
          }
          return result;
        });
  }

  /** {@code resources/templates/list}: a session, its pane and its conversation, by id. */
  static ObjectNode templates() {
    ObjectNode result = NODES.objectNode();
    ArrayNode templates = result.putArray("resourceTemplates");
    templates.add(
        template(
            "{id}",
            "session",
            "A session",
            "One session by id: its CLI, folder, state and, when a person is needed, why."));
    templates.add(
        template(
            "{id}/pane",
            "pane",
            "A session's pane",
            "The last lines of a session's terminal, as plain text lines."));
    templates.add(
        template(
            "{id}/conversation",
            "conversation",
            "A session's conversation",
            "What the person typed and the agent answered, from the CLI's own transcript."));
    return result;
  }

  /** {@code resources/read} of {@code uri}: its one content, JSON text, named as it was asked. */
  CompletableFuture<ObjectNode> read(String asked, ResourceUri uri) {
    CompletableFuture<ObjectNode> shown =
        switch (uri.kind()) {
          case SESSIONS ->
              Futures.map(
                  Futures.start(client::stateAsync),
                  state -> {
                    ObjectNode list = NODES.objectNode();
                    ArrayNode rows = list.putArray("sessions");
                    state.sessions().forEach(session -> rows.add(Json.readAnswer(session.json())));
                    return list;
                  });
          case SESSION ->
              Futures.map(
                  Futures.start(client::stateAsync),
                  state -> object(Json.readAnswer(row(state, uri).json())));
          case PANE ->
              Futures.map(
                  bySession(uri, () -> client.peekAsync(uri.sessionId())),
                  p -> object(Json.readAnswer(p.json())));
          case CONVERSATION ->
              Futures.map(
                  bySession(uri, () -> client.conversationAsync(uri.sessionId())),
                  c -> object(Json.readAnswer(c.json())));
        };
    return Futures.map(
        shown,
        json -> {
          ObjectNode result = NODES.objectNode();
          result
              .putArray("contents")
              .addObject()
              .put("uri", asked)
              .put("mimeType", JSON_TYPE)
              .put("text", Json.write(json));
          return result;
        });
  }

  /**
   * The engine's state, once every session {@code uris} are about is in it: what a subscription
   * starts from. Fails with an {@link UnknownResource} for the first one that is not.
   */
  CompletableFuture<EngineState> existing(List<ResourceUri> uris) {
    return Futures.map(
        Futures.start(client::stateAsync),
        state -> {
          for (ResourceUri uri : uris) {
            if (uri.kind() != ResourceUri.Kind.SESSIONS) {
              row(state, uri);
            }
          }
          return state;
        });
  }

  private static Session row(EngineState state, ResourceUri uri) {
    return state
        .session(uri.sessionId())
        .orElseThrow(
            () -> new UnknownResource(uri.text(), "no session with id " + uri.sessionId()));
  }

  /** A read about one session: the engine's 404 is a session it does not have. */
  private static <T> CompletableFuture<T> bySession(
      ResourceUri uri, Supplier<CompletableFuture<T>> call) {
    return Futures.mapFailure(
        Futures.start(call),
        failure -> {
          if (failure instanceof CliqueException clique
              && clique.kind() == CliqueException.Kind.NOT_FOUND) {
            return new UnknownResource(uri.text(), "no session with id " + uri.sessionId());
          }
          if (failure instanceof IllegalArgumentException refused) {
            return new UnknownResource(uri.text(), refused.getMessage());
          }
          return failure;
        });
  }

  private static ObjectNode object(JsonNode json) {
    if (json instanceof ObjectNode object) {
      return object;
    }
    throw new IllegalStateException("the engine answered something that is not a JSON object");
  }

  private static ObjectNode described(ObjectNode resource, String title, String description) {
    return resource.put("title", title).put("description", description).put("mimeType", JSON_TYPE);
  }

  private static ObjectNode template(String path, String name, String title, String description) {
    return NODES
        .objectNode()
        .put("uriTemplate", ResourceUri.SESSIONS + "/" + path)
        .put("name", name)
        .put("title", title)
        .put("description", description)
        .put("mimeType", JSON_TYPE);
  }
}
