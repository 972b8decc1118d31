package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code initialize} era: four versions answered with themselves, any other with the newest.
 */
class ProtocolVersionsTest {
  private final McpHarness mcp =
      McpHarness.start(new CliqueMcpServer(new FakeClient(), Fixtures.VERSION));

  @AfterEach
  void end() {
    mcp.close();
  }

  private JsonNode initialize(Object version) throws InterruptedException {
    return mcp.request(
        "initialize",
        Map.of(
            "protocolVersion",
            version,
            "capabilities",
            Map.of(),
            "clientInfo",
            Map.of("name", "test", "version", "0")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})
  void aKnownVersionIsAnsweredWithItself(String version) throws Exception {
    assertThat(initialize(version).at("/result/protocolVersion").asText()).isEqualTo(version);
  }

  @ParameterizedTest
  @ValueSource(strings = {"2024-10-07", "1999-01-01", "2026-07-28", "latest"})
  void anyOtherVersionIsAnsweredWithTheNewest(String version) throws Exception {
    assertThat(initialize(version).at("/result/protocolVersion").asText()).isEqualTo("2025-11-25");
  }

  @Test
  void theResultNamesTheServerItsToolsAndResourcesCapabilitiesAndTheInstructions()
      throws Exception {
    JsonNode result = initialize("2025-11-25").get("result");
    assertThat(result.at("/serverInfo/name").asText()).isEqualTo("clique");
    assertThat(result.at("/serverInfo/version").asText())
        .isEqualTo(Fixtures.VERSION)
        .matches("\\d+\\.\\d+\\.\\d+.*");
    assertThat(result.get("capabilities"))
        .isEqualTo(
            Fixtures.json(
                "{\"tools\":{\"listChanged\":false},"
                    + "\"resources\":{\"subscribe\":true,\"listChanged\":true}}"));
    assertThat(result.get("instructions").asText())
        .contains("list_sessions", "get_session", "wait", "preview_pane", "conversation")
        .contains("never type into a session");
  }

  @Test
  void initializeWithoutParamsIsInvalidParamsNotAnInternalError() throws Exception {
    JsonNode answer = mcp.request("initialize", null);
    assertThat(answer.at("/error/code").asInt()).isEqualTo(-32602);
    assertThat(answer.at("/error/message").asText()).contains("protocolVersion");
  }

  @Test
  void initializeWithBadParamsSaysWhichParamIsBad() throws Exception {
    JsonNode noVersion = mcp.request("initialize", Map.of("capabilities", Map.of()));
    assertThat(noVersion.at("/error/code").asInt()).isEqualTo(-32602);
    assertThat(noVersion.at("/error/message").asText()).contains("protocolVersion");

    JsonNode numericVersion = initialize(20251125);
    assertThat(numericVersion.at("/error/code").asInt()).isEqualTo(-32602);
    assertThat(numericVersion.at("/error/message").asText()).contains("protocolVersion");

    JsonNode badCapabilities =
        mcp.request("initialize", Map.of("protocolVersion", "2025-11-25", "capabilities", "all"));
    assertThat(badCapabilities.at("/error/code").asInt()).isEqualTo(-32602);
    assertThat(badCapabilities.at("/error/message").asText()).contains("capabilities");

    JsonNode badClient =
        mcp.request(
            "initialize",
            Map.of("protocolVersion", "2025-11-25", "clientInfo", Map.of("name", Map.of())));
    assertThat(badClient.at("/error/code").asInt()).isEqualTo(-32602);
    assertThat(badClient.at("/error/message").asText()).contains("clientInfo");
  }

  @Test
  void initializeIsNotNeededBeforeOtherRequestsAndMayBeRepeated() throws Exception {
    assertThat(mcp.request("tools/list", null).at("/result/tools").size()).isEqualTo(5);
    assertThat(initialize("2025-06-18").at("/result/protocolVersion").asText())
        .isEqualTo("2025-06-18");
    assertThat(initialize("2025-11-25").at("/result/protocolVersion").asText())
        .isEqualTo("2025-11-25");
  }
}
