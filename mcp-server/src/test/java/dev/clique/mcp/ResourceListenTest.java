package dev.clique.mcp;

import static dev.clique.mcp.ResourceSubscriptionsTest.LIST_CHANGED;
import static dev.clique.mcp.ResourceSubscriptionsTest.UPDATED;
import static dev.clique.mcp.ResourceSubscriptionsTest.awaitNotification;
import static dev.clique.mcp.ResourceSubscriptionsTest.eventually;
import static dev.clique.mcp.ResourceSubscriptionsTest.notificationsWithin;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.client.CliqueClient;
import dev.clique.fake.FakeEngine;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Subscriptions in the 2026-07-28 era: {@code subscriptions/listen} is acknowledged first, its
 * notifications carry its id as {@code io.modelcontextprotocol/subscriptionId}, it stays open until
 * cancelled, and cancelling it lets go of the held change-feed request.
 */
class ResourceListenTest {
  private static final String SUBSCRIPTION_ID =
      "/params/_meta/io.modelcontextprotocol~1subscriptionId";
  private static final String CLAUDE = "clique://sessions/" + Fixtures.CLAUDE_ID;

  private FakeEngine engine;
  private FakeFeed feed;
  private McpHarness mcp;

  @BeforeEach
  void start() throws Exception {
    feed = FakeFeed.ofTheContract();
    engine = Fixtures.contractEngine().on("/api/state", feed);
    CliqueClient client =
        CliqueClient.builder().baseUrl(engine.url()).token(Fixtures.TOKEN).build();
    mcp = McpHarness.start(new CliqueMcpServer(client, Fixtures.VERSION));
  }

  @AfterEach
  void end() {
    mcp.close();
    engine.close();
  }

  private void listen(String id, Map<String, Object> notifications) {
    mcp.send(
        Map.of(
            "jsonrpc",
            "2.0",
            "id",
            id,
            "method",
            "subscriptions/listen",
            "params",
            ResourcesTest.modern(Map.of("notifications", notifications))));
  }

  private void cancel(String id) {
    mcp.send(
        Map.of(
            "jsonrpc",
            "2.0",
            "method",
            "notifications/cancelled",
            "params",
            Map.of("requestId", id)));
  }

  @Test
  void aListenIsAcknowledgedFirstThenHearsItsUrisAndListChangesTaggedWithItsId() throws Exception {
    listen(
        "watch-1", Map.of("resourcesListChanged", true, "resourceSubscriptions", List.of(CLAUDE)));
    JsonNode ack = mcp.next(Duration.ofSeconds(5));
    assertThat(ack.path("method").asText()).isEqualTo("notifications/subscriptions/acknowledged");
    assertThat(ack.at(SUBSCRIPTION_ID).asText()).isEqualTo("watch-1");
    assertThat(ack.at("/params/notifications"))
        .isEqualTo(
            Fixtures.json(
                "{\"resourcesListChanged\":true,\"resourceSubscriptions\":[\"" + CLAUDE + "\"]}"));

    eventually("the feed is held", () -> feed.holding.get() == 1);
    feed.setState(Fixtures.CLAUDE_ID, "working");
    JsonNode updated = awaitNotification(mcp, ResourceSubscriptionsTest.updated(CLAUDE));
    assertThat(updated.at(SUBSCRIPTION_ID).asText()).isEqualTo("watch-1");

    feed.add("c0ffee00-0000-4000-8000-000000000002");
    JsonNode listChanged =
        awaitNotification(mcp, frame -> frame.path("method").asText().equals(LIST_CHANGED));
    assertThat(listChanged.at(SUBSCRIPTION_ID).asText()).isEqualTo("watch-1");
    assertThat(mcp.seen().stream().filter(frame -> "watch-1".equals(frame.path("id").asText())))
        .as("a listen is never answered while it is open")
        .isEmpty();
  }

  @Test
  void onlyWhatWasAskedForIsSentAndWhatIsNotServedIsLeftOutOfTheAcknowledgement() throws Exception {
    listen("tools-only", Map.of("toolsListChanged", true, "promptsListChanged", true));
    JsonNode ack = mcp.next(Duration.ofSeconds(5));
    assertThat(ack.at("/params/notifications")).isEqualTo(Fixtures.json("{}"));
    Thread.sleep(200);
    assertThat(feed.heldRequests.get()).as("nothing to follow").isZero();
    feed.setState(Fixtures.CLAUDE_ID, "idle");
    feed.add("c0ffee00-0000-4000-8000-000000000003");
    assertThat(notificationsWithin(mcp, Duration.ofMillis(300))).isEmpty();
  }

