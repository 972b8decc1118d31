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

  @Option(
      names = "--name",
      description = "the session's name (default: the CLI and the start of its id, as shell-3f2b)")
  String name;

  @Option(names = "--mode", description = "the CLI's mode, as its catalogue entry names them")
  String mode;

  @Override
  int run(LocalEngine engine, PrintWriter out) throws LocalEngine.Failure {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("cli", cli);
    body.put("cwd", dir.toAbsolutePath().normalize().toString());
    body.put("name", name);
    body.put("mode", mode);
    JsonNode created = engine.post("/api/sessions", body);
    String id = created.path("id").asText();
    out.println(id); // alone on stdout: id=$(clique new shell .)
    PrintWriter err = spec.commandLine().getErr();
    err.println("attach with: clique attach " + (name != null ? name : id));
    err.flush();
    return ExitCodes.OK;
  }
}
