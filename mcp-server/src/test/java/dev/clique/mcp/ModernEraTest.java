package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The 2026-07-28 revision, on the same stdin and by the same process as the {@code initialize} era:
 * discovery, the version in {@code _meta} instead of a handshake, complete results.
 */
class ModernEraTest {
  private static final String MODERN = "2026-07-28";
  private static final String VERSION_KEY = "io.modelcontextprotocol/protocolVersion";

  private final FakeClient client =
      new FakeClient()
          .answering(
              call ->
                  call.route().equals("peek")
                      ? FakeClient.pane(Fixtures.contractJson("peek.json"))
                      : null);
  private final McpHarness mcp = McpHarness.start(new CliqueMcpServer(client, Fixtures.VERSION));

  @AfterEach
  void end() {
    mcp.close();
  }

  private static Map<String, Object> modern(Map<String, Object> params, String version) {
    Map<String, Object> withMeta = new HashMap<>(params);
    withMeta.put(
        "_meta",
        Map.of(VERSION_KEY, version, "io.modelcontextprotocol/clientCapabilities", Map.of()));
    return withMeta;
  }

  private static Map<String, Object> modern(Map<String, Object> params) {
    return modern(params, MODERN);
  }

  @Test
  void discoverNamesTheVersionsCapabilitiesServerInstructionsAndCacheLife() throws Exception {
    JsonNode result = mcp.request("server/discover", modern(Map.of())).get("result");
    assertThat(result.get("resultType").asText()).isEqualTo("complete");
    List<String> versions = new java.util.ArrayList<>();
    result.get("supportedVersions").forEach(v -> versions.add(v.asText()));
    assertThat(versions)
        .containsExactly(MODERN, "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");
    assertThat(result.get("capabilities"))
        .isEqualTo(
            Fixtures.json(
                "{\"tools\":{\"listChanged\":false},"
                    + "\"resources\":{\"subscribe\":true,\"listChanged\":true}}"));
    JsonNode info = result.at("/_meta/io.modelcontextprotocol~1serverInfo");
    assertThat(info.get("name").asText()).isEqualTo("clique");
    assertThat(info.get("version").asText()).isEqualTo(Fixtures.VERSION);
    assertThat(result.get("instructions").asText()).contains("never type into a session");
    assertThat(result.get("ttlMs").isIntegralNumber()).isTrue();
    assertThat(result.get("ttlMs").asLong()).isPositive();
    assertThat(result.get("cacheScope").asText()).isIn("public", "private");
  }

  @Test
  void discoverAnswersAProbeWithoutMetaToo() throws Exception {
    JsonNode result = mcp.request("server/discover", null).get("result");
    assertThat(result.get("supportedVersions").get(0).asText()).isEqualTo(MODERN);
  }

  @Test
  void aModernToolsListNeedsNoInitializeAndCarriesCacheHints() throws Exception {
    JsonNode result = mcp.request("tools/list", modern(Map.of())).get("result");
    assertThat(result.get("tools").size()).isEqualTo(5);
    assertThat(result.get("resultType").asText()).isEqualTo("complete");
    assertThat(result.get("ttlMs").asLong()).isPositive();
    assertThat(result.get("cacheScope").asText()).isIn("public", "private");
  }

  @Test
  void everyModernResultIsMarkedComplete() throws Exception {
    JsonNode called =
        mcp.request(
            "tools/call",
            modern(Map.of("name", "preview_pane", "arguments", Map.of("id", "s1", "lines", 3))));
    assertThat(called.at("/result/resultType").asText()).isEqualTo("complete");
    assertThat(called.at("/result/isError").asBoolean(true)).isFalse();
    assertThat(called.at("/result/structuredContent/alive").asBoolean()).isTrue();

    JsonNode failed =
        mcp.request("tools/call", modern(Map.of("name", "preview_pane", "arguments", Map.of())));
    assertThat(failed.at("/result/resultType").asText()).isEqualTo("complete");
    assertThat(failed.at("/result/isError").asBoolean()).isTrue();

    assertThat(mcp.request("ping", modern(Map.of())).get("result"))
        .isEqualTo(Fixtures.json("{\"resultType\":\"complete\"}"));
  }

  @Test
  void anUnsupportedVersionIsRefusedWithTheSupportedOnes() throws Exception {
    JsonNode refused = mcp.request("tools/list", modern(Map.of(), "2030-01-01"));
    assertThat(refused.at("/error/code").asInt()).isEqualTo(-32022);
    assertThat(refused.at("/error/data/requested").asText()).isEqualTo("2030-01-01");
    List<String> supported = new java.util.ArrayList<>();
    refused.at("/error/data/supported").forEach(v -> supported.add(v.asText()));
    assertThat(supported).contains(MODERN, "2025-11-25");
    assertThat(refused.has("result")).isFalse();
  }

  @Test
  void aVersionThatIsNotAStringIsUnsupportedToo() throws Exception {
    JsonNode refused = mcp.request("tools/list", Map.of("_meta", Map.of(VERSION_KEY, 20260728)));
    assertThat(refused.at("/error/code").asInt()).isEqualTo(-32022);
    assertThat(refused.at("/error/data/requested").asInt()).isEqualTo(20260728);
  }

  @Test
  void bothErasAreServedOnTheSameStdinByTheSameProcess() throws Exception {
    JsonNode init =
        mcp.request(
            "initialize",
            Map.of(
                "protocolVersion",
                "2025-11-25",
                "capabilities",
                Map.of(),
                "clientInfo",
                Map.of("name", "old", "version", "1")));
    assertThat(init.at("/result/protocolVersion").asText()).isEqualTo("2025-11-25");
    JsonNode legacyList = mcp.request("tools/list", null).get("result");
    assertThat(legacyList.has("resultType")).isFalse();
    JsonNode modernList = mcp.request("tools/list", modern(Map.of())).get("result");
    assertThat(modernList.get("resultType").asText()).isEqualTo("complete");
    assertThat(modernList.get("tools")).isEqualTo(legacyList.get("tools"));
  }
}
