package dev.clique.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** A session named on the command line: by its id, its name, or the start of its id. */
final class SessionNames {
  private SessionNames() {}

  static JsonNode find(LocalEngine engine, String wanted) throws LocalEngine.Failure {
    JsonNode sessions = engine.get("/api/state").path("sessions");
    for (Predicate<JsonNode> rule :
        List.<Predicate<JsonNode>>of(
            s -> s.path("id").asText().equals(wanted),
            s -> s.path("name").asText().equals(wanted),
            s -> wanted.length() >= 4 && s.path("id").asText().startsWith(wanted))) {
      List<JsonNode> matches = new ArrayList<>();
      sessions.forEach(
          session -> {
            if (rule.test(session)) {
              matches.add(session);
            }
          });
      if (matches.size() == 1) {
        return matches.get(0);
      }
      if (matches.size() > 1) {
        List<String> ids = new ArrayList<>();
        matches.forEach(match -> ids.add(match.path("id").asText()));
        throw new LocalEngine.Failure(
            "'"
                + wanted
                + "' names "
                + matches.size()
                + " sessions ("
                + String.join(", ", ids)
                + "): say which by its id",
            ExitCodes.USAGE);
      }
    }
    throw new LocalEngine.Failure(
        "no session is named '" + wanted + "' or has that id; `clique ls` lists them",
        ExitCodes.NOT_FOUND);
  }

  /** The session's id, made safe for a path of the API. */
  static String path(JsonNode session) {
    return "/api/sessions/"
        + java.net.URLEncoder.encode(
            session.path("id").asText(), java.nio.charset.StandardCharsets.UTF_8);
  }
}
