package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The instructions and the tools' descriptions, as a client hands them to its model: each under 2
 * KB, and they say first what an assistant needs first (list the sessions, then wait until one
 * needs a person).
 */
class WhatAnAssistantReadsFirstTest {
  private static final int LIMIT = 2048;

  private McpHarness mcp;
  private String instructions;
  private JsonNode tools;

  @BeforeEach
  void start() throws Exception {
    mcp = McpHarness.start(new CliqueMcpServer(new FakeClient(), Fixtures.VERSION));
    instructions =
        mcp.request(
                "initialize",
                Map.of(
                    "protocolVersion", "2025-11-25",
                    "capabilities", Map.of(),
                    "clientInfo", Map.of("name", "t", "version", "0")))
            .at("/result/instructions")
            .asText();
    tools = mcp.request("tools/list", null).at("/result/tools");
  }

  @AfterEach
  void end() {
    mcp.close();
  }

  private static int bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }

  @Test
  void theInstructionsAndEveryDescriptionAreUnder2Kb() {
    assertThat(bytes(instructions)).as(instructions).isBetween(1, LIMIT - 1);
    List<String> descriptions = new ArrayList<>();
    for (JsonNode tool : tools) {
      descriptions.add(tool.path("description").asText());
      tool.at("/inputSchema/properties")
          .forEach(property -> descriptions.add(property.path("description").asText("")));
    }
    assertThat(tools).hasSize(5);
    for (String description : descriptions) {
      assertThat(bytes(description)).as(description).isLessThan(LIMIT);
    }
    assertThat(tools).allMatch(tool -> !tool.path("description").asText().isBlank());
  }

  @Test
  void theInstructionsSayListFirstThenWaitUntilAPersonIsNeeded() {
    int list = instructions.indexOf("Start with list_sessions");
    int waitFor = instructions.indexOf("call wait");
    assertThat(list).as(instructions).isNotNegative();
    assertThat(waitFor).as("wait comes after list").isGreaterThan(list);
    assertThat(instructions.substring(waitFor))
        .contains("no longer working")
        .contains("needs a person")
        .contains("attention");
    assertThat(instructions).contains("never type into a session");
  }

  @Test
  void eachDescriptionIsOneSentence() {
    for (JsonNode tool : tools) {
      String description = tool.path("description").asText();
      assertThat(description).as(tool.path("name").asText()).endsWith(".");
      assertThat(description.substring(0, description.length() - 1))
          .as(tool.path("name").asText() + ": one sentence")
          .doesNotContain(". ");
    }
    assertThat(tools.get(0).path("description").asText()).contains("the place to start");
  }
}
