package dev.clique.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.models.AnthropicModelServer;
import dev.clique.models.GeminiModelServer;
import dev.clique.models.OpenAiModelServer;
import dev.clique.models.ScriptedModelServer;
import dev.clique.models.ScriptedModelServer.Step;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The real Claude Code, Codex and Gemini CLI (the versions the conformance suites pin, installed in
 * {@code conformance-tests/agent-clis}) as sessions of an engine, against the suites' scripted
 * model servers on loopback:
 *
 * <ul>
 *   <li>per CLI, the time from the pane first showing its permission prompt (tmux {@code
 *       capture-pane} every {@value #LOOK_MILLIS} ms) to a pending {@code wait ?for=waiting}
 *       answering, on an engine in a JVM of its own;
 *   <li>what {@code clique serve} costs with a mix of the three at their ready prompt, and with a
 *       few of them streaming an answer ({@link RealCliCost}).
 * </ul>
 */
final class RealCliBenchmark implements Benchmark {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** How often the pane is captured while the prompt is awaited. */
  static final long LOOK_MILLIS = 10;

  private static final String CLAUDE_KEY =
      "sk-ant-api03-clique-benchmark-not-a-real-key-0123456789ABCDEFGHIJKL";

  /** Gemini CLI takes an Enter hard on the heels of typed text as a newline. */
  static final long SUBMIT_GAP_MILLIS = 400;

  /**
   * One CLI: its catalogue id, how its session is made, its screens, its model server and how many
   * turns of a person's conversation that server has answered.
   */
  record Cli(
      String id,
      String label,
      String mode,
      Predicate<String> ready,
      String prompt,
      ScriptedModelServer model,
      IntSupplier turns) {}

  /** An engine as the benchmark drives it (its API) and watches it (its tmux server). */
  record Driver(EngineApi api, TmuxSocket tmux) {}

  @Override
  public String name() {
    return "real-clis";
  }

  @Override
  public List<Figure> run(Settings settings) throws Exception {
    Path bin = agentClis(settings);
    Path root = Files.createTempDirectory("clique-bench-clis-");
    try (AnthropicModelServer anthropic = new AnthropicModelServer();
        OpenAiModelServer openai = new OpenAiModelServer();
        GeminiModelServer gemini = new GeminiModelServer()) {
      Path project = Files.createDirectories(root.resolve("workspace").resolve("app"));
      Files.writeString(project.resolve("README.md"), "# app\n");
      Path home = Files.createDirectories(root.resolve("home"));
      Path codexHome = Files.createDirectories(root.resolve("codex-home"));
      writeConfigs(home, codexHome, project, openai);
      Map<String, String> env = environment(bin, home, codexHome, anthropic, openai, gemini);
      List<Cli> clis =
          List.of(
              new Cli(
                  "claude",
                  "Claude Code",
                  "default",
                  s -> s.contains("? for shortcuts"),
                  "Do you want to proceed?",
                  anthropic,
                  () -> anthropic.turns().size()),
              new Cli(
                  "codex",
                  "Codex",
                  "workspace-write",
                  s -> s.contains("? for shortcuts") && !s.contains("Trust this folder?"),
                  "Would you like to run the following command?",
                  openai,
                  () -> openai.mainTurns().size()),
              new Cli(
                  "gemini",
                  "Gemini CLI",
                  null,
                  s -> s.contains("Type your message"),
                  "Allow execution of [Shell]?",
                  gemini,
                  () -> (int) gemini.mainTurns()));
      List<Figure> figures = new ArrayList<>();
      int runs = settings.scale(10, 1);
      try (EngineProcess process = EngineProcess.start(env)) {
        Driver engine = new Driver(process.api, new TmuxSocket(process.socket, Map.of()));
        for (Cli cli : clis) {
          Map<String, Integer> decidedBy = new LinkedHashMap<>();
          Samples lag = promptToWaiting(engine, cli, project, runs, decidedBy);
          figures.add(
              Figure.reference(
                  cli.label() + " permission prompt on the pane -> `wait` answers `waiting`",
                  "ms",
                  lag,
                  runs
                      + " shell calls that ask; the pane captured every "
                      + LOOK_MILLIS
                      + " ms; below 0: `wait` answered before the pane showed it; waiting decided by "
                      + decidedBy));
        }
      }
      figures.addAll(new RealCliCost(settings, clis, project, env).measure());
      return figures;
    } finally {
      delete(root);
    }
  }

  /** {@code conformance-tests/agent-clis/node_modules/.bin} beside the launcher's repository. */
  private static Path agentClis(Settings settings) throws IOException {
    Path bin =
        settings
            .launcher()
            .getParent()
            .getParent()
            .resolve("conformance-tests/agent-clis/node_modules/.bin");
    for (String cli : List.of("claude", "codex", "gemini")) {
      if (!Files.isExecutable(bin.resolve(cli))) {
        throw new IOException(
            "the real "
                + cli
                + " is missing at "
                + bin
                + ": run `npm ci` in conformance-tests/agent-clis (bin/benchmark does)");
      }
    }
    return bin;
  }

  /** The median over {@code runs} of the prompt showing on the pane to {@code wait} answering. */
  private static Samples promptToWaiting(
      Driver engine, Cli cli, Path project, int runs, Map<String, Integer> decidedBy)
      throws Exception {
    String id = engine.api().create(cli.id(), project, "latency-" + cli.id(), cli.mode());
    awaitReady(engine, id, cli);
    List<Double> lags = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      String marker = "bench-" + cli.id() + "-" + i;
      cli.model()
          .then(
              new Step.ShellCall(
                  "echo " + marker + " > ../" + marker + ".txt", "Write a marker beside it?"),
              new Step.Text("Wrote " + marker + "."));
      CompletableFuture<Long> answered =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  JsonNode wait =
                      engine.api().get("/api/sessions/" + id + "/wait?for=waiting&timeout=60");
                  long at = System.nanoTime();
                  if (!wait.path("matched").asBoolean(false)) {
                    throw new IllegalStateException("wait did not match: " + wait);
                  }
                  return at;
                } catch (IOException e) {
                  throw new IllegalStateException(e);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  throw new IllegalStateException(e);
                }
              });
      Thread.sleep(100); // the wait is pending before the prompt goes in
      engine.api().type(id, "Write the marker " + marker);
      Thread.sleep(SUBMIT_GAP_MILLIS);
      engine.api().key(id, "Enter");
      long shown = -1;
      for (int attempt = 0; shown < 0; attempt++) {
        boolean mayRetry = cli.id().equals("gemini") && attempt < 3;
        shown =
            firstShown(
                engine,
                id,
                screen -> screen.contains(cli.prompt()),
                Duration.ofSeconds(mayRetry ? 2 : 60));
        if (shown < 0
            && mayRetry
            && inInputBox(engine.tmux().capture(id), "Write the marker " + marker)) {
          // Gemini CLI busy painting may read the Enter as a newline: again while the text is
          // there.
          engine.api().key(id, "Enter");
        } else if (shown < 0 && !mayRetry) {
          throw new IOException(
              cli.label() + " never asked in run " + i + "; pane:\n" + engine.tmux().capture(id));
        }
      }
      long at = answered.get(60, TimeUnit.SECONDS);
      lags.add((at - shown) / 1e6);
      decidedBy.merge(source(engine, id), 1, Integer::sum);
      Thread.sleep(300); // a prompt just drawn may not take keys yet
      engine.api().key(id, "Enter"); // its first choice: yes, once
      long done = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      long nextEnter = System.nanoTime() + Duration.ofSeconds(2).toNanos();
      while (!Files.exists(project.resolveSibling(marker + ".txt"))
          || !"idle".equals(state(engine, id))) {
        long now = System.nanoTime();
        if (now > done) {
          throw new IOException(
              cli.label() + " did not finish run " + i + "; pane:\n" + engine.tmux().capture(id));
        }
        if (now > nextEnter && engine.tmux().capture(id).contains(cli.prompt())) {
          engine.api().key(id, "Enter"); // a CLI busy drawing let the first one go
          nextEnter = now + Duration.ofSeconds(2).toNanos();
        }
        Thread.sleep(100);
      }
    }
    return Samples.of(lags.stream().mapToDouble(Double::doubleValue).toArray());
  }

  static void awaitReady(Driver engine, String id, Cli cli) throws Exception {
    awaitScreen(engine, id, cli.ready(), Duration.ofSeconds(90));
    engine.api().get("/api/sessions/" + id + "/wait?for=idle&timeout=30");
  }

  /** When the pane first showed {@code shown}, by a capture every {@value #LOOK_MILLIS} ms. */
  private static long awaitScreen(
      Driver engine, String id, Predicate<String> shown, Duration timeout)
      throws IOException, InterruptedException {
    long at = firstShown(engine, id, shown, timeout);
    if (at < 0) {
      throw new IOException(
          "the pane never showed what was awaited; it shows:\n" + engine.tmux().capture(id));
    }
    return at;
  }

  /** As {@link #awaitScreen}, or -1 when {@code timeout} passed first. */
  private static long firstShown(
      Driver engine, String id, Predicate<String> shown, Duration timeout)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      String screen = engine.tmux().capture(id);
      long at = System.nanoTime();
      if (shown.test(screen)) {
        return at;
      }
      if (at > deadline) {
        return -1;
      }
      Thread.sleep(LOOK_MILLIS);
    }
  }

  /** Whether {@code prompt} is still typed in the input box at the bottom of {@code screen}. */
  static boolean inInputBox(String screen, String prompt) {
    List<String> lines = screen.strip().lines().toList();
    return lines.subList(Math.max(0, lines.size() - 6), lines.size()).stream()
        .anyMatch(line -> line.contains("> " + prompt));
  }

  /** The authority of the session's state now: hook, pane, ... */
  private static String source(Driver engine, String id) throws Exception {
    for (JsonNode session : engine.api().get("/api/state").path("sessions")) {
      if (session.path("id").asText().equals(id)) {
        return session.at("/state_source/authority").asText("?");
      }
    }
    return "gone";
  }

  private static String state(Driver engine, String id) throws Exception {
    for (JsonNode session : engine.api().get("/api/state").path("sessions")) {
      if (session.path("id").asText().equals(id)) {
        return session.path("state").asText();
      }
    }
    return "gone";
  }

  /**
   * What the three read at start, as the conformance suites give it: Claude Code with its key
   * approved, onboarding done and the project trusted; Codex with the scripted provider and the
   * project trusted; Gemini CLI with an API key and folder trust off. Nothing reaches off the
   * machine.
   */
  private static void writeConfigs(
      Path home, Path codexHome, Path project, OpenAiModelServer openai) throws IOException {
    ObjectNode claude = JSON.createObjectNode();
    ObjectNode keys = claude.putObject("customApiKeyResponses");
    keys.putArray("approved").add(CLAUDE_KEY.substring(CLAUDE_KEY.length() - 20));
    keys.putArray("rejected");
    claude.put("hasCompletedOnboarding", true);
    claude.put("theme", "dark");
    claude.putObject("projects").putObject(project.toString()).put("hasTrustDialogAccepted", true);
    Files.writeString(home.resolve(".claude.json"), claude.toString());

    Files.writeString(
        codexHome.resolve("config.toml"),
        openai.codexConfig("")
            + """

        [projects."%s"]
        trust_level = "trusted"
        """
                .formatted(project));

    Path gemini = Files.createDirectories(home.resolve(".gemini"));
    Files.writeString(
        gemini.resolve("settings.json"),
        """
        {
          "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
          "privacy": {"usageStatisticsEnabled": false},
          "telemetry": {"enabled": false},
          "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
          "ide": {"enabled": false}
        }
        """);
  }

  private static Map<String, String> environment(
      Path bin,
      Path home,
      Path codexHome,
      AnthropicModelServer anthropic,
      OpenAiModelServer openai,
      GeminiModelServer gemini) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", bin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    env.put("HOME", home.toString());
    String lang = System.getenv("LANG");
    env.put("LANG", lang != null && lang.toUpperCase().contains("UTF-8") ? lang : "C.UTF-8");
    env.put("ANTHROPIC_BASE_URL", anthropic.url());
    env.put("ANTHROPIC_API_KEY", CLAUDE_KEY);
    env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    env.put("CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL", "1");
    env.put("DISABLE_AUTOUPDATER", "1");
    env.put("DISABLE_TELEMETRY", "1");
    env.put("DISABLE_ERROR_REPORTING", "1");
    env.put("CODEX_HOME", codexHome.toString());
    env.put("SCRIPTED_OPENAI_KEY", "sk-scripted-not-a-key");
    env.put("GEMINI_API_KEY", "fake-key-for-a-scripted-model");
    env.put("GOOGLE_GEMINI_BASE_URL", gemini.url());
    env.put("NO_BROWSER", "true");
    // The one fetch Codex makes that no setting stops goes to a port where nothing listens.
    for (String proxy : List.of("HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy")) {
      env.put(proxy, "http://127.0.0.1:9");
    }
    env.put("NO_PROXY", "127.0.0.1,localhost");
    env.put("no_proxy", "127.0.0.1,localhost");
    return env;
  }

  /**
   * Deletes the benchmark's homes; a CLI that its pane's end did not stop at once may still write
   * there, so a few tries, and what is left is said, not fatal.
   */
  private static void delete(Path root) throws InterruptedException {
    for (int attempt = 0; ; attempt++) {
      try (Stream<Path> paths = Files.walk(root)) {
        for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(path);
        }
        return;
      } catch (IOException e) {
        if (attempt == 4) {
          System.err.println("benchmark: left " + root + " behind: " + e);
          return;
        }
        Thread.sleep(1_000);
      }
    }
  }
}