  @Test
  void twoListensShareOneHeldRequestAndEachHearsOnlyWhatItAskedFor() throws Exception {
    listen("a", Map.of("resourceSubscriptions", List.of(CLAUDE)));
    listen("b", Map.of("resourcesListChanged", true));
    mcp.next(Duration.ofSeconds(5));
    mcp.next(Duration.ofSeconds(5));
    eventually("the feed is held", () -> feed.holding.get() == 1);
    feed.setState(Fixtures.CLAUDE_ID, "idle");
    JsonNode updated =
        awaitNotification(mcp, frame -> frame.path("method").asText().equals(UPDATED));
    assertThat(updated.at(SUBSCRIPTION_ID).asText()).isEqualTo("a");
    for (JsonNode other : notificationsWithin(mcp, Duration.ofMillis(300))) {
      assertThat(other.at(SUBSCRIPTION_ID).asText()).as(other.toString()).isNotEqualTo("b");
    }
    assertThat(feed.mostHeld.get()).isEqualTo(1);
  }

  @Test
  void cancellingTheLastListenLetsGoOfTheHeldRequestAndEndsItsNotifications() throws Exception {
    listen("w", Map.of("resourceSubscriptions", List.of("clique://sessions")));
    mcp.next(Duration.ofSeconds(5));
    eventually("the feed is held", () -> feed.holding.get() == 1);
    cancel("w");
    eventually("the held request is let go of", () -> feed.abandoned.get() == 1);
    feed.setState(Fixtures.CLAUDE_ID, "idle");
    assertThat(notificationsWithin(mcp, Duration.ofMillis(300))).isEmpty();
    // The id is free again once the listen is over.
    listen("w", Map.of("resourceSubscriptions", List.of("clique://sessions")));
    assertThat(mcp.next(Duration.ofSeconds(5)).path("method").asText())
        .isEqualTo("notifications/subscriptions/acknowledged");
  }

  @Test
  void aListenOfAnUnknownUriOrSessionIsInvalidParamsAndListensToNothing() throws Exception {
    for (String uri : List.of("file:///home/dev/project/notes.txt", "clique://sessions/nobody")) {
      int id =
          mcp.sendRequest(
              "subscriptions/listen",
              ResourcesTest.modern(
                  Map.of(
                      "notifications",
                      Map.of(
                          "resourcesListChanged", true, "resourceSubscriptions", List.of(uri)))));
      JsonNode answer = mcp.answerTo(id, Duration.ofSeconds(5));
      assertThat(answer.at("/error/code").asInt()).as(answer.toString()).isEqualTo(-32602);
      assertThat(answer.at("/error/data/uri").asText()).isEqualTo(uri);
    }
    assertThat(mcp.aside()).as("no acknowledgement").isEmpty();
    Thread.sleep(200);
    assertThat(feed.heldRequests.get()).isZero();
  }

  @Test
  void aListenNeedsItsFilterAndTheModernEra() throws Exception {
    JsonNode noFilter = mcp.request("subscriptions/listen", ResourcesTest.modern(Map.of()));
    assertThat(noFilter.at("/error/code").asInt()).isEqualTo(-32602);
    assertThat(noFilter.at("/error/message").asText()).contains("params.notifications");

    JsonNode notAList =
        mcp.request(
            "subscriptions/listen",
            ResourcesTest.modern(Map.of("notifications", Map.of("resourceSubscriptions", CLAUDE))));
    assertThat(notAList.at("/error/code").asInt()).isEqualTo(-32602);

    JsonNode earlierEra =
        mcp.request(
            "subscriptions/listen", Map.of("notifications", Map.of("resourcesListChanged", true)));
    assertThat(earlierEra.at("/error/code").asInt()).isEqualTo(-32601);
    assertThat(earlierEra.at("/error/message").asText())
        .contains("2026-07-28", "resources/subscribe");
    assertThat(feed.heldRequests.get()).isZero();
  }

  @Test
  void theCapabilitiesSaySoInBothEras() throws Exception {
    JsonNode expected =
        Fixtures.json(
            "{\"tools\":{\"listChanged\":false},"
                + "\"resources\":{\"subscribe\":true,\"listChanged\":true}}");
    JsonNode init =
        mcp.request(
            "initialize",
            Map.of(
                "protocolVersion",
                "2025-11-25",
                "capabilities",
                Map.of(),
                "clientInfo",
                Map.of("name", "t", "version", "0")));
    assertThat(init.at("/result/capabilities")).isEqualTo(expected);
    JsonNode discovered = mcp.request("server/discover", ResourcesTest.modern(Map.of()));
    assertThat(discovered.at("/result/capabilities")).isEqualTo(expected);
  }
}
