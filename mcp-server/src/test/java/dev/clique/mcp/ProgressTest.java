package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A pending call that asked for progress hears of it at every interval (10 s in use, at most 15 s
 * by MCP.md; 100 ms here), and never after its answer.
 */
class ProgressTest {
  private static final Duration EVERY = Duration.ofMillis(100);

  private final FakeClient client = new FakeClient();
  private final McpHarness mcp =
      McpHarness.start(new CliqueMcpServer(client, Fixtures.VERSION).progressEvery(EVERY));

  @AfterEach
  void end() {
    mcp.close();
  }

  private int waitWithProgressToken(Object token) {
    return mcp.sendRequest(
        "tools/call",
        Map.of(
            "name",
            "wait",
            "arguments",
            Map.of("id", "s1"),
            "_meta",
            Map.of("progressToken", token)));
  }

  private List<JsonNode> progressFor(Object token, int atLeast) throws InterruptedException {
    List<JsonNode> notes = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (notes.size() < atLeast && System.nanoTime() < deadline) {
      JsonNode frame = mcp.next(Duration.ofMillis(200));
      if (frame != null
          && frame.path("method").asText().equals("notifications/progress")
          && frame.at("/params/progressToken").asText().equals(token.toString())) {
        notes.add(frame);
      }
    }
    return notes;
  }

  @Test
  void aWaitingCallWithAProgressTokenHearsOfProgressUntilItsAnswer() throws Exception {
    int id = waitWithProgressToken("tok-1");
    List<JsonNode> notes = progressFor("tok-1", 3);
    assertThat(notes).hasSize(3);
    double last = 0;
    for (JsonNode note : notes) {
      assertThat(note.has("id")).isFalse();
      double progress = note.at("/params/progress").asDouble();
      assertThat(progress).isGreaterThan(last);
      last = progress;
      assertThat(note.at("/params/message").asText()).contains("wait");
    }
    client.awaitCalls(1);
    client.calls.get(0).answer(FakeClient.waitResult(Fixtures.contractJson("wait-matched.json")));
    assertThat(mcp.answerTo(id, Duration.ofSeconds(5)).at("/result/isError").asBoolean(true))
        .isFalse();
    Thread.sleep(EVERY.toMillis() * 3);
    List<JsonNode> after = new ArrayList<>();
    JsonNode frame;
    while ((frame = mcp.next(Duration.ofMillis(50))) != null) {
      after.add(frame);
    }
    assertThat(after).noneMatch(f -> f.path("method").asText().equals("notifications/progress"));
  }

  @Test
  void aNumericProgressTokenComesBackAsANumber() throws Exception {
    waitWithProgressToken(42);
    List<JsonNode> notes = progressFor(42, 1);
    assertThat(notes).hasSize(1);
    assertThat(notes.get(0).at("/params/progressToken").isIntegralNumber()).isTrue();
  }

  @Test
  void aCallWithoutAProgressTokenHearsNothingBeforeItsAnswer() throws Exception {
    int id = mcp.sendRequest("tools/call", Map.of("name", "wait", "arguments", Map.of("id", "s1")));
    assertThat(mcp.next(Duration.ofMillis(EVERY.toMillis() * 4))).isNull();
    client.awaitCalls(1);
    client.calls.get(0).answer(FakeClient.waitResult(Fixtures.contractJson("wait-matched.json")));
    assertThat(mcp.answerTo(id, Duration.ofSeconds(5)).has("result")).isTrue();
  }

  @Test
  void theDefaultIntervalIsWithinFifteenSeconds() {
    assertThat(CliqueMcpServer.PROGRESS_EVERY).isLessThanOrEqualTo(Duration.ofSeconds(15));
  }
}
