package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code clique mcp} and an engine on another host over plain HTTP: refused before the token is
 * sent, with what to do instead, unless {@code CLIQUE_ALLOW_PLAIN_HTTP=1} says the network is
 * trusted.
 */
class PlainHttpElsewhereIT {
  @Test
  void theTokenGoesOverPlainHttpToAnotherHostOnlyWhenAllowed() throws Exception {
    try (EngineHosts hosts = EngineHosts.create(1);
        ThrowawayEngine engine = ThrowawayEngine.prepareOn(hosts.hosts().get(0)).start()) {
      System.err.println("plain http elsewhere: on " + hosts.kind());
      String admin = engine.mintToken("plain-admin", false);
      String reader = engine.mintToken("plain-reader", true);
      String id = engine.createShell(admin, "plain-elsewhere");

      Map<String, String> allowed = engine.mcpEnv(reader);
      try (Spawned mcp = Spawned.start(Launcher.jarCommand("mcp"), allowed, engine.workdir)) {
        McpDialogue dialogue = new McpDialogue(mcp);
        dialogue.initialize("2025-11-25");
        JsonNode listed = dialogue.callTool("list_sessions", Map.of());
        assertThat(listed.at("/result/structuredContent/sessions"))
            .anySatisfy(s -> assertThat(s.path("id").asText()).isEqualTo(id));
      }

      if (hosts.namespaces()) {
        assertThat(allowed).containsEntry("CLIQUE_ALLOW_PLAIN_HTTP", "1");
        Map<String, String> unallowed = engine.mcpEnv(reader);
        unallowed.remove("CLIQUE_ALLOW_PLAIN_HTTP");
        try (Spawned mcp = Spawned.start(Launcher.jarCommand("mcp"), unallowed, engine.workdir)) {
          assertThat(mcp.waitFor(Duration.ofSeconds(30))).isEqualTo(1);
          assertThat(mcp.stderr())
              .contains("CLIQUE_URL is plain http:// to " + hosts.hosts().get(0).address())
              .contains("CLIQUE_ALLOW_PLAIN_HTTP=1")
              .doesNotContain(reader);
          assertThat(mcp.stdout()).isEmpty();
        }
      }
    }
  }
}
