package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.client.CliqueClient;
import dev.clique.fake.FakeEngine;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Many waits at once delay nothing else: no fixed pool of threads that a few waits exhaust, in the
 * server or in the HTTP client underneath.
 */
class ConcurrencyTest {
  private static final int WAITS = 100;

  @Test
  void aHundredPendingWaitsDoNotDelayAPingByMoreThan50Ms() throws Exception {
    FakeClient client = new FakeClient();
    try (McpHarness mcp = McpHarness.start(new CliqueMcpServer(client, Fixtures.VERSION))) {
      mcp.request("ping", null); // warm
      for (int i = 0; i < WAITS; i++) {
        mcp.sendRequest("tools/call", Map.of("name", "wait", "arguments", Map.of("id", "s" + i)));
      }
      client.awaitCalls(WAITS);
      assertThat(quickest(mcp, "ping")).isLessThan(Duration.ofMillis(50));
      // tools/list goes through the SDK's server, as the waits did.
      assertThat(quickest(mcp, "tools/list")).isLessThan(Duration.ofMillis(50));
    }
  }

  /** The quickest of five answers: one slow answer on a busy machine proves nothing. */
  private static Duration quickest(McpHarness mcp, String method) throws InterruptedException {
    long best = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      long start = System.nanoTime();
      JsonNode answer = mcp.request(method, null);
      best = Math.min(best, System.nanoTime() - start);
      assertThat(answer.has("result")).as(answer.toString()).isTrue();
    }
    return Duration.ofNanos(best);
  }

  @Test
  void aHundredWaitsHeldByTheEngineDoNotQueueOtherCalls() throws Exception {
    try (FakeEngine engine = Fixtures.contractEngine()) {
      for (int i = 0; i < WAITS; i++) {
        engine.on(
            "/api/sessions/w" + i + "/wait", engine.hang(Fixtures.contract("wait-matched.json")));
      }
      CliqueClient client =
          CliqueClient.builder().baseUrl(engine.url()).token(Fixtures.TOKEN).build();
      try (McpHarness mcp = McpHarness.start(new CliqueMcpServer(client, Fixtures.VERSION))) {
        mcp.request("ping", null);
        for (int i = 0; i < WAITS; i++) {
          mcp.sendRequest("tools/call", Map.of("name", "wait", "arguments", Map.of("id", "w" + i)));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (engine.holding.get() < WAITS && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
        assertThat(engine.holding.get()).as("waits held at the engine at once").isEqualTo(WAITS);

        assertThat(quickest(mcp, "ping")).isLessThan(Duration.ofMillis(50));
        assertThat(quickest(mcp, "tools/list")).isLessThan(Duration.ofMillis(50));

        JsonNode listed = mcp.callTool("list_sessions", Map.of());
        assertThat(listed.at("/result/isError").asBoolean(true)).isFalse();
        assertThat(engine.holding.get()).isEqualTo(WAITS);

        engine.releaseAll();
        int answered = 0;
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (answered < WAITS && System.nanoTime() < end) {
          JsonNode frame = mcp.next(Duration.ofMillis(500));
          if (frame != null && frame.at("/result/structuredContent/matched").asBoolean()) {
            answered++;
          }
        }
        assertThat(answered).isEqualTo(WAITS);
      }
    }
  }
}
