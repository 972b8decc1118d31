package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The sessions as MCP resources against a real engine and real tmux: the TypeScript SDK's client
 * lists, reads and subscribes through {@code clique mcp} (the {@code initialize} era, the only one
 * the SDK speaks) and hears {@code notifications/resources/updated} when a session's state changes
 * and {@code list_changed} when one is made; a 2026-07-28 client does the same through {@code
 * subscriptions/listen} on {@code clique mcp --embedded}.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class McpResourcesIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String UPDATED = "notifications/resources/updated";
  private static final String LIST_CHANGED = "notifications/resources/list_changed";
  private static final Duration A_WHILE = Duration.ofSeconds(30);

  private static Path mcpClients() {
    Path dir = Path.of(System.getProperty("clique.mcpClients", "mcp-clients"));
    assertThat(dir.resolve("node_modules"))
        .as("npm ci must have run in " + dir + " (the build does it before the ITs)")
        .isDirectory();
    return dir.toAbsolutePath();
  }

  /** Types a command into a session through the engine's API, as a person's panel would. */
  private static void type(ThrowawayEngine engine, String admin, String id, String text)
      throws Exception {
    HttpResponse<String> sent =
        engine.post(
            "/api/sessions/" + id + "/send",
            admin,
            JSON.writeValueAsString(Map.of("text", text, "enter", true)));
    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
  }

  /** An update of {@code uri} whose read showed the session in {@code state}. */
  private static Predicate<JsonNode> updated(String uri, String state) {
    return frame ->
        frame.path("notification").asText().equals(UPDATED)
            && frame.path("uri").asText().equals(uri)
            && frame.path("state").asText().equals(state);
  }

  /** The next line of {@code process} that {@code wanted} accepts, parsed; the others skipped. */
  private static JsonNode awaitLine(Spawned process, Predicate<JsonNode> wanted) throws Exception {
    return awaitEach(process, List.of(wanted)).get(0);
  }

  /**
   * One line of {@code process} for each of {@code wanted}, in whatever order they come (the client
   * prints a notification once its read came back, so two sent together may swap), parsed and in
   * the order asked for; the lines none of them accepts are skipped.
   */
  private static List<JsonNode> awaitEach(Spawned process, List<Predicate<JsonNode>> wanted)
      throws Exception {
    long deadline = System.nanoTime() + A_WHILE.toNanos();
    JsonNode[] found = new JsonNode[wanted.size()];
    List<String> skipped = new ArrayList<>();
    while (Arrays.asList(found).contains(null)) {
      if (System.nanoTime() >= deadline) {
        throw new AssertionError(
            "not within " + A_WHILE + "; heard: " + Arrays.asList(found) + "; skipped: " + skipped);
      }
      String line;
      try {
        line = process.nextLine(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
      } catch (AssertionError e) {
        throw new AssertionError(
            e.getMessage() + "; heard: " + Arrays.asList(found) + "; skipped: " + skipped, e);
      }
      JsonNode frame = JSON.readTree(line);
      int match = -1;
      for (int i = 0; i < found.length && match < 0; i++) {
        if (found[i] == null && wanted.get(i).test(frame)) {
          match = i;
        }
      }
      if (match >= 0) {
        found[match] = frame;
      } else {
        skipped.add(line);
      }
    }
    return List.of(found);
  }

  @Test
  void theTypeScriptSdkClientListsReadsSubscribesAndHearsOfRealChanges() throws Exception {
    ThrowawayEngine.WithShell shell = ThrowawayEngine.startWithShell("resources");
    try (ThrowawayEngine engine = shell.engine()) {
      String id = shell.sessionId();
      String session = "clique://sessions/" + id;
      List<String> command =
          List.of("node", "ts-sdk-resources.mjs", id, Launcher.script().toString(), "mcp");
      try (Spawned node = Spawned.start(command, engine.mcpEnv(shell.reader()), mcpClients())) {
        JsonNode subscribed =
            awaitLine(node, frame -> frame.path("phase").asText().equals("subscribed"));
        assertThat(subscribed.at("/capabilities/resources"))
            .isEqualTo(JSON.readTree("{\"subscribe\":true,\"listChanged\":true}"));
        assertThat(subscribed.path("resources").toString())
            .isEqualTo(JSON.writeValueAsString(List.of("clique://sessions", session)));
        assertThat(subscribed.path("templates").toString())
            .isEqualTo(
                JSON.writeValueAsString(
                    List.of(
                        "clique://sessions/{id}",
                        "clique://sessions/{id}/pane",
                        "clique://sessions/{id}/conversation")));
        JsonNode reads = subscribed.path("reads");
        assertThat(reads.at("/clique:~1~1sessions/json/sessions/0/id").asText()).isEqualTo(id);
        assertThat(reads.path(session).at("/json/id").asText()).isEqualTo(id);
        assertThat(reads.path(session).path("mimeType").asText()).isEqualTo("application/json");
        assertThat(reads.path(session + "/pane").at("/json/alive").asBoolean()).isTrue();
        assertThat(reads.path(session + "/conversation").at("/json/turns").isArray()).isTrue();
        assertThat(subscribed.at("/unknownRead/code").asInt()).isEqualTo(-32002);
        assertThat(subscribed.at("/unknownRead/data/uri").asText())
            .isEqualTo("clique://sessions/nobody");
        assertThat(subscribed.at("/unknownSubscribe/code").asInt()).isEqualTo(-32002);

        // A real command in the real pane: the session works, then is idle again. What the
        // engine itself said meanwhile is kept, to tell a missed notification from a missed state.
        try (StateTrail trail = StateTrail.follow(engine, shell.admin(), id)) {
          type(engine, shell.admin(), id, "sleep 3");
          try {
            awaitLine(node, updated(session, "working"));
            awaitLine(node, updated(session, "idle"));
          } catch (AssertionError e) {
            throw new AssertionError(
                e.getMessage()
                    + "\nthe engine's states meanwhile: "
                    + trail.states()
                    + "\nthe client's stderr:\n"
                    + node.stderr(),
                e);
          }
        }

        // One new session: the list changed, and the subscribed list was updated to hold it.
        String made = engine.createShell(shell.admin(), "made-later");
        List<JsonNode> heard =
            awaitEach(
                node,
                List.of(
                    frame ->
                        frame.path("notification").asText().equals(LIST_CHANGED)
                            && frame.path("uris").toString().contains(made),
                    frame ->
                        frame.path("notification").asText().equals(UPDATED)
                            && frame.path("uri").asText().equals("clique://sessions")
                            && frame.path("listed").toString().contains(made)));
        assertThat(heard.get(0).path("uris").toString()).contains(session);
        assertThat(heard.get(1).path("listed").toString()).contains(id);

        node.send("done");
        awaitLine(node, frame -> frame.path("phase").asText().equals("done"));
        assertThat(node.waitFor(A_WHILE)).as(node.stderr()).isZero();
        assertThat(node.stderr()).doesNotContain(shell.reader());
      }
    }
  }

  @Test
  void aModernClientListensThroughTheEmbeddedServerAndHearsOfRealChanges() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      String admin = engine.mintToken("listen-admin", false);
      String first = engine.createShell(admin, "first");
      try (Spawned mcp =
          Spawned.start(
              List.of(Launcher.script().toString(), "mcp", "--embedded"),
              engine.env(),
              engine.workdir)) {
        Modern client = new Modern(mcp);
        JsonNode discovered = client.request(1, "server/discover", Map.of());
        assertThat(discovered.at("/result/capabilities/resources"))
            .isEqualTo(JSON.readTree("{\"subscribe\":true,\"listChanged\":true}"));
        // The embedded engine sees the session the serve beside it made, once it looked at tmux.
        String session = "clique://sessions/" + first;
        long deadline = System.nanoTime() + A_WHILE.toNanos();
        JsonNode read = client.request(2, "resources/read", Map.of("uri", session));
        while (read.has("error") && System.nanoTime() < deadline) {
          Thread.sleep(200);
          read = client.request(2, "resources/read", Map.of("uri", session));
        }
        assertThat(read.at("/result/resultType").asText())
            .as(read.toString())
            .isEqualTo("complete");
        assertThat(read.at("/result/contents/0/mimeType").asText()).isEqualTo("application/json");

        client.send(
            "watch",
            "subscriptions/listen",
            Map.of(
                "notifications",
                Map.of("resourcesListChanged", true, "resourceSubscriptions", List.of(session))));
        JsonNode ack =
            client.await(
                frame ->
                    frame
                        .path("method")
                        .asText()
                        .equals("notifications/subscriptions/acknowledged"));
        assertThat(ack.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asText())
            .isEqualTo("watch");

        // Once the embedded engine has the session alive, stopping its tmux session (through
        // the serve beside it) is a change of state that depends on nothing the shell does.
        String shown = "";
        long alive = System.nanoTime() + A_WHILE.toNanos();
        while (System.nanoTime() < alive && !shown.contains("\"alive\":true")) {
          Thread.sleep(200);
          shown =
              client
                  .request(3, "resources/read", Map.of("uri", session))
                  .at("/result/contents/0/text")
                  .asText("");
        }
        assertThat(shown)
            .as("the embedded engine sees the session alive")
            .contains("\"alive\":true");
        HttpResponse<String> killed = engine.post("/api/sessions/" + first + "/kill", admin, "");
        assertThat(killed.statusCode()).as(killed.body()).isEqualTo(200);
        // Each notification is followed by a read, as a client would; the last says stopped.
        String state = "";
        JsonNode updated = null;
        long stopped = System.nanoTime() + A_WHILE.toNanos();
        while (!state.equals("stopped") && System.nanoTime() < stopped) {
          updated =
              client.await(
                  frame ->
                      frame.path("method").asText().equals(UPDATED)
                          && frame.at("/params/uri").asText().equals(session));
          state =
              JSON.readTree(
                      client
                          .request(3, "resources/read", Map.of("uri", session))
                          .at("/result/contents/0/text")
                          .asText("{}"))
                  .path("state")
                  .asText();
        }
        assertThat(state).isEqualTo("stopped");
        assertThat(updated.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asText())
            .isEqualTo("watch");

        engine.createShell(admin, "second");
        JsonNode listChanged =
            client.await(frame -> frame.path("method").asText().equals(LIST_CHANGED));
        assertThat(listChanged.at("/params/_meta/io.modelcontextprotocol~1subscriptionId").asText())
            .isEqualTo("watch");

        JsonNode unknown =
            client.request(
                4,
                "subscriptions/listen",
                Map.of(
                    "notifications",
                    Map.of("resourceSubscriptions", List.of("clique://sessions/nobody"))));
        assertThat(unknown.at("/error/code").asInt()).isEqualTo(-32602);

        mcp.send(
            JSON.writeValueAsString(
                Map.of(
                    "jsonrpc",
                    "2.0",
                    "method",
                    "notifications/cancelled",
                    "params",
                    Map.of("requestId", "watch"))));
        mcp.closeStdin();
        assertThat(mcp.waitFor(Duration.ofSeconds(5))).isZero();
        for (String line : mcp.stdout().split("\n")) {
          if (!line.isBlank()) {
            assertThat(JSON.readTree(line).path("jsonrpc").asText()).as(line).isEqualTo("2.0");
          }
        }
      }
    }
  }

  /**
   * A 2026-07-28 client on a spawned server: every request names the version in its _meta, and a
   * frame read while looking for another is kept for a later look, not dropped.
   */
  private static final class Modern {
    private final Spawned mcp;
    private final List<JsonNode> unread = new ArrayList<>();

    Modern(Spawned mcp) {
      this.mcp = mcp;
    }

    void send(Object id, String method, Map<String, Object> params) throws Exception {
      Map<String, Object> withMeta = new java.util.HashMap<>(params);
      withMeta.put(
          "_meta",
          Map.of(
              "io.modelcontextprotocol/protocolVersion",
              "2026-07-28",
              "io.modelcontextprotocol/clientInfo",
              Map.of("name", "conformance", "version", "0"),
              "io.modelcontextprotocol/clientCapabilities",
              Map.of()));
      mcp.send(
          JSON.writeValueAsString(
              Map.of("jsonrpc", "2.0", "id", id, "method", method, "params", withMeta)));
    }

    JsonNode request(int id, String method, Map<String, Object> params) throws Exception {
      send(id, method, params);
      return await(frame -> frame.path("id").asInt(-1) == id && !frame.has("method"));
    }

    /** The first frame, kept or new, that {@code wanted} accepts. */
    JsonNode await(Predicate<JsonNode> wanted) throws Exception {
      for (int i = 0; i < unread.size(); i++) {
        if (wanted.test(unread.get(i))) {
          return unread.remove(i);
        }
      }
      long deadline = System.nanoTime() + A_WHILE.toNanos();
      while (true) {
        String line;
        try {
          line = mcp.nextLine(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        } catch (AssertionError e) {
          throw new AssertionError(e.getMessage() + "; unread: " + unread, e);
        }
        JsonNode frame = JSON.readTree(line);
        if (wanted.test(frame)) {
          return frame;
        }
        unread.add(frame);
      }
    }
  }
}
