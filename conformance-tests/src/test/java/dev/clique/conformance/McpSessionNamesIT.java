package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real {@code clique mcp} against a real engine takes a session's name where a tool takes an
 * id, as the human commands do: {@code get_session} and {@code wait} given the name of one session
 * answer for it and say which id it resolved to; a name two sessions share is refused with both
 * ids; a word that is neither says so and where to look.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class McpSessionNamesIT {
  @Test
  void getSessionAndWaitTakeASessionsName() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      String admin = engine.mintToken("names-admin", false);
      String reader = engine.mintToken("names-reader", true);
      String solo = engine.createShell(admin, "solo");
      String left = engine.createShell(admin, "twin");
      String right = engine.createShell(admin, "twin");
      // A name is free text: one that cannot be a path segment as it is must resolve too.
      String slashed = engine.createShell(admin, "api/v2 #1");

      try (Spawned mcp =
          Spawned.start(Launcher.jarCommand("mcp"), engine.mcpEnv(reader), engine.workdir)) {
        McpDialogue dialogue = new McpDialogue(mcp);
        dialogue.initialize("2025-11-25");

        JsonNode session = dialogue.callTool("get_session", Map.of("id", "solo")).get("result");
        assertThat(session.path("isError").asBoolean(true)).as(session.toString()).isFalse();
        assertThat(session.at("/structuredContent/id").asText()).isEqualTo(solo);
        assertThat(session.at("/structuredContent/resolved/id").asText()).isEqualTo(solo);
        assertThat(session.at("/content/1/text").asText())
            .isEqualTo("resolved name 'solo' to session " + solo);

        JsonNode waited =
            dialogue.callTool("wait", Map.of("id", "solo", "timeout", 20)).get("result");
        assertThat(waited.path("isError").asBoolean(true)).as(waited.toString()).isFalse();
        assertThat(waited.at("/structuredContent/id").asText()).isEqualTo(solo);
        assertThat(waited.at("/structuredContent/resolved/by").asText()).isEqualTo("name");
        assertThat(waited.at("/structuredContent/resolved/id").asText()).isEqualTo(solo);
        assertThat(waited.at("/content/1/text").asText())
            .isEqualTo("resolved name 'solo' to session " + solo);

        JsonNode twin = dialogue.callTool("wait", Map.of("id", "twin", "timeout", 1));
        assertThat(twin.at("/result/isError").asBoolean(false)).as(twin.toString()).isTrue();
        assertThat(twin.at("/result/content/0/text").asText())
            .startsWith("'twin' is the name of 2 sessions: ")
            .contains(left, right)
            .contains("(shell, in " + engine.workdir)
            .endsWith("Pass one of these ids as id.");

        JsonNode nobody = dialogue.callTool("wait", Map.of("id", "nobody", "timeout", 1));
        assertThat(nobody.at("/result/isError").asBoolean(false)).as(nobody.toString()).isTrue();
        assertThat(nobody.at("/result/content/0/text").asText())
            .startsWith("clique API returned 404")
            .contains("'nobody' is neither a session's id nor a session's name")
            .contains("list_sessions");

        JsonNode pane = dialogue.callTool("preview_pane", Map.of("id", "api/v2 #1")).get("result");
        assertThat(pane.path("isError").asBoolean(true)).as(pane.toString()).isFalse();
        assertThat(pane.at("/structuredContent/resolved/id").asText()).isEqualTo(slashed);

        JsonNode byId = dialogue.callTool("get_session", Map.of("id", solo)).get("result");
        assertThat(byId.at("/structuredContent/id").asText()).isEqualTo(solo);
        assertThat(byId.at("/structuredContent").has("resolved")).isFalse();

        mcp.closeStdin();
        assertThat(mcp.waitFor(Duration.ofSeconds(5))).isZero();
        assertThat(mcp.stderr()).doesNotContain(reader).doesNotContain(admin);
      }
    }
  }
}
