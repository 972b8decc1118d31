package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The thinnest real path, with real processes and real tmux: {@code clique serve} on a throwaway
 * home, socket and port; a shell session made through the API; {@code clique mcp} spawned with a
 * read-only token; JSON-RPC on its stdin finds the session.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class EndToEndIT {
  @Test
  void aShellSessionMadeThroughTheEngineIsListedByCliqueMcp() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      String admin = engine.mintToken("it-admin", false);
      String reader = engine.mintToken("it-reader", true);
      assertThat(reader).matches("mxp_[A-Za-z0-9_-]{43}");

      String id = engine.createShell(admin, "it-shell");
      assertThat(Tmux.sessions(engine.socket)).contains(id);

      Map<String, String> env = engine.mcpEnv(reader);
      try (Spawned mcp = Spawned.start(Launcher.jarCommand("mcp"), env, engine.workdir)) {
        McpDialogue dialogue = new McpDialogue(mcp);
        JsonNode init = dialogue.initialize("2025-11-25");
        assertThat(init.at("/result/protocolVersion").asText()).isEqualTo("2025-11-25");
        assertThat(init.at("/result/serverInfo/name").asText()).isEqualTo("clique");

        assertThat(dialogue.toolNames())
            .containsExactly(
                "list_sessions", "get_session", "wait", "preview_pane", "conversation");

        JsonNode called = dialogue.callTool("list_sessions", Map.of());
        assertThat(called.at("/result/isError").asBoolean(true)).isFalse();
        List<String> ids = new ArrayList<>();
        called
            .at("/result/structuredContent/sessions")
            .forEach(s -> ids.add(s.path("id").asText()));
        assertThat(ids).contains(id);
        JsonNode text = ThrowawayEngine.json(called.at("/result/content/0/text").asText());
        assertThat(text).isEqualTo(called.at("/result/structuredContent/sessions"));

        JsonNode missing =
            dialogue.callTool("preview_pane", Map.of("id", "no-such-session", "lines", 8));
        assertThat(missing.at("/result/isError").asBoolean()).isTrue();
        assertThat(missing.at("/result/content/0/text").asText()).contains("404");

        mcp.closeStdin();
        assertThat(mcp.waitFor(Duration.ofSeconds(5))).isZero();
        assertThat(mcp.stderr()).doesNotContain(reader).doesNotContain(admin);
      }
      assertThat(engine.serveStderr()).doesNotContain(reader).doesNotContain(admin);
      try (var files = java.nio.file.Files.walk(engine.home)) {
        for (java.nio.file.Path file : files.filter(java.nio.file.Files::isRegularFile).toList()) {
          String content =
              new String(
                  java.nio.file.Files.readAllBytes(file),
                  java.nio.charset.StandardCharsets.ISO_8859_1);
          assertThat(content).as(file.toString()).doesNotContain(reader).doesNotContain(admin);
        }
      }
    }
  }

  @Test
  void anEmbeddedServerSeesTheSessionsAServeBesideItStartsLater() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      String admin = engine.mintToken("it-admin", false);
      try (Spawned mcp =
          Spawned.start(Launcher.jarCommand("mcp", "--embedded"), engine.env(), engine.workdir)) {
        McpDialogue dialogue = new McpDialogue(mcp);
        dialogue.initialize("2025-11-25");
        String id = engine.createShell(admin, "made-by-serve");
        // The row comes from the state file, its liveness from this engine's next look at tmux
        // (a fraction of a second later, longer on a busy machine): both must arrive.
        List<String> alive = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!alive.contains(id) && System.nanoTime() < deadline) {
          alive.clear();
          dialogue
              .callTool("list_sessions", Map.of())
              .at("/result/structuredContent/sessions")
              .forEach(
                  s -> {
                    if (s.path("alive").asBoolean()) {
                      alive.add(s.path("id").asText());
                    }
                  });
          Thread.sleep(100);
        }
        assertThat(alive).contains(id);
        JsonNode state = dialogue.callTool("get_session", Map.of("id", id));
        assertThat(state.at("/result/structuredContent/alive").asBoolean()).isTrue();
      }
    }
  }
}
