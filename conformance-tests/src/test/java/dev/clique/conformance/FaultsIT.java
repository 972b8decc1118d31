package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.fake.FakeEngine;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An engine that is down, dies, comes back, or answers nonsense: each fault is its own tool error
 * (the table in MCP.md), the server stays up, and the next call works once the engine is back.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class FaultsIT {
  private static final String TOKEN = "mxp_" + "F".repeat(43);

  private static String toolError(JsonNode answer) {
    assertThat(answer.at("/result/isError").asBoolean(false)).as(answer.toString()).isTrue();
    return answer.at("/result/content/0/text").asText();
  }

  private static void works(JsonNode answer) {
    assertThat(answer.at("/result/isError").asBoolean(true)).as(answer.toString()).isFalse();
  }

  @Test
  void anEngineDownAtStartIsNamedAndTheNextCallWorksOnceItIsUp() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare()) {
      String token = engine.mintToken("faults-reader", true);
      Map<String, String> env = engine.mcpEnv(token);
      try (Spawned mcp = Spawned.start(Launcher.jarCommand("mcp"), env, engine.workdir)) {
        McpDialogue dialogue = new McpDialogue(mcp);
        assertThat(dialogue.initialize("2025-11-25").at("/result/protocolVersion").asText())
            .isEqualTo("2025-11-25");
        assertThat(dialogue.request("tools/list", null).at("/result/tools").size()).isEqualTo(5);
        assertThat(toolError(dialogue.callTool("list_sessions", Map.of())))
            .startsWith("could not reach clique at " + engine.url);

        engine.start();
        works(dialogue.callTool("list_sessions", Map.of()));
        mcp.closeStdin();
        assertThat(mcp.waitFor(Duration.ofSeconds(10))).isZero();
        assertThat(mcp.stdout() + mcp.stderr()).doesNotContain(token);
      }
    }
  }

  @Test
  void anEngineKilledDuringAWaitIsAToolErrorAndARestartedEngineStillHasTheSession()
      throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      String admin = engine.mintToken("faults-admin", false);
      String token = engine.mintToken("faults-reader", true);
      String id = engine.createShell(admin, "survivor");
      // A silent foreground command keeps the shell working, so the wait below stays pending.
      assertThat(
              engine.get("/api/sessions/" + id + "/wait?for=idle&timeout=30", token).statusCode())
          .isEqualTo(200);
      assertThat(
              engine
                  .post("/api/sessions/" + id + "/send", admin, "{\"text\":\"sleep 60\"}")
                  .statusCode())
          .isEqualTo(200);
      JsonNode working =
          ThrowawayEngine.json(
              engine.get("/api/sessions/" + id + "/wait?for=working&timeout=30", token).body());
      assertThat(working.path("matched").asBoolean()).as(working.toString()).isTrue();
      Map<String, String> env = engine.mcpEnv(token);
      try (Spawned mcp = Spawned.start(Launcher.jarCommand("mcp"), env, engine.workdir)) {
        McpDialogue dialogue = new McpDialogue(mcp);
        dialogue.initialize("2025-11-25");
        CompletableFuture<JsonNode> waiting =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    // Until error: the engine may call a silent sleep idle within a second or
                    // two, and this wait must still be pending when the engine dies.
                    return dialogue.callTool(
                        "wait", Map.of("id", id, "timeout", 60, "until", List.of("error")));
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                });
        Thread.sleep(1000);
        engine.crash();
        String error = toolError(waiting.get());
        assertThat(error).startsWith("could not reach clique at " + engine.url);

        engine.start();
        JsonNode listed = dialogue.callTool("list_sessions", Map.of());
        works(listed);
        List<String> ids = listed.at("/result/structuredContent/sessions").findValuesAsText("id");
        assertThat(ids).contains(id);
        assertThat(Tmux.sessions(engine.socket)).contains(id);
        assertThat(mcp.stdout() + mcp.stderr()).doesNotContain(token).doesNotContain(admin);
      }
    }
  }

  @Test
  void everyKindOfBadAnswerIsItsOwnToolErrorAndTheServerStaysUp() throws Exception {
    try (FakeEngine fake = FakeEngine.start().servingTheContract(FakeEngine.ANY);
        ThrowawayEngine home = ThrowawayEngine.prepare()) {
      Map<String, String> env = home.env();
      env.put("CLIQUE_URL", fake.url());
      env.put("CLIQUE_TOKEN", TOKEN);
      try (Spawned mcp = Spawned.start(Launcher.jarCommand("mcp"), env, home.workdir)) {
        McpDialogue dialogue = new McpDialogue(mcp);
        dialogue.initialize("2025-11-25");
        works(dialogue.callTool("list_sessions", Map.of()));

        fake.failEveryRequest(FakeEngine.Fault.GARBAGE);
        assertThat(toolError(dialogue.callTool("list_sessions", Map.of())))
            .startsWith("clique API returned an unexpected response");
        fake.failEveryRequest(FakeEngine.Fault.REDIRECT);
        assertThat(toolError(dialogue.callTool("list_sessions", Map.of())))
            .startsWith("clique API returned 302");
        fake.failEveryRequest(FakeEngine.Fault.ERROR_500);
        assertThat(toolError(dialogue.callTool("list_sessions", Map.of())))
            .startsWith("clique API returned 500: the engine fell over");
        fake.failEveryRequest(FakeEngine.Fault.UNAUTHORIZED);
        assertThat(toolError(dialogue.callTool("list_sessions", Map.of())))
            .startsWith("clique API returned 401: unauthorized");
        fake.failEveryRequest(FakeEngine.Fault.SILENT);
        // A wait of 0 s gets a socket time-out of 15 s: the shortest a silent engine can take.
        assertThat(toolError(dialogue.callTool("wait", Map.of("id", "x", "timeout", 0))))
            .startsWith("clique API did not answer within");

        fake.stopFailing();
        works(dialogue.callTool("list_sessions", Map.of()));
        assertThat(dialogue.request("ping", null).path("result").isObject()).isTrue();
        mcp.closeStdin();
        assertThat(mcp.waitFor(Duration.ofSeconds(10))).isZero();
        assertThat(mcp.stdout() + mcp.stderr()).doesNotContain(TOKEN);
      }
    }
  }
}
