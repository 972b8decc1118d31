package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.fake.FakeEngine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a {@code clique mcp} process loads while it serves every request it knows. Each class is
 * memory in every such process (one per chat session), and Jackson's data-binding mapper alone
 * brought about a thousand: its own, the JDK's date and locale machinery, reflection over the SDK's
 * records. The server reads and writes JSON without it; this keeps it that way.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class McpFootprintIT {
  private static final String TOKEN = "mxp_" + "P".repeat(43);
  private static final List<String> NEVER =
      List.of(
          "com.fasterxml.jackson.databind.ObjectMapper",
          "com.fasterxml.jackson.databind.ser.BeanSerializer",
          "com.fasterxml.jackson.databind.deser.BeanDeserializer",
          "sun.util.locale.provider.LocaleProviderAdapter");

  @Test
  void servingEveryRequestNeverLoadsTheDataBindingMapper(@TempDir Path logs) throws Exception {
    Path loaded = logs.resolve("classes.log");
    try (FakeEngine fake = FakeEngine.start().servingTheContract(FakeEngine.ANY);
        ThrowawayEngine home = ThrowawayEngine.prepare()) {
      Map<String, String> env = home.env();
      env.put("CLIQUE_URL", fake.url());
      env.put("CLIQUE_TOKEN", TOKEN);
      List<String> command = new ArrayList<>(Launcher.jarCommand("mcp"));
      command.add(command.indexOf("-jar"), "-Xlog:class+load=info:file=" + loaded);
      try (Spawned mcp = Spawned.start(command, env, home.workdir)) {
        McpDialogue dialogue = new McpDialogue(mcp);
        dialogue.initialize("2025-11-25");
        assertThat(dialogue.toolNames()).hasSize(5);
        String id = "3f2b8c1e-5a47-4d0e-9b6f-2c81d4e7a915";
        for (JsonNode answer :
            List.of(
                dialogue.callTool("list_sessions", Map.of()),
                dialogue.callTool("get_session", Map.of("id", id)),
                dialogue.callTool("wait", Map.of("id", id, "timeout", 0)),
                dialogue.callTool("preview_pane", Map.of("id", id, "lines", 40)),
                dialogue.callTool("conversation", Map.of("id", id)))) {
          assertThat(answer.at("/result/isError").asBoolean(true)).as(answer.toString()).isFalse();
        }
        JsonNode refused = dialogue.callTool("get_session", Map.of("id", id, "extra", 1));
        assertThat(refused.at("/result/isError").asBoolean()).isTrue();
        Map<String, Object> modern =
            Map.of("_meta", Map.of("io.modelcontextprotocol/protocolVersion", "2026-07-28"));
        assertThat(dialogue.request("tools/list", modern).at("/result/resultType").asText())
            .isEqualTo("complete");
        assertThat(dialogue.request("resources/list", null).at("/result/resources").size())
            .isEqualTo(3);
        assertThat(
                dialogue
                    .request("resources/read", Map.of("uri", "clique://sessions/" + id + "/pane"))
                    .at("/result/contents/0/mimeType")
                    .asText())
            .isEqualTo("application/json");
        Map<String, Object> list = Map.of("uri", "clique://sessions");
        assertThat(dialogue.request("resources/subscribe", list).has("result")).isTrue();
        assertThat(dialogue.request("resources/unsubscribe", list).has("result")).isTrue();
        assertThat(dialogue.request("prompts/list", null).at("/error/code").asInt())
            .isEqualTo(-32601);
        mcp.closeStdin();
        assertThat(mcp.waitFor(Duration.ofSeconds(10))).isZero();
      }
    }
    List<String> classes = Files.readAllLines(loaded, StandardCharsets.UTF_8);
    assertThat(classes).as("the class-load log").hasSizeGreaterThan(1_000);
    List<String> found =
        classes.stream()
            .filter(line -> NEVER.stream().anyMatch(never -> line.contains("] " + never + " ")))
            .toList();
    assertThat(found).as("classes clique mcp must not load").isEmpty();
  }
}
