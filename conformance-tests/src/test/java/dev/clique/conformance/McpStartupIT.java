package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** How {@code clique mcp} starts: refused without a token, and zero set-up with --embedded. */
@ExtendWith(LeavesRealThingsUntouched.class)
class McpStartupIT {
  @Test
  void withoutATokenItExitsOneAndSaysHowToMakeOne() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare()) {
      try (Spawned mcp = Spawned.start(Launcher.jarCommand("mcp"), engine.env(), engine.workdir)) {
        mcp.closeStdin();
        assertThat(mcp.waitFor(Duration.ofSeconds(20))).isEqualTo(1);
        assertThat(mcp.stderr()).contains("clique token create").doesNotContain("mxp_");
        assertThat(mcp.stdout()).isEmpty();
      }
    }
  }

  @Test
  void aUrlThatIsNotHttpIsRefusedWithASentence() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare()) {
      Map<String, String> env = engine.env();
      env.put("CLIQUE_TOKEN", "mxp_" + "a".repeat(43));
      env.put("CLIQUE_URL", "ftp://127.0.0.1:3200");
      try (Spawned mcp = Spawned.start(Launcher.jarCommand("mcp"), env, engine.workdir)) {
        mcp.closeStdin();
        assertThat(mcp.waitFor(Duration.ofSeconds(20))).isEqualTo(1);
        assertThat(mcp.stderr()).contains("http://").doesNotContain("mxp_");
        assertThat(mcp.stdout()).isEmpty();
      }
    }
  }

  @Test
  void anEmbeddedEngineThatCannotStartIsAToolErrorThatSaysWhyAndTheServerGoesOn() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare()) {
      Map<String, String> env = engine.env();
      Path notAFolder = engine.workdir.resolve("home-is-a-file");
      Files.writeString(notAFolder, "not a folder\n");
      env.put("CLIQUE_HOME", notAFolder.toString());
      try (Spawned mcp =
          Spawned.start(Launcher.jarCommand("mcp", "--embedded"), env, engine.workdir)) {
        McpDialogue dialogue = new McpDialogue(mcp);
        JsonNode init = dialogue.initialize("2025-11-25");
        assertThat(init.at("/result/protocolVersion").asText()).isEqualTo("2025-11-25");
        JsonNode called = dialogue.callTool("list_sessions", Map.of());
        assertThat(called.at("/result/isError").asBoolean(false)).as("%s", called).isTrue();
        assertThat(called.at("/result/content/0/text").asText())
            .startsWith("could not start the embedded engine: ")
            .contains("home-is-a-file");
        assertThat(dialogue.toolNames()).as("the server goes on").hasSize(5);
        mcp.closeStdin();
        assertThat(mcp.waitFor(Duration.ofSeconds(5))).isZero();
        assertThat(mcp.stderr()).contains("could not start the embedded engine");
      }
    }
  }

  @Test
  void theLauncherRunsEmbeddedWithNothingSetUp() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare()) {
      List<String> command = List.of(Launcher.script().toString(), "mcp", "--embedded");
      try (Spawned mcp = Spawned.start(command, engine.env(), engine.workdir)) {
        McpDialogue dialogue = new McpDialogue(mcp);
        JsonNode init = dialogue.initialize("2025-06-18");
        assertThat(init.at("/result/protocolVersion").asText()).isEqualTo("2025-06-18");
        assertThat(init.at("/result/capabilities/tools/listChanged").asBoolean(true)).isFalse();
        assertThat(init.at("/result/instructions").asText()).contains("never type");

        assertThat(dialogue.toolNames())
            .containsExactly(
                "list_sessions", "get_session", "wait", "preview_pane", "conversation");

        JsonNode called = dialogue.callTool("list_sessions", Map.of());
        assertThat(called.at("/result/isError").asBoolean(true)).isFalse();
        assertThat(called.at("/result/structuredContent/sessions").isArray()).isTrue();

        mcp.closeStdin();
        assertThat(mcp.waitFor(Duration.ofSeconds(5))).isZero();
      }
    }
  }
}
