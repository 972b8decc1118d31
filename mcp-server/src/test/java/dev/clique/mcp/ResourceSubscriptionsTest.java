package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.client.CliqueClient;
import dev.clique.fake.FakeEngine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Subscriptions in the {@code initialize} era ({@code resources/subscribe}): a session's URI hears
 * {@code notifications/resources/updated} when its state changes, {@code clique://sessions} when
 * anything does, and {@code list_changed} comes when sessions come and go. One held change-feed
 * request serves every subscription, only while there is one; it delays no tool call.
 */
class ResourceSubscriptionsTest {
  static final String UPDATED = "notifications/resources/updated";
  static final String LIST_CHANGED = "notifications/resources/list_changed";
  private static final String CLAUDE = "clique://sessions/" + Fixtures.CLAUDE_ID;
  private static final String SHELL = "clique://sessions/" + Fixtures.SHELL_ID;

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

  private void subscribe(String uri) throws InterruptedException {
    JsonNode answer = mcp.request("resources/subscribe", Map.of("uri", uri));
    assertThat(answer.get("result")).as(answer.toString()).isEqualTo(Fixtures.json("{}"));
  }

  /** The notifications that come within {@code window}, in order. */
  static List<JsonNode> notificationsWithin(McpHarness mcp, Duration window)
      throws InterruptedException {
    List<JsonNode> seen = new ArrayList<>();
    long deadline = System.nanoTime() + window.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      JsonNode frame = left > 0 ? mcp.next(Duration.ofNanos(left)) : null;
      if (frame == null) {
        return seen;
      }
      if (frame.has("method")) {
        seen.add(frame);
      }
    }
  }

  /** Waits for the first notification that {@code wanted} accepts (at most 5 s). */
  static JsonNode awaitNotification(McpHarness mcp, Predicate<JsonNode> wanted)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    List<JsonNode> passed = new ArrayList<>();
    while (true) {
      long left = deadline - System.nanoTime();
      JsonNode frame = left > 0 ? mcp.next(Duration.ofNanos(left)) : null;
      if (frame == null) {
        throw new AssertionError("no such notification within 5 s; other frames: " + passed);
      }
      if (frame.has("method") && wanted.test(frame)) {
        return frame;
      }
      passed.add(frame);
    }
  }

  static Predicate<JsonNode> updated(String uri) {
    return frame ->
        frame.path("method").asText().equals(UPDATED)
            && frame.at("/params/uri").asText().equals(uri);
  }

  static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 5 s: " + what);
      }
      Thread.sleep(5);
    }
  }

  @Test
  void aSubscribedSessionHearsOfItsStateChangeAndNoOtherSessionDoes() throws Exception {
    subscribe(CLAUDE);
    eventually("the feed is held", () -> feed.holding.get() == 1);
    feed.setState(Fixtures.SHELL_ID, "idle");
    feed.setState(Fixtures.CLAUDE_ID, "working");
    JsonNode note = awaitNotification(mcp, updated(CLAUDE));
    assertThat(note.has("id")).isFalse();
    assertThat(note.at("/params/_meta").isMissingNode()).as("untagged in this era").isTrue();
    for (JsonNode other : notificationsWithin(mcp, Duration.ofMillis(300))) {
      assertThat(other.at("/params/uri").asText()).isNotEqualTo(SHELL);
      assertThat(other.path("method").asText()).isNotEqualTo(LIST_CHANGED);
    }
  }

  @Test
  void thePaneAndConversationOfASessionHearOfItsStateChangesToo() throws Exception {
    subscribe(CLAUDE + "/pane");
    subscribe(CLAUDE + "/conversation");
    eventually("the feed is held", () -> feed.holding.get() == 1);
    feed.setState(Fixtures.CLAUDE_ID, "idle");
    awaitNotification(mcp, updated(CLAUDE + "/pane"));
    awaitNotification(mcp, updated(CLAUDE + "/conversation"));
  }

  @Test
  void theListHearsOfEveryChangeAndSessionsComingAndGoingAreListChanged() throws Exception {
    subscribe("clique://sessions");
    eventually("the feed is held", () -> feed.holding.get() == 1);
    feed.setState(Fixtures.SHELL_ID, "idle");
    awaitNotification(mcp, updated("clique://sessions"));

    feed.add("c0ffee00-0000-4000-8000-000000000001");
    awaitNotification(mcp, frame -> frame.path("method").asText().equals(LIST_CHANGED));
    awaitNotification(mcp, updated("clique://sessions"));

    feed.remove(Fixtures.SHELL_ID);
    awaitNotification(mcp, frame -> frame.path("method").asText().equals(LIST_CHANGED));
  }

  @Test
  void aSessionThatGoesAwayIsUpdatedToo() throws Exception {
    subscribe(SHELL);
    eventually("the feed is held", () -> feed.holding.get() == 1);
    feed.remove(Fixtures.SHELL_ID);
    awaitNotification(mcp, updated(SHELL));
    JsonNode gone = mcp.request("resources/read", Map.of("uri", SHELL));
    assertThat(gone.at("/error/code").asInt()).isEqualTo(-32002);
  }

  @Test
  void manySubscriptionsShareOneHeldRequestWhichEndsWithTheLast() throws Exception {
    subscribe(CLAUDE);
    subscribe(SHELL);
    subscribe("clique://sessions");
    subscribe(CLAUDE + "/pane");
    eventually("the feed is held", () -> feed.holding.get() == 1);
    feed.setState(Fixtures.CLAUDE_ID, "idle");
    awaitNotification(mcp, updated(CLAUDE));
    awaitNotification(mcp, updated("clique://sessions"));
    awaitNotification(mcp, updated(CLAUDE + "/pane"));
    eventually("the feed is held again", () -> feed.holding.get() == 1);
    assertThat(feed.mostHeld.get()).as("never two held requests at once").isEqualTo(1);

    for (String uri : List.of(CLAUDE, SHELL, "clique://sessions")) {
      assertThat(mcp.request("resources/unsubscribe", Map.of("uri", uri)).get("result"))
          .isEqualTo(Fixtures.json("{}"));
    }
    // The answered request may still be counted as it finishes: the next one is awaited, and none
    // was let go of (a cancelled one is, within the 20 ms its holder writes in).
    eventually("one subscription is left", () -> feed.holding.get() == 1);
    assertThat(feed.abandoned.get()).as("held requests let go of").isZero();
    mcp.request("resources/unsubscribe", Map.of("uri", CLAUDE + "/pane"));
    eventually("the held request is let go of", () -> feed.abandoned.get() == 1);
    int asked = feed.heldRequests.get();
    feed.setState(Fixtures.CLAUDE_ID, "working");
    assertThat(notificationsWithin(mcp, Duration.ofMillis(300))).isEmpty();
    assertThat(feed.heldRequests.get()).as("nothing more is asked").isEqualTo(asked);
  }

  @Test
  void anEngineWithoutAFeedIsReadAgainEveryFewSecondsNotInALoop() throws Exception {
    // A CLIque panel: no revision, and an after= it does not know is answered at once.
    ObjectNode panel = (ObjectNode) Fixtures.contractJson("state.json");
    panel.remove("revision");
    engine.on("/api/state", FakeEngine.json(200, panel.toString()));
    subscribe(CLAUDE);
    Thread.sleep(1500);
    assertThat(engine.requestsTo("/api/state").size())
        .as("reads in 1.5 s: the subscribe's, the feed's first and at most one more")
        .isBetween(2, 4);
    ((ObjectNode) panel.at("/sessions/0")).put("state", "idle");
    engine.on("/api/state", FakeEngine.json(200, panel.toString()));
    awaitNotification(mcp, updated(CLAUDE));
  }

  @Test
  void nothingIsHeldBeforeAnySubscription() throws Exception {
    mcp.request("resources/list", null);
    mcp.request("resources/read", Map.of("uri", CLAUDE));
    Thread.sleep(200);
    assertThat(feed.heldRequests.get()).isZero();
  }

  @Test
  void aHeldFeedDelaysNoToolCall() throws Exception {
    subscribe("clique://sessions");
    eventually("the feed is held", () -> feed.holding.get() == 1);
    long started = System.nanoTime();
    JsonNode listed = mcp.callTool("list_sessions", Map.of());
    assertThat(listed.at("/result/isError").asBoolean(true)).isFalse();
    JsonNode pane = mcp.callTool("preview_pane", Map.of("id", Fixtures.CLAUDE_ID));
    assertThat(pane.at("/result/isError").asBoolean(true)).isFalse();
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
  }

  @Test
  void aSubscribeToAnUnknownUriOrSessionIsResourceNotFoundAndSubscribesNothing() throws Exception {
    for (String uri :
        List.of(
            "file:///home/dev/project/notes.txt",
            "clique://sessions/" + Fixtures.CLAUDE_ID + "/keys",
            "clique://sessions/no-such-session",
            "clique://sessions/no-such-session/pane")) {
      JsonNode answer = mcp.request("resources/subscribe", Map.of("uri", uri));
      assertThat(answer.at("/error/code").asInt()).as(uri + ": " + answer).isEqualTo(-32002);
      assertThat(answer.at("/error/data/uri").asText()).isEqualTo(uri);
    }
    Thread.sleep(200);
    assertThat(feed.heldRequests.get()).as("nothing is followed").isZero();
    feed.setState(Fixtures.CLAUDE_ID, "idle");
    assertThat(notificationsWithin(mcp, Duration.ofMillis(300))).isEmpty();
  }

  @Test
  void aSubscribeWithoutAUriIsInvalidParams() throws Exception {
    JsonNode answer = mcp.request("resources/subscribe", Map.of("url", CLAUDE));
    assertThat(answer.at("/error/code").asInt()).isEqualTo(-32602);
    assertThat(answer.at("/error/message").asText()).contains("params.uri");
  }

  @Test
  void theEarlierEraMethodsAreNotPartOf20260728() throws Exception {
    for (String method : List.of("resources/subscribe", "resources/unsubscribe")) {
      JsonNode answer = mcp.request(method, ResourcesTest.modern(Map.of("uri", CLAUDE)));
      assertThat(answer.at("/error/code").asInt()).as(method).isEqualTo(-32601);
      assertThat(answer.at("/error/message").asText()).contains("subscriptions/listen");
    }
    assertThat(feed.heldRequests.get()).isZero();
  }
}
