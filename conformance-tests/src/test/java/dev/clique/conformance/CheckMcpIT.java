package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.fake.FakeEngine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Seed 000's {@code check_mcp}, for this project: {@code clique mcp} refuses to start without a
 * token, caps its arguments, can only GET, and speaks JSON-RPC on stdin/stdout against a throwaway
 * engine with a freshly minted read-only token, which never shows on stderr.
 */
class CheckMcpIT {
  private static RealThings before;

  @BeforeAll
  static void lookAtTheRealThings() throws Exception {
    before = RealThings.look();
  }

  @AfterAll
  static void theRealHomeAndSocketAreUntouched() throws Exception {
    assertThat(RealThings.look()).isEqualTo(before);
  }

  private static List<String> mcpCommand() {
    return List.of(Launcher.script().toString(), "mcp");
  }

  // --- refusing to start -----------------------------------------------------------------

  @Test
  void mcpRefusesToStartWithoutCliqueToken() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare()) {
      Map<String, String> unset = engine.env();
      Map<String, String> blank = engine.env();
      blank.put("CLIQUE_TOKEN", "   ");
      for (Map<String, String> env : List.of(unset, blank)) {
        try (Spawned mcp = Spawned.start(mcpCommand(), env, engine.workdir)) {
          assertThat(mcp.waitFor(Duration.ofSeconds(15))).as("exit code").isEqualTo(1);
          assertThat(mcp.stderr())
              .as("the error names how to create a token")
              .contains("clique token create");
          assertThat(mcp.stderr() + mcp.stdout())
              .as("and that error does not contain a token")
              .doesNotContain("mxp_");
          assertThat(mcp.stdout()).isEmpty();
        }
      }
    }
  }

  // --- read-only by inspection, checked ----------------------------------------------------

  private static Map<Path, String> sources() throws IOException {
    Map<Path, String> files = new LinkedHashMap<>();
    for (String module : List.of("client-lib", "mcp-server")) {
      Path root = Path.of("..", module, "src", "main", "java");
      assertThat(root).isDirectory();
      try (Stream<Path> paths = Files.walk(root)) {
        for (Path path : paths.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
          files.put(path, Files.readString(path, StandardCharsets.UTF_8));
        }
      }
    }
    assertThat(files).hasSizeGreaterThan(20);
    return files;
  }

  private static int count(String text, String needle) {
    int n = 0;
    for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
      n++;
    }
    return n;
  }

  @Test
  void exactlyOneCallSiteMakesAnHttpRequestAndItIsHardcodedGet() throws Exception {
    Map<Path, String> files = sources();
    int builders = 0;
    int calls = 0;
    String site = null;
    for (String text : files.values()) {
      builders += count(text, "new Request.Builder()");
      calls += count(text, ".newCall(");
      if (text.contains("new Request.Builder()")) {
        site = text;
      }
      assertThat(text).doesNotContain("HttpURLConnection", "java.net.http", "RequestBody");
    }
    assertThat(builders).as("places that build an HTTP request").isEqualTo(1);
    assertThat(calls).as("places that make an HTTP call").isEqualTo(1);
    Matcher chain =
        Pattern.compile("new Request\\.Builder\\(\\)(.*?)\\.build\\(\\)", Pattern.DOTALL)
            .matcher(site);
    assertThat(chain.find()).isTrue();
    assertThat(chain.group(1))
        .as("the request is a GET and nothing else")
        .contains(".get()")
        .doesNotContain(".post(", ".put(", ".patch(", ".delete(", ".method(", ".head(");
  }

  @Test
  void noWriteHttpVerbAppearsAnywhereInTheClientOrTheServer() throws Exception {
    for (Map.Entry<Path, String> file : sources().entrySet()) {
      assertThat(file.getValue())
          .as(file.getKey().toString())
          .doesNotContain("\"POST\"", "\"PUT\"", "\"DELETE\"", "\"PATCH\"");
    }
  }

  // --- the argument caps, on the wire ------------------------------------------------------

  @Test
  void theArgumentCapsHoldOnTheWire() throws Exception {
    try (FakeEngine fake = FakeEngine.start().servingTheContract(FakeEngine.ANY);
        ThrowawayEngine home = ThrowawayEngine.prepare()) {
      Map<String, String> env = home.env();
      env.put("CLIQUE_URL", fake.url());
      env.put("CLIQUE_TOKEN", "mxp_" + "c".repeat(43));
      try (Spawned mcp = Spawned.start(mcpCommand(), env, home.workdir)) {
        McpDialogue dialogue = new McpDialogue(mcp);
        dialogue.initialize("2025-11-25");

        dialogue.callTool("preview_pane", Map.of("id", "s1"));
        assertThat(fake.last("/peek").rawQuery())
            .as("peek lines default to 8")
            .isEqualTo("lines=8");
        dialogue.callTool("preview_pane", Map.of("id", "s1", "lines", 10000));
        assertThat(fake.last("/peek").rawQuery())
            .as("peek lines cap at 200")
            .isEqualTo("lines=200");
        int asked = fake.requests.size();
        JsonNode zero = dialogue.callTool("preview_pane", Map.of("id", "s1", "lines", 0));
        assertThat(zero.at("/result/isError").asBoolean()).as("peek lines reject 0").isTrue();
        assertThat(zero.at("/result/content/0/text").asText())
            .isEqualTo("lines must be at least 1");
        assertThat(fake.requests).hasSize(asked);

        // An omitted until asks for every state but working (MCP.md); the timeout is the check.
        String notWorking = "for=idle,waiting,error,stopped";
        dialogue.callTool("wait", Map.of("id", "s1"));
        assertThat(fake.last("/wait").rawQuery())
            .as("omitted timeout is left to the route")
            .isEqualTo(notWorking);
        dialogue.callTool("wait", Map.of("id", "s1", "timeout", 9000));
        assertThat(fake.last("/wait").rawQuery())
            .as("timeout caps at 300")
            .isEqualTo(notWorking + "&timeout=300");

        assertThat(fake.requests).allMatch(r -> r.method().equals("GET"));
        mcp.closeStdin();
        assertThat(mcp.waitFor(Duration.ofSeconds(5))).isZero();
      }
    }
  }

  // --- the dialogue against a throwaway engine ---------------------------------------------

  @Test
  void theReadOnlyServerAgainstAThrowawayEngine() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      String token = engine.mintToken("mcp-smoke", true);
      assertThat(token).as("mcp smoke token minted").startsWith("mxp_");

      Map<String, String> env = engine.mcpEnv(token);
      try (Spawned mcp = Spawned.start(mcpCommand(), env, engine.workdir)) {
        McpDialogue dialogue = new McpDialogue(mcp);
        JsonNode init = dialogue.initialize("2025-11-25");
        assertThat(init.get("id").asInt()).as("initialize answers").isEqualTo(1);
        assertThat(init.at("/result/protocolVersion").asText())
            .as("initialize answers: " + init.path("error"))
            .isEqualTo("2025-11-25");

        JsonNode tools = dialogue.request("tools/list", null).at("/result/tools");
        List<String> names = new ArrayList<>();
        tools.forEach(tool -> names.add(tool.path("name").asText()));
        assertThat(names)
            .as("tools/list has the five read-only tools")
            .containsExactly(
                "list_sessions", "get_session", "wait", "preview_pane", "conversation");
        assertThat(tools)
            .as("each tool declares an object input schema")
            .allMatch(
                tool ->
                    tool.path("inputSchema").isObject()
                        && tool.at("/inputSchema/type").asText().equals("object"));

        JsonNode listed = dialogue.callTool("list_sessions", Map.of());
        JsonNode isError = listed.at("/result/isError");
        JsonNode text = ThrowawayEngine.json(listed.at("/result/content/0/text").asText());
        assertThat(isError.isBoolean() && !isError.booleanValue() && text.isArray())
            .as("list_sessions returns the session list: " + listed)
            .isTrue();
        // The text is the list; the structure an object around it (strict clients want one).
        assertThat(listed.at("/result/structuredContent/sessions")).isEqualTo(text);

        JsonNode missing =
            dialogue.callTool("preview_pane", Map.of("id", "no-such-session", "lines", 8));
        assertThat(
                missing.at("/result/isError").isBoolean()
                    && missing.at("/result/isError").booleanValue()
                    && missing.at("/result/content/0/text").asText().contains("404"))
            .as("a missing session is a tool error, not an empty pane: " + missing)
            .isTrue();

        mcp.closeStdin();
        assertThat(mcp.waitFor(Duration.ofSeconds(5))).isZero();
        assertThat(mcp.stderr()).as("mcp stderr never echoes the token").doesNotContain(token);
        assertThat(mcp.stdout()).doesNotContain(token);
      }
    }
  }
}
