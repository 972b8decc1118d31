package dev.clique.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code clique adopt NAME}: makes a session found on another tmux server operable where it runs,
 * without moving or restarting it. {@code NAME} is its name or id, or {@code SOCKET:PANE}.
 */
@Command(
    name = "adopt",
    mixinStandardHelpOptions = true,
    description = "Adopt a session found on another tmux server (by name, id or SOCKET:PANE).")
final class AdoptCommand extends LocalCommand {
  @Parameters(
      index = "0",
      paramLabel = "TARGET",
      description = "its name, its id, or SOCKET:%%PANE")
  String target;

  @Override
  int run(LocalEngine engine, PrintWriter out) throws LocalEngine.Failure {
    int colon = target.lastIndexOf(":%");
    Map<String, Object> body =
        colon > 0
            ? Map.of(
                "source",
                Map.of("socket", target.substring(0, colon), "pane", target.substring(colon + 1)))
            : Map.of("id", SessionNames.find(engine, target).path("id").asText());
    JsonNode adopted = engine.post("/api/sessions/adopt", body);
    out.println(adopted.path("id").asText());
    return ExitCodes.OK;
  }
}
