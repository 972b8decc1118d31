package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.models.AnthropicModelServer;
import dev.clique.models.GeminiModelServer;
import dev.clique.models.OpenAiModelServer;
import dev.clique.models.ScriptedModelServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real CLIs as MCP clients of {@code clique mcp}, headless, set up as the README says: the
 * scripted model calls all five tools (and one of them with an id no session has), and the model
 * server's log shows what the CLI passed back as each tool's result.
 *
 * <p>The engine is a {@code clique serve} with one shell session; {@code clique mcp --embedded}
 * runs on the same {@code CLIQUE_HOME} and tmux socket (two engines on one home list the same
 * sessions), {@code clique mcp} talks to it with a read-only token.
 */
class RealMcpClientsIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Not a key: only loopback's scripted model ever sees it. */
  private static final String ANTHROPIC_KEY =
      "sk-ant-api03-clique-conformance-not-a-real-key-0123456789ABCDEFGHIJ";

  private static final List<String> FIVE =
      List.of("list_sessions", "get_session", "wait", "preview_pane", "conversation");

  private static RealThings before;
  private static ThrowawayEngine.WithShell shell;

  @BeforeAll
  static void engineWithAShell() throws Exception {
    before = RealThings.look();
    shell = ThrowawayEngine.startWithShell("mcp-clients");
  }

  @AfterAll
  static void cleanUp() throws Exception {
    shell.engine().close();
    assertThat(RealThings.look()).isEqualTo(before);
  }

  /** One tool result as the CLI handed it back to the model. */
  record Passed(String tool, String text, boolean isError) {}

  /** How clique mcp is started: its arguments and the variables it gets beyond the CLI's own. */
  private record Server(List<String> args, Map<String, String> env) {}

  private static Server embedded() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("CLIQUE_HOME", shell.engine().home.toString());
    env.put("CLIQUE_TMUX_SOCKET", shell.engine().socket);
    return new Server(List.of("mcp", "--embedded"), env);
  }

  private static Server againstServe() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("CLIQUE_URL", shell.engine().url);
    env.put("CLIQUE_TOKEN", shell.reader());
    return new Server(List.of("mcp"), env);
  }

  /** The calls the scripted model makes, in order, by clique's tool names. */
  private static List<String[]> calls() {
    String id = shell.sessionId();
    return List.of(
        new String[] {"list_sessions", "{}"},
        new String[] {"get_session", "{\"id\":\"" + id + "\"}"},
        new String[] {"wait", "{\"id\":\"" + id + "\",\"timeout\":2}"},
        new String[] {"preview_pane", "{\"id\":\"" + id + "\",\"lines\":5}"},
        new String[] {"conversation", "{\"id\":\"" + id + "\"}"},
        new String[] {"get_session", "{\"id\":\"no-such-session\"}"});
  }

  /** What every CLI must have passed back, in the order the model called. */
  private static void assertEveryResult(List<Passed> passed) throws Exception {
    String id = shell.sessionId();
    assertThat(passed).extracting(Passed::tool).containsSubsequence(FIVE);
    List<Passed> clique = passed.stream().filter(p -> FIVE.contains(p.tool())).toList();
    assertThat(clique).as("one result per call: " + passed).hasSize(6);
    for (Passed result : clique.subList(0, 5)) {
      assertThat(result.isError()).as(result.toString()).isFalse();
    }
    assertThat(clique.get(0).text()).as("list_sessions").contains(id);
    assertThat(sessionsIn(JSON.readTree(clique.get(0).text())))
        .as("list_sessions, as the structure or as its array")
        .anyMatch(s -> s.path("id").asText().equals(id));
    assertThat(JSON.readTree(clique.get(1).text()).path("id").asText())
        .as("get_session")
        .isEqualTo(id);
    JsonNode waited = JSON.readTree(clique.get(2).text());
    assertThat(waited.path("id").asText()).as("wait").isEqualTo(id);
    assertThat(waited.path("state").asText()).isIn("idle", "working");
    assertThat(JSON.readTree(clique.get(3).text()).path("lines").isArray())
        .as("preview_pane")
        .isTrue();
    assertThat(JSON.readTree(clique.get(4).text()).path("turns").isArray())
        .as("conversation")
        .isTrue();
    Passed unknown = clique.get(5);
    assertThat(unknown.isError()).as("get_session of an unknown id: " + unknown).isTrue();
    assertThat(unknown.text()).contains("no session with id no-such-session");
  }

  private static List<JsonNode> sessionsIn(JsonNode listed) {
    List<JsonNode> rows = new ArrayList<>();
    (listed.isArray() ? listed : listed.path("sessions")).forEach(rows::add);
    return rows;
  }

  // --- Claude Code ---------------------------------------------------------------------------

  @Test
  void claudeCodeCallsEveryToolOfCliqueMcpEmbeddedAndPassesBackEachResult() throws Exception {
    assertEveryResult(claudeCode("embedded", embedded()));
  }

  @Test
  void claudeCodeCallsEveryToolOfCliqueMcpAgainstCliqueServe() throws Exception {
    assertEveryResult(claudeCode("serve", againstServe()));
  }

  /**
   * {@code claude -p} with the server in {@code --mcp-config} and {@code --allowedTools
   * mcp__clique__*}. Claude Code defers MCP tools behind its tool search, so the model first loads
   * their schemas (as a model does), then calls each.
   */
  private static List<Passed> claudeCode(String name, Server server) throws Exception {
    Path home = Files.createDirectories(shell.engine().home.resolve("claude-" + name));
    Path project = Files.createDirectories(home.resolve("project"));
    ObjectNode config = JSON.createObjectNode();
    ObjectNode clique = config.putObject("mcpServers").putObject("clique");
    clique.put("command", Launcher.script().toString());
    server.args().forEach(clique.putArray("args")::add);
    ObjectNode env = clique.putObject("env");
    server.env().forEach(env::put);
    Path mcpConfig = home.resolve("mcp.json");
    Files.writeString(mcpConfig, JSON.writeValueAsString(config));

    try (AnthropicModelServer model = new AnthropicModelServer()) {
      List<String> names = new ArrayList<>();
      FIVE.forEach(tool -> names.add("mcp__clique__" + tool));
      model.then(
          new ScriptedModelServer.Step.ToolCall(
              "ToolSearch",
              "{\"query\":\"select:" + String.join(",", names) + "\",\"max_results\":5}"));
      for (String[] call : calls()) {
        model.then(new ScriptedModelServer.Step.ToolCall("mcp__clique__" + call[0], call[1]));
      }
      model.then(new ScriptedModelServer.Step.Text("Done."));

      Map<String, String> cliEnv = new LinkedHashMap<>();
      cliEnv.put("HOME", home.toString());
      cliEnv.put("PATH", AgentClis.path());
      cliEnv.put("LANG", "C.UTF-8");
      String javaHome = System.getenv("JAVA_HOME");
      if (javaHome != null) {
        cliEnv.put("JAVA_HOME", javaHome);
      }
      cliEnv.put("ANTHROPIC_BASE_URL", model.url());
      cliEnv.put("ANTHROPIC_API_KEY", ANTHROPIC_KEY);
      cliEnv.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
      cliEnv.put("CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL", "1");
      cliEnv.put("DISABLE_AUTOUPDATER", "1");
      cliEnv.put("DISABLE_TELEMETRY", "1");
      cliEnv.put("DISABLE_ERROR_REPORTING", "1");
      List<String> command =
          List.of(
              AgentClis.bin().resolve("claude").toString(),
              "-p",
              "Look at the coding sessions clique shows.",
              "--mcp-config",
              mcpConfig.toString(),
              "--strict-mcp-config",
              "--allowedTools",
              "mcp__clique__*",
              "--output-format",
              "json");
      try (Spawned claude = Spawned.start(command, cliEnv, project)) {
        claude.closeStdin(); // the prompt is the argument; nothing more comes on stdin
        int code = claude.waitFor(Duration.ofSeconds(120));
        assertThat(code).as("claude -p: " + claude.stderr() + claude.stdout()).isZero();
        JsonNode outcome = JSON.readTree(claude.stdout());
        assertThat(outcome.path("is_error").asBoolean(true)).as(outcome.toString()).isFalse();
        assertThat(outcome.path("permission_denials").size())
            .as("mcp__clique__* allowed: " + outcome.path("permission_denials"))
            .isZero();
        assertThat(outcome.path("result").asText()).isEqualTo("Done.");
      }
      List<AnthropicModelServer.Received> turns = model.turns();
      String first = turns.get(0).body();
      for (String tool : names) {
        assertThat(first).as("the model hears of " + tool + " up front").contains(tool);
      }
      return passedBackByClaude(JSON.readTree(turns.get(turns.size() - 1).body()));
    }
  }

  /** The tool results of the last turn's conversation, each with the name of its call. */
  private static List<Passed> passedBackByClaude(JsonNode lastTurn) {
    Map<String, String> called = new LinkedHashMap<>();
    List<Passed> passed = new ArrayList<>();
    for (JsonNode message : lastTurn.path("messages")) {
      for (JsonNode block : message.path("content")) {
        String type = block.path("type").asText();
        if (type.equals("tool_use")) {
          called.put(block.path("id").asText(), block.path("name").asText());
        } else if (type.equals("tool_result")) {
          String tool = called.getOrDefault(block.path("tool_use_id").asText(), "?");
          passed.add(
              new Passed(
                  tool.replaceFirst("^mcp__clique__", ""),
                  textOf(block.path("content")),
                  block.path("is_error").asBoolean(false)));
        }
      }
    }
    System.out.println("[claude] passed back: " + passed);
    return passed;
  }

  /** A tool result's content: a string, or text blocks. */
  private static String textOf(JsonNode content) {
    if (content.isTextual()) {
      return content.asText();
    }
    StringBuilder text = new StringBuilder();
    content.forEach(block -> text.append(block.path("text").asText()));
    return text.toString();
  }

  // --- Codex ---------------------------------------------------------------------------------

  @Test
  void codexCallsEveryToolOfCliqueMcpEmbeddedAndPassesBackEachResult() throws Exception {
    assertEveryResult(codex("embedded", embedded()));
  }

  @Test
  void codexCallsEveryToolOfCliqueMcpAgainstCliqueServe() throws Exception {
    assertEveryResult(codex("serve", againstServe()));
  }

  /**
   * {@code codex exec} with clique in its throwaway {@code CODEX_HOME}'s config.toml as {@code
   * [mcp_servers.clique]} with {@code required = true}, the model its scripted provider.
   */
  private static List<Passed> codex(String name, Server server) throws Exception {
    Path home = Files.createDirectories(shell.engine().home.resolve("codex-" + name));
    Path codexHome = Files.createDirectories(home.resolve("codex-home"));
    Path project = Files.createDirectories(home.resolve("project"));
    try (OpenAiModelServer model = new OpenAiModelServer()) {
      StringBuilder env = new StringBuilder();
      server
          .env()
          .forEach(
              (key, value) ->
                  env.append(env.length() == 0 ? "" : ", ")
                      .append(key)
                      .append(" = ")
                      .append(toml(value)));
      String config =
          model.codexConfig("")
              + """

          [mcp_servers.clique]
          command = %s
          args = [%s]
          required = true
          env = { %s }
          """
                  .formatted(
                      toml(Launcher.script().toString()),
                      String.join(
                          ", ", server.args().stream().map(RealMcpClientsIT::toml).toList()),
                      env);
      Files.writeString(codexHome.resolve("config.toml"), config);
      for (String[] call : calls()) {
        model.then(new ScriptedModelServer.Step.ToolCall(call[0], call[1]));
      }
      model.then(new ScriptedModelServer.Step.Text("Done."));

      Map<String, String> cliEnv = new LinkedHashMap<>();
      cliEnv.put("HOME", home.toString());
      cliEnv.put("CODEX_HOME", codexHome.toString());
      cliEnv.put("PATH", AgentClis.path());
      cliEnv.put("LANG", "C.UTF-8");
      String javaHome = System.getenv("JAVA_HOME");
      if (javaHome != null) {
        cliEnv.put("JAVA_HOME", javaHome);
      }
      cliEnv.put("SCRIPTED_OPENAI_KEY", "sk-scripted-not-a-key");
      List<String> command =
          List.of(
              AgentClis.bin().resolve("codex").toString(),
              "exec",
              "--skip-git-repo-check",
              "Look at the coding sessions clique shows.");
      try (Spawned codex = Spawned.start(command, cliEnv, project)) {
        codex.closeStdin(); // codex exec reads a piped stdin to its end, as more of the prompt
        int code = codex.waitFor(Duration.ofSeconds(120));
        assertThat(code).as("codex exec: " + codex.stderr() + codex.stdout()).isZero();
        assertThat(codex.stdout()).contains("Done.");
      }
      List<ScriptedModelServer.Received> turns =
          model.received().stream().filter(OpenAiModelServer::mainTurn).toList();
      String first = turns.get(0).body();
      assertThat(first)
          .as("clique's tools are in the first model request")
          .contains("\"mcp__clique\"");
      for (String tool : FIVE) {
        assertThat(first).contains("\"" + tool + "\"");
      }
      return passedBackByCodex(JSON.readTree(turns.get(turns.size() - 1).body()));
    }
  }

  /** The function outputs of the last turn's input, each with the name of its call. */
  private static List<Passed> passedBackByCodex(JsonNode lastTurn) {
    Map<String, String> called = new LinkedHashMap<>();
    List<Passed> passed = new ArrayList<>();
    for (JsonNode item : lastTurn.path("input")) {
      String type = item.path("type").asText();
      if (type.equals("function_call")) {
        called.put(item.path("call_id").asText(), item.path("name").asText());
      } else if (type.equals("function_call_output")) {
        JsonNode output = item.path("output");
        String text = output.isTextual() ? output.asText() : textOf(output);
        // Codex prefixes the tool's text with how long the call took, and flags no error to the
        // model: an error is a result that is not clique's JSON.
        String result = text.replaceFirst("^Wall time: [0-9.]+ seconds\n", "");
        result = result.replaceFirst("^Output:\n?", "");
        passed.add(
            new Passed(
                called.getOrDefault(item.path("call_id").asText(), "?"),
                result,
                !result.startsWith("{")));
      }
    }
    System.out.println("[codex] passed back: " + passed);
    return passed;
  }

  private static String toml(String value) {
    return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  // --- Gemini CLI ----------------------------------------------------------------------------

  @Test
  void geminiCliCallsEveryToolOfCliqueMcpEmbeddedAndPassesBackEachResult() throws Exception {
    assertEveryResult(gemini("embedded", embedded()));
  }

  @Test
  void geminiCliCallsEveryToolOfCliqueMcpAgainstCliqueServe() throws Exception {
    assertEveryResult(gemini("serve", againstServe()));
  }

  /**
   * {@code gemini -p} with clique in its throwaway {@code ~/.gemini/settings.json} as {@code
   * mcpServers.clique} with {@code "trust": true}.
   */
  private static List<Passed> gemini(String name, Server server) throws Exception {
    Path home = Files.createDirectories(shell.engine().home.resolve("gemini-" + name));
    Path project = Files.createDirectories(home.resolve("project"));
    Path settings = Files.createDirectories(home.resolve(".gemini")).resolve("settings.json");
    ObjectNode config = JSON.createObjectNode();
    config.putObject("security").putObject("auth").put("selectedType", "gemini-api-key");
    ((ObjectNode) config.get("security")).putObject("folderTrust").put("enabled", false);
    config.putObject("privacy").put("usageStatisticsEnabled", false);
    config.putObject("telemetry").put("enabled", false);
    config
        .putObject("general")
        .put("enableAutoUpdate", false)
        .put("enableAutoUpdateNotification", false);
    config.putObject("ide").put("enabled", false);
    ObjectNode clique = config.putObject("mcpServers").putObject("clique");
    clique.put("command", Launcher.script().toString());
    server.args().forEach(clique.putArray("args")::add);
    ObjectNode env = clique.putObject("env");
    server.env().forEach(env::put);
    clique.put("trust", true);
    Files.writeString(settings, JSON.writeValueAsString(config));

    try (GeminiModelServer model = new GeminiModelServer()) {
      for (String[] call : calls()) {
        model.then(new ScriptedModelServer.Step.ToolCall(call[0], call[1]));
      }
      model.then(new ScriptedModelServer.Step.Text("Done."));
      Map<String, String> cliEnv = new LinkedHashMap<>();
      cliEnv.put("HOME", home.toString());
      cliEnv.put("PATH", AgentClis.path());
      cliEnv.put("LANG", "C.UTF-8");
      String javaHome = System.getenv("JAVA_HOME");
      if (javaHome != null) {
        cliEnv.put("JAVA_HOME", javaHome);
      }
      cliEnv.put("GEMINI_API_KEY", "fake-key-for-a-scripted-model");
      cliEnv.put("GOOGLE_GEMINI_BASE_URL", model.url());
      cliEnv.put("NO_BROWSER", "true");
      List<String> command =
          List.of(
              AgentClis.bin().resolve("gemini").toString(),
              "-p",
              "Look at the coding sessions clique shows.");
      try (Spawned gemini = Spawned.start(command, cliEnv, project)) {
        gemini.closeStdin();
        int code = gemini.waitFor(Duration.ofSeconds(120));
        assertThat(code).as("gemini -p: " + gemini.stderr() + gemini.stdout()).isZero();
        assertThat(gemini.stdout()).contains("Done.");
      }
      List<ScriptedModelServer.Received> turns =
          model.received().stream().filter(GeminiModelServer::isMainTurn).toList();
      String first = turns.get(0).body();
      for (String tool : FIVE) {
        assertThat(first).as(tool + " is offered to the model").contains(tool + "\"");
      }
      return passedBackByGemini(JSON.readTree(turns.get(turns.size() - 1).body()));
    }
  }

  /** The function responses of the last turn's contents, by the name of their call. */
  private static List<Passed> passedBackByGemini(JsonNode lastTurn) {
    List<Passed> passed = new ArrayList<>();
    for (JsonNode content : lastTurn.path("contents")) {
      for (JsonNode part : content.path("parts")) {
        JsonNode response = part.path("functionResponse");
        if (response.isMissingNode()) {
          continue;
        }
        String tool = response.path("name").asText();
        for (String own : FIVE) {
          if (tool.endsWith("_" + own)) {
            tool = own;
          }
        }
        // Gemini CLI passes a result's text as "output", fenced as untrusted, and an error as
        // "error", a sentence that quotes the tool's own.
        JsonNode answer = response.path("response");
        boolean error = answer.has("error");
        String text =
            (error ? answer.path("error") : answer.path("output"))
                .asText()
                .replaceFirst("^<untrusted_context>\\n", "")
                .replaceFirst("\\n</untrusted_context>$", "");
        passed.add(new Passed(tool, text, error));
      }
    }
    System.out.println("[gemini] passed back: " + passed);
    return passed;
  }
}
