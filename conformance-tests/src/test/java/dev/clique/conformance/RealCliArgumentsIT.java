package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.hooks.HookDialect;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The catalogue's arguments, as the pinned real CLIs take them: every mode of every CLI that has
 * modes, in both the starting and the resuming arguments, is given to the real CLI's own argument
 * parser, which must accept it. A mode no CLI has is given too, and must be refused: the check
 * tells the two apart.
 *
 * <p>Each CLI is asked in the way that stops right after its parser, offline and at once: Claude
 * Code with {@code -p} and no input (its parser rejects unknown options and modes, then it says
 * input is needed, finds no session to resume, or refuses {@code bypassPermissions} to root), Codex
 * and GitHub Copilot CLI with {@code --help} at the end (each parses and checks every value before
 * it), Gemini CLI with no key (yargs checks every value, then it asks for an auth method, or finds
 * no session to resume), Qwen Code with no provider and stdin closed (yargs again: then it finds no
 * auth type for a run without a terminal, or no session to resume). opencode with {@code run hi}
 * after them (it checks the session, then names the agent it runs as, or warns that it has no such
 * agent and falls back to its default; the model it then asks is a closed port on loopback, and the
 * run is ended once the agent is named). Every run has its own home, empty but for what opencode
 * needs offline: a provider on loopback, and for a resume the session it resumes, imported with
 * opencode's own {@code import}.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
