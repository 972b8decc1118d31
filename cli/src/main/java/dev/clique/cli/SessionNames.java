package dev.clique.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.client.EngineState;
import dev.clique.client.Session;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A session named on the command line: by its id, its name, or the start of its id, by the rule the
 * MCP tools follow too ({@link EngineState#named(String)}).
 */
final class SessionNames {
  private SessionNames() {}

  /** The row of {@code GET /api/state} of the one session {@code wanted} names. */
  static JsonNode find(LocalEngine engine, String wanted) throws LocalEngine.Failure {
    JsonNode state = engine.get("/api/state");
    List<Session> named = EngineState.fromJson(state.toString()).named(wanted);
    if (named.size() > 1) {
      List<String> ids = named.stream().map(Session::id).toList();
      throw new LocalEngine.Failure(
          "'"
              + wanted
              + "' names "
              + named.size()
              + " sessions ("
              + String.join(", ", ids)
              + "): say which by its id",
          ExitCodes.USAGE);
    }
    if (named.isEmpty()) {
      throw new LocalEngine.Failure(
          "no session is named '" + wanted + "' or has that id; `clique ls` lists them",
          ExitCodes.NOT_FOUND);
    }
    // The row as the engine sent it: a command may read what the client's Session does not carry.
    String id = named.get(0).id();
    for (JsonNode row : state.path("sessions")) {
      if (row.path("id").asText().equals(id)) {
        return row;
      }
    }
    throw new IllegalStateException("the session " + id + " left its own state");
  }

  /** The session's id, made safe for a path of the API. */
  static String path(JsonNode session) {
    return "/api/sessions/"
        + URLEncoder.encode(session.path("id").asText(), StandardCharsets.UTF_8);
  }
}
