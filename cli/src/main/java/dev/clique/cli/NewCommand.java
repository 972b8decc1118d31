package dev.clique.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code clique new CLI [DIR]}: starts a session in the running engine. */
@Command(
    name = "new",
    mixinStandardHelpOptions = true,
    description = "Start a session of a CLI (claude, codex, gemini, shell, ...) in a folder.")
final class NewCommand extends LocalCommand {
  @Parameters(index = "0", paramLabel = "CLI", description = "the CLI, as `clique ls` names them")
  String cli;

  @Parameters(index = "1", paramLabel = "DIR", defaultValue = ".", description = "its folder")
  Path dir;

  @Option(names = "--name", description = "the session's name (default: the CLI and the folder)")
  String name;

  @Option(names = "--mode", description = "the CLI's mode, as its catalogue entry names them")
  String mode;

  @Override
  int run(LocalEngine engine, PrintWriter out) throws LocalEngine.Failure {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("cli", cli);
    spec.put("cwd", dir.toAbsolutePath().normalize().toString());
    spec.put("name", name);
    spec.put("mode", mode);
    JsonNode created = engine.post("/api/sessions", spec);
    String id = created.path("id").asText();
    out.println(id);
    out.println("attach with: clique attach " + (name != null ? name : id));
    return ExitCodes.OK;
  }
}
