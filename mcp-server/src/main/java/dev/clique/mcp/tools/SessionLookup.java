package dev.clique.mcp.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.client.CliqueClient;
import dev.clique.client.CliqueException;
import dev.clique.client.EngineState;
import dev.clique.client.Session;
import dev.clique.mcp.protocol.Futures;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A tool's {@code id}, which may be a session's name: the human commands take one, and an assistant
 * that read a name in {@code list_sessions} tries it. The id is tried first and costs what it
 * always did. Only when the engine has no session with that id is the list read, once, and the word
 * resolved by the rule of the human commands ({@link EngineState#named(String)}): one session
 * answers, the result saying which id it resolved to ({@code resolved}); several are a tool error
 * naming each; none, the not-found error saying it is neither an id nor a name.
 */
final class SessionLookup {
  private SessionLookup() {}

  /**
   * {@code read} of the session {@code given} names: {@code read(given)}, or when the engine has no
   * session with that id (404, or 400 for an id it cannot take), {@code read} of the id of the one
   * session it names.
   *
   * @param read the tool's read of a session by its id, as the tree of the engine's answer
   */
  static CompletableFuture<CallToolResult> read(
      CliqueClient client, String given, Function<String, CompletableFuture<JsonNode>> read) {
    CompletableFuture<CallToolResult> byId =
        Futures.map(Futures.start(() -> read.apply(given)), ToolResults::ok);
    CompletableFuture<CallToolResult> answered =
        Futures.orElse(
            byId,
            failure ->
                namesNoSession(failure)
                    ? byName(client, given, read, failure)
                    : CompletableFuture.failedFuture(failure));
    return Futures.recover(answered, ToolErrors::from);
  }

  private static CompletableFuture<CallToolResult> byName(
      CliqueClient client,
      String given,
      Function<String, CompletableFuture<JsonNode>> read,
      Throwable notFound) {
    return Futures.then(
        Futures.start(client::listingAsync),
        listing -> {
          Session session;
          try {
            session = theOne(listing, given, notFound.getMessage());
          } catch (ToolArgumentException e) {
            return CompletableFuture.failedFuture(e);
          }
          if (session.id().equals(given)) {
            // An id after all (it came since, or its engine lacks the route): the 404 stands.
            return CompletableFuture.failedFuture(notFound);
          }
          return Futures.map(
              Futures.start(() -> read.apply(session.id())),
              answer -> resolved(answer, given, session));
        });
  }

  /**
   * The one session of {@code state} that {@code given} names.
   *
   * @param notFound the sentence that says the engine has no session with that id
   * @throws ToolArgumentException when it names several (the error names each) or none
   */
  static Session theOne(EngineState state, String given, String notFound)
      throws ToolArgumentException {
    List<Session> named = state.named(given);
    if (named.isEmpty()) {
      throw new ToolArgumentException(notFound(notFound, given));
    }
    if (named.size() > 1) {
      StringBuilder message = new StringBuilder("'").append(given).append("' ");
      message.append(named.get(0).name().equals(given) ? "is the name of " : "starts the id of ");
      message.append(named.size()).append(" sessions: ");
      for (int i = 0; i < named.size(); i++) {
        Session each = named.get(i);
        message.append(i == 0 ? "" : "; ").append(each.id()).append(" (").append(each.cli());
        each.folder().ifPresent(folder -> message.append(", folder ").append(folder));
        message.append(", in ").append(each.cwd()).append(')');
      }
      throw new ToolArgumentException(message.append(". Pass one of these ids as id.").toString());
    }
    return named.get(0);
  }

  /**
   * {@code answer}, the answer for {@code session}, saying that {@code given} was resolved to it:
   * in the structure ({@code resolved}) and in a text block of its own.
   */
  static CallToolResult resolved(JsonNode answer, String given, Session session) {
    if (session.id().equals(given) || !(answer instanceof ObjectNode object)) {
      return ToolResults.ok(answer);
    }
    boolean byName = session.name().equals(given);
    ObjectNode resolved = object.putObject("resolved");
    resolved.put("given", given);
    resolved.put("by", byName ? "name" : "id prefix");
    resolved.put("id", session.id());
    String said = byName ? "name '" + given + "'" : "'" + given + "' (the start of an id)";
    return ToolResults.ok(object, "resolved " + said + " to session " + session.id());
  }

  /**
   * Whether the engine said no session has {@code given} as its id: a 404, or a 400 for a path
   * segment it will not take (a name with a {@code /} in it, sent as {@code %2F}); a tool checks
   * its other arguments before it calls.
   */
  private static boolean namesNoSession(Throwable failure) {
    return failure instanceof CliqueException clique
        && (clique.kind() == CliqueException.Kind.NOT_FOUND || clique.status().orElse(-1) == 400);
  }

  private static String notFound(String notFound, String given) {
    return notFound
        + "; '"
        + given
        + "' is neither a session's id nor a session's name: call list_sessions to see each"
        + " session's id and name";
  }
}
