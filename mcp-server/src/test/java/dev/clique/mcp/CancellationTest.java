package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.client.CliqueClient;
import dev.clique.fake.FakeEngine;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code notifications/cancelled} for a pending call cancels its HTTP request. */
class CancellationTest {
  private static void cancel(McpHarness mcp, Object requestId) {
    mcp.send(
        Map.of(
            "jsonrpc",
            "2.0",
            "method",
            "notifications/cancelled",
            "params",
            Map.of("requestId", requestId, "reason", "the user gave up")));
  }

  private static void await(String what, java.util.function.BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(what + " did not happen within 5 s");
      }
      Thread.sleep(10);
    }
  }

  @Test
  void cancellingAPendingWaitCancelsTheClientsFutureAndItIsNotAnswered() throws Exception {
    FakeClient client = new FakeClient();
    try (McpHarness mcp = McpHarness.start(new CliqueMcpServer(client, Fixtures.VERSION))) {
      int id =
          mcp.sendRequest("tools/call", Map.of("name", "wait", "arguments", Map.of("id", "s1")));
      await("the wait reaching the client", () -> client.calls.size() == 1);
      cancel(mcp, id);
      await("the future being cancelled", () -> client.calls.get(0).future().isCancelled());
      assertThat(mcp.request("ping", null).has("result")).isTrue();
      assertThat(mcp.seen()).noneMatch(frame -> frame.path("id").asInt() == id);
    }
  }

  @Test
  void cancellingAPendingWaitClosesItsHttpConnection() throws Exception {
    try (FakeEngine engine = FakeEngine.start()) {
      engine.on("/api/sessions/s1/wait", engine.hang(Fixtures.contract("wait-matched.json")));
      CliqueClient client =
          CliqueClient.builder().baseUrl(engine.url()).token(Fixtures.TOKEN).build();
      try (McpHarness mcp = McpHarness.start(new CliqueMcpServer(client, Fixtures.VERSION))) {
        mcp.send(
            "{\"jsonrpc\":\"2.0\",\"id\":\"w-1\",\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"wait\",\"arguments\":{\"id\":\"s1\",\"timeout\":300}}}");
        await("the engine holding the wait", () -> engine.holding.get() == 1);
        cancel(mcp, "w-1");
        await("the engine seeing the connection closed", () -> engine.abandoned.get() == 1);
        assertThat(mcp.request("ping", null).has("result")).isTrue();
        assertThat(mcp.seen()).noneMatch(frame -> frame.path("id").asText().equals("w-1"));
      }
    }
  }

  @Test
  void cancellingAnUnknownOrFinishedRequestChangesNothing() throws Exception {
    FakeClient client =
        new FakeClient().answering(call -> FakeClient.pane(Fixtures.contractJson("peek.json")));
    try (McpHarness mcp = McpHarness.start(new CliqueMcpServer(client, Fixtures.VERSION))) {
      JsonNode done = mcp.callTool("preview_pane", Map.of("id", "s1"));
      cancel(mcp, done.get("id").asInt());
      cancel(mcp, "never-sent");
      assertThat(mcp.request("ping", null).has("result")).isTrue();
    }
  }
}