// Four CLIs, a dozen runs each; Qwen Code's start alone takes 8 to 17 s on a loaded 2-core machine.
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class RealCliArgumentsIT {
  private static final String UNKNOWN_MODE = "no-such-mode";
  private static final Duration RUN = Duration.ofSeconds(45);

  /**
   * How each pinned CLI is asked, what it prints when its parser accepted the arguments, and what
   * shows that it is past its parser (it is then ended rather than waited for).
   */
  private record Probe(List<String> extra, Predicate<String> accepted, Predicate<String> settled) {
    Probe(List<String> extra, Predicate<String> accepted) {
      this(extra, accepted, out -> false);
    }
  }

  private static final String OPENCODE_FALLBACK = "not found. Falling back to default agent";

  private static final Map<String, Probe> PROBES =
      Map.of(
          "claude",
          new Probe(
              List.of("-p"),
              out ->
                  (out.contains("Input must be provided either through stdin or as a prompt")
                          || out.contains("No conversation found with session ID")
                          // bypassPermissions, parsed, then refused to a root user (CI is root)
                          || out.contains("cannot be used with root/sudo privileges"))
                      && !out.contains("error:")),
          "codex",
          new Probe(
              List.of("--help"), out -> out.contains("Usage: codex") && !out.contains("error:")),
          "copilot",
          new Probe(
              List.of("--help"), out -> out.contains("Usage: copilot") && !out.contains("error:")),
          "gemini",
          new Probe(
              List.of(),
              out ->
                  (out.contains("Please set an Auth method")
                          || out.contains("Error resuming session"))
                      && !out.contains("Invalid values")
                      && !out.contains("Unknown argument")),
          "qwen",
          new Probe(
              List.of(),
              out ->
                  (out.contains("No auth type is selected")
                          || out.contains("No saved session found with ID"))
                      && !out.contains("Invalid values")
                      && !out.contains("Unknown argument")),
          "opencode",
          new Probe(
              List.of("run", "hi"),
              out -> out.contains("> ") && out.contains(" · ") && !out.contains(OPENCODE_FALLBACK),
              out -> (out.contains("> ") && out.contains(" · ")) || out.contains("Error:")));

  private final SoftAssertions softly = new SoftAssertions();
  private Path scratch;

  @BeforeEach
  void setUp() throws IOException {
    scratch = Files.createTempDirectory("clique-it-args-");
  }

  @AfterEach
  void tearDown() throws IOException {
    ThrowawayEngine.deleteTree(scratch);
  }

  @Test
  void everyModeOfEveryCliIsTakenByThePinnedRealCli() throws Exception {
    CliCatalogue catalogue = CliCatalogue.load(null, Map.of("PATH", AgentClis.path()));
    List<String> withModes = new ArrayList<>();
    for (CliDefinition cli : catalogue.all()) {
      if (cli.hasModes()) {
        withModes.add(cli.id());
      }
    }
    assertThat(PROBES.keySet())
        .as("every CLI with modes has a pinned real CLI to check them against")
        .containsExactlyInAnyOrderElementsOf(withModes);

    Map<String, String> table = new LinkedHashMap<>();
    for (String id : withModes) {
      CliDefinition cli = catalogue.find(id).orElseThrow();
      Path binary = AgentClis.bin().resolve(cli.command());
      for (boolean resume : new boolean[] {false, true}) {
        for (String mode : cli.modes()) {
          Run run = run(cli, binary, mode, resume);
          table.put(run.label(), run.accepted() ? "accepted" : "REFUSED");
          softly
              .assertThat(run.accepted())
              .as("%s was accepted; it printed:%n%s", run.label(), run.output())
              .isTrue();
        }
        Run unknown = run(cli, binary, UNKNOWN_MODE, resume);
        table.put(unknown.label(), unknown.accepted() ? "ACCEPTED" : "refused");
        softly
            .assertThat(unknown.accepted())
            .as("%s was refused; it printed:%n%s", unknown.label(), unknown.output())
            .isFalse();
      }
    }
    table.forEach((run, verdict) -> System.err.println("cli-args | " + run + " | " + verdict));
    softly.assertAll();
  }

  private record Run(String label, String output, boolean accepted) {}

  private Run run(CliDefinition cli, Path binary, String mode, boolean resume) throws Exception {
    String id = UUID.randomUUID().toString();
    Path home = Files.createDirectories(scratch.resolve(cli.id() + "-" + id));
    Path cwd = Files.createDirectories(home.resolve("project"));
    Map<String, String> values = new HashMap<>();
    values.put("id", id);
    values.put("name", "args");
    values.put("cwd", cwd.toString());
    values.put("mode", mode);
    values.put("cli_session_id", cli.id().equals("opencode") ? "ses_" + id.replace("-", "") : id);
    Optional<HookDialect> hooks = HookDialect.named(cli.hooks());
    values.put(
        "hook_settings",
        hooks.isEmpty()
            ? ""
            : hooks
                .get()
                .install("http://127.0.0.1:9/api/sessions/" + id + "/hook", home.resolve("hooks"))
                .argument());
    List<String> argv = new ArrayList<>(cli.launchArgv(binary, values, resume));
    argv.addAll(PROBES.get(cli.id()).extra());
    Map<String, String> env = new HashMap<>();
    env.put("PATH", AgentClis.path());
    env.put("HOME", home.toString());
    env.put("TERM", "dumb");
    env.put("NO_BROWSER", "true");
    if (cli.id().equals("opencode")) {
      env.putAll(opencodeOffline(home, cwd, resume ? values.get("cli_session_id") : null, binary));
    }
    Probe probe = PROBES.get(cli.id());
    try (Spawned process = Spawned.start(argv, env, cwd)) {
      process.closeStdin();
      long deadline = System.nanoTime() + RUN.toNanos();
      while (process.alive()
          && !probe.settled().test(process.stdout() + process.stderr())
          && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      if (!process.alive()) {
        process.waitFor(RUN);
      }
      String output = process.stdout() + process.stderr();
      String label = cli.id() + (resume ? " resume" : "") + " --mode " + mode;
      return new Run(label, output, probe.accepted().test(output));
    }
  }

  /**
   * opencode's offline setup in {@code home}: its Anthropic provider on a closed loopback port, its
   * config folder holding its plugin package as installed (so it fetches nothing from npm), and the
   * session to resume, imported; its variables.
   */
  private static Map<String, String> opencodeOffline(
      Path home, Path cwd, String session, Path binary) throws Exception {
    Path config =
        Files.createDirectories(home.resolve(".config/opencode/node_modules")).getParent();
    Files.writeString(
        config.resolve("opencode.json"),
        "{\"model\": \"anthropic/claude-scripted\", \"small_model\": \"anthropic/claude-scripted\","
            + " \"provider\": {\"anthropic\": {\"options\": {\"baseURL\": \"http://127.0.0.1:9/v1\","
            + " \"apiKey\": \"sk-ant-fake\"}, \"models\": {\"claude-scripted\": {\"name\": \"Claude"
            + " Scripted\", \"tool_call\": true, \"limit\": {\"context\": 200000, \"output\":"
            + " 8192}}}}}}");
    Files.writeString(
        config.resolve("package.json"),
        "{\"dependencies\": {\"@opencode-ai/plugin\": \"1.18.33\"}}");
    Files.writeString(
        config.resolve("package-lock.json"),
        "{\"packages\": {\"\": {\"dependencies\": {\"@opencode-ai/plugin\": \"1.18.33\"}}}}");
    Map<String, String> env = new HashMap<>();
    env.put("OPENCODE_DISABLE_MODELS_FETCH", "1");
    env.put("OPENCODE_DISABLE_AUTOUPDATE", "1");
    env.put("OPENCODE_DISABLE_DEFAULT_PLUGINS", "1");
    env.put("OPENCODE_DISABLE_LSP_DOWNLOAD", "1");
    env.put("OPENCODE_DISABLE_SHARE", "1");
    env.put("npm_config_registry", "http://127.0.0.1:9/");
    env.put("npm_config_offline", "true");
    if (session != null) {
      Path exported = home.resolve("session.json");
      Files.writeString(
          exported,
          "{\"info\": {\"id\": \""
              + session
              + "\", \"slug\": \"args\", \"projectID\": \"global\", \"directory\": \""
              + cwd
              + "\", \"title\": \"args\", \"version\": \"1.18.33\", \"time\": {\"created\": 1,"
              + " \"updated\": 1}}, \"messages\": []}");
      Map<String, String> importEnv = new HashMap<>(env);
      importEnv.put("PATH", AgentClis.path());
      importEnv.put("HOME", home.toString());
      try (Spawned imported =
          Spawned.start(
              List.of(binary.toString(), "import", exported.toString()), importEnv, cwd)) {
        imported.closeStdin();
        imported.waitFor(RUN);
        assertThat(imported.stdout() + imported.stderr())
            .as("opencode imported the session to resume")
            .contains("Imported session: " + session);
      }
    }
    return env;
  }
}
