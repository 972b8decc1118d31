package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.client.CliqueClient;
import dev.clique.fake.FakeEngine;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Stdin closed: serve returns at once, even with waits in flight, and their calls are aborted. */
class EndOfInputTest {
  @Test
  void serveReturnsWellWithinASecondWhileWaitsAreInFlight() throws Exception {
    FakeClient client = new FakeClient();
    McpHarness mcp = McpHarness.start(new CliqueMcpServer(client, Fixtures.VERSION));
    for (int i = 0; i < 10; i++) {
      mcp.sendRequest("tools/call", Map.of("name", "wait", "arguments", Map.of("id", "s" + i)));
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (client.calls.size() < 10 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(client.calls).hasSize(10);
    long start = System.nanoTime();
    mcp.closeInput();
    assertThat(mcp.awaitEnd(Duration.ofSeconds(1))).isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(600));
    assertThat(client.calls).allMatch(call -> call.future().isCancelled());
  }

  @Test
  void theEngineSeesTheWaitsConnectionsClosed() throws Exception {
    try (FakeEngine engine = FakeEngine.start()) {
      engine.on("/api/sessions/s1/wait", engine.hang(Fixtures.contract("wait-matched.json")));
      CliqueClient client =
          CliqueClient.builder().baseUrl(engine.url()).token(Fixtures.TOKEN).build();
      McpHarness mcp = McpHarness.start(new CliqueMcpServer(client, Fixtures.VERSION));
      mcp.sendRequest("tools/call", Map.of("name", "wait", "arguments", Map.of("id", "s1")));
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (engine.holding.get() < 1 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      mcp.closeInput();
      assertThat(mcp.awaitEnd(Duration.ofSeconds(1))).isTrue();
      long closed = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (engine.abandoned.get() < 1 && System.nanoTime() < closed) {
        Thread.sleep(10);
      }
      assertThat(engine.abandoned.get()).isEqualTo(1);
    }
  }

  @Test
  void aQuickAnswerStillPendingWhenStdinClosesIsWritten() throws Exception {
    FakeClient client = new FakeClient();
    McpHarness mcp = McpHarness.start(new CliqueMcpServer(client, Fixtures.VERSION));
    int id =
        mcp.sendRequest(
            "tools/call", Map.of("name", "preview_pane", "arguments", Map.of("id", "s")));
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (client.calls.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    mcp.closeInput();
    Thread.sleep(50);
    client.calls.get(0).answer(FakeClient.pane(Fixtures.contractJson("peek.json")));
    assertThat(mcp.awaitEnd(Duration.ofSeconds(1))).isTrue();
    assertThat(mcp.answerTo(id, Duration.ofMillis(100)).at("/result/isError").asBoolean(true))
        .isFalse();
  }

  @Test
  void anOpenListenAndASubscriptionEndWithStdinAndLetGoOfTheHeldFeed() throws Exception {
    FakeFeed feed = FakeFeed.ofTheContract();
    try (FakeEngine engine = FakeEngine.start().on("/api/state", feed)) {
      CliqueClient client =
          CliqueClient.builder().baseUrl(engine.url()).token(Fixtures.TOKEN).build();
      McpHarness mcp = McpHarness.start(new CliqueMcpServer(client, Fixtures.VERSION));
      mcp.request("resources/subscribe", Map.of("uri", "clique://sessions"));
      mcp.sendRequest(
          "subscriptions/listen",
          ResourcesTest.modern(Map.of("notifications", Map.of("resourcesListChanged", true))));
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (feed.holding.get() < 1 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      long start = System.nanoTime();
      mcp.closeInput();
      assertThat(mcp.awaitEnd(Duration.ofSeconds(1))).isTrue();
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(600));
      long closed = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (feed.abandoned.get() < 1 && System.nanoTime() < closed) {
        Thread.sleep(10);
      }
      assertThat(feed.abandoned.get()).isEqualTo(1);
    }
  }
}
