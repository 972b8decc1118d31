package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
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
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Clients we did not write, each connecting to the built {@code bin/clique mcp} against a real
 * engine, listing the tools and calling all five; every result must pass the client's own
 * validation.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class ThirdPartyClientsIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> FIVE =
      List.of("list_sessions", "get_session", "wait", "preview_pane", "conversation");

  private static ThrowawayEngine.WithShell shell;

  @BeforeAll
  static void engineWithASession() throws Exception {
    shell = ThrowawayEngine.startWithShell("clients");
  }

  @AfterAll
  static void cleanUp() throws Exception {
    shell.engine().close();
  }

  private static Map<String, String> mcpEnv() {
    return shell.engine().mcpEnv(shell.reader());
  }

  private static Map<String, Object> argumentsFor(String tool) {
    return switch (tool) {
      case "list_sessions" -> Map.of();
      case "wait" -> Map.of("id", shell.sessionId(), "timeout", 2);
      case "preview_pane" -> Map.of("id", shell.sessionId(), "lines", 5);
      default -> Map.of("id", shell.sessionId());
    };
  }

  private static Path mcpClients() {
    Path dir = Path.of(System.getProperty("clique.mcpClients", "mcp-clients"));
    assertThat(dir.resolve("node_modules"))
        .as("npm ci must have run in " + dir + " (the build does it before the ITs)")
        .isDirectory();
    return dir.toAbsolutePath();
  }

  @Test
  void theMcpJavaSdkClientWithResultValidationAcceptsEveryResult() throws Exception {
    ServerParameters server =
        ServerParameters.builder(Launcher.script().toString()).args("mcp").env(mcpEnv()).build();
    StdioClientTransport transport =
        new StdioClientTransport(server, new JacksonMcpJsonMapper(new ObjectMapper()));
    StringBuilder stderr = new StringBuilder();
    transport.setStdErrorHandler(line -> stderr.append(line).append('\n'));
    McpSyncClient client =
        McpClient.sync(transport)
            .requestTimeout(Duration.ofSeconds(30))
            .initializationTimeout(Duration.ofSeconds(60))
            .enableCallToolSchemaCaching(true)
            .build();
    try {
      assertThat(client.initialize().serverInfo().name()).isEqualTo("clique");
      List<String> names = new ArrayList<>();
      for (Tool tool : client.listTools().tools()) {
        names.add(tool.name());
        assertThat(tool.annotations().readOnlyHint()).isTrue();
        assertThat(tool.outputSchema()).isNotEmpty();
      }
      assertThat(names).isEqualTo(FIVE);
      for (String tool : FIVE) {
        CallToolResult result =
            client.callTool(CallToolRequest.builder(tool).arguments(argumentsFor(tool)).build());
        assertThat(result.isError()).as(tool + ": " + result.content()).isFalse();
        assertThat(result.structuredContent()).as(tool).isInstanceOf(Map.class);
      }
    } finally {
      client.closeGracefully();
    }
    assertThat(stderr.toString()).doesNotContain(shell.reader());
  }

  @Test
  void theTypeScriptSdkClientValidatesAndAcceptsEveryResult() throws Exception {
    Path clients = mcpClients();
    List<String> command = new ArrayList<>(List.of("node", "ts-sdk-client.mjs", shell.sessionId()));
    command.add(Launcher.script().toString());
    command.add("mcp");
    try (Spawned node = Spawned.start(command, mcpEnv(), clients)) {
      assertThat(node.waitFor(Duration.ofSeconds(120))).as(node.stderr()).isZero();
      JsonNode report = JSON.readTree(node.stdout().strip());
      List<String> names = new ArrayList<>();
      report.path("tools").forEach(name -> names.add(name.asText()));
      assertThat(names).isEqualTo(FIVE);
      assertThat(report.at("/server/name").asText()).isEqualTo("clique");
      for (String tool : FIVE) {
        JsonNode result = report.path("results").path(tool);
        assertThat(result.path("isError").asBoolean(true)).as(tool + ": " + result).isFalse();
        assertThat(result.path("structuredContent").isObject()).as(tool).isTrue();
        // list_sessions shows the bare array of its structure's sessions (seed 000 parses it).
        JsonNode shown =
            tool.equals("list_sessions")
                ? result.path("structuredContent").path("sessions")
                : result.path("structuredContent");
        assertThat(JSON.readTree(result.path("text").asText()))
            .as(tool + ": the text block holds the same JSON")
            .isEqualTo(shown);
      }
      assertThat(node.stderr()).doesNotContain(shell.reader());
    }
  }

  @Test
  void theMcpInspectorCliListsTheToolsAndCallsEachOne() throws Exception {
    Path clients = mcpClients();
    JsonNode listed = inspector(clients, List.of("--method", "tools/list"));
    List<String> names = new ArrayList<>();
    listed.path("tools").forEach(tool -> names.add(tool.path("name").asText()));
    assertThat(names).isEqualTo(FIVE);

    for (String tool : FIVE) {
      List<String> args = new ArrayList<>(List.of("--method", "tools/call", "--tool-name", tool));
      argumentsFor(tool)
          .forEach((key, value) -> args.addAll(List.of("--tool-arg", key + "=" + value)));
      JsonNode result = inspector(clients, args);
      assertThat(result.path("isError").asBoolean(true)).as(tool + ": " + result).isFalse();
      assertThat(result.path("structuredContent").isObject()).as(tool).isTrue();
    }
  }

  private static JsonNode inspector(Path clients, List<String> methodArgs) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(clients.resolve("node_modules/.bin/mcp-inspector").toString());
    command.add("--cli");
    for (Map.Entry<String, String> entry :
        new LinkedHashMap<>(
                Map.of(
                    "CLIQUE_URL",
                    shell.engine().url,
                    "CLIQUE_TOKEN",
                    shell.reader(),
                    "CLIQUE_HOME",
                    shell.engine().home.toString(),
                    "CLIQUE_TMUX_SOCKET",
                    shell.engine().socket))
            .entrySet()) {
      command.add("-e");
      command.add(entry.getKey() + "=" + entry.getValue());
    }
    command.add(Launcher.script().toString());
    command.add("mcp");
    command.addAll(methodArgs);
    try (Spawned inspector = Spawned.start(command, mcpEnv(), clients)) {
      assertThat(inspector.waitFor(Duration.ofSeconds(120))).as(inspector.stderr()).isZero();
      String out = inspector.stdout();
      assertThat(out).doesNotContain(shell.reader());
      return JSON.readTree(out.substring(out.indexOf('{')));
    }
  }

  static {
    // The inspector resolves `node` from PATH; fail with a sentence when it is missing.
    boolean nodeFound =
        List.of(System.getenv("PATH").split(":")).stream()
            .anyMatch(dir -> Files.isExecutable(Path.of(dir, "node")));
    if (!nodeFound) {
      throw new IllegalStateException("node is not on PATH: install Node 20 (`.ci/run` does)");
    }
  }
}
