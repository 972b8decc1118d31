package dev.clique.mcp.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.client.CliqueClient;
import dev.clique.client.EngineState;
import dev.clique.mcp.protocol.FrameWriter;
import dev.clique.mcp.protocol.JsonRpc;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Who follows which resource, in both eras: the URIs of {@code resources/subscribe} (2025-11-25 and
 * before) and the open {@code subscriptions/listen} requests (2026-07-28), whose notifications
 * carry the listen's id. The {@link ChangeFeed} runs while anything is followed and stops when
 * nothing is: one held request per server, however many subscriptions.
 *
 * <p>What a change says: {@code notifications/resources/list_changed} when sessions came or went
 * (to a listen that asked for it, and in the earlier era to a client that subscribed to anything);
 * {@code notifications/resources/updated} for a followed session whose state, attention or deciding
 * signal changed, or that came or went (its URI, its pane's and its conversation's), and for {@code
 * clique://sessions} on any of those.
 */
final class Subscriptions implements AutoCloseable {
  static final String SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final FrameWriter out;
  private final ChangeFeed feed;

  // Guarded by this. Each followed URI as the client wrote it, so notifications name it so.
  private final Map<String, ResourceUri> subscribed = new LinkedHashMap<>();
  private final List<Listen> listens = new ArrayList<>();
  private boolean closed;

  Subscriptions(CliqueClient client, FrameWriter out) {
    this.out = out;
    this.feed = new ChangeFeed(client, this::changed);
  }

  /**
   * One {@code subscriptions/listen}: its request id, whether it hears of sessions coming and
   * going, and the URIs it follows, as written and as parsed.
   */
  static final class Listen {
    private final JsonNode id;
    private final boolean listChanged;
    private final Map<String, ResourceUri> uris;
    private final AtomicBoolean ended = new AtomicBoolean();

    Listen(JsonNode id, boolean listChanged, Map<String, ResourceUri> uris) {
      this.id = id;
      this.listChanged = listChanged;
      this.uris = Map.copyOf(uris);
    }

    /** Whether it asks for anything this server sends. */
    boolean wantsAny() {
      return listChanged || !uris.isEmpty();
    }
  }

  /** Follows {@code uri} for the earlier era's client; {@code seen} is the state just read. */
  synchronized void subscribe(String uri, ResourceUri parsed, EngineState seen) {
    if (closed) {
      return;
    }
    subscribed.put(uri, parsed);
    follow(seen);
  }

  synchronized void unsubscribe(String uri) {
    subscribed.remove(uri);
    follow(null);
  }

  /**
   * Acknowledges a listen, as the first message about it, and follows what it asked for; nothing,
   * when it ended (was cancelled) meanwhile.
   *
   * @param notifications what the server agrees to send, for the acknowledgement
   */
  synchronized void listen(Listen listen, ObjectNode notifications, EngineState seen) {
    if (closed || listen.ended.get()) {
      return;
    }
    ObjectNode params = tagged(listen);
    params.set("notifications", notifications);
    out.write(JsonRpc.notification("notifications/subscriptions/acknowledged", params));
    listens.add(listen);
    follow(seen);
  }

  /** Ends a listen: its request was cancelled, or it failed before it began. */
  void end(Listen listen) {
    listen.ended.set(true);
    synchronized (this) {
      if (listens.remove(listen)) {
        follow(null);
      }
    }
  }

  @Override
  public synchronized void close() {
    closed = true;
    subscribed.clear();
    listens.clear();
    feed.stop();
  }

  private void follow(EngineState seen) {
    boolean wanted = !subscribed.isEmpty() || listens.stream().anyMatch(Listen::wantsAny);
    if (wanted) {
      feed.start(seen);
    } else {
      feed.stop();
    }
  }

  private synchronized void changed(ChangeFeed.Changes changes) {
    if (closed) {
      return;
    }
    if (changes.listChanged() && !subscribed.isEmpty()) {
      out.write(JsonRpc.notification("notifications/resources/list_changed", NODES.objectNode()));
    }
    subscribed.forEach(
        (uri, parsed) -> {
          if (affects(changes, parsed)) {
            out.write(updated(NODES.objectNode(), uri));
          }
        });
    for (Listen listen : listens) {
      if (listen.listChanged && changes.listChanged()) {
        out.write(JsonRpc.notification("notifications/resources/list_changed", tagged(listen)));
      }
      listen.uris.forEach(
          (uri, parsed) -> {
            if (affects(changes, parsed)) {
              out.write(updated(tagged(listen), uri));
            }
          });
    }
  }

  private static boolean affects(ChangeFeed.Changes changes, ResourceUri uri) {
    return uri.kind() == ResourceUri.Kind.SESSIONS
        ? changes.any()
        : changes.sessions().contains(uri.sessionId());
  }

  private static String updated(ObjectNode params, String uri) {
    params.put("uri", uri);
    return JsonRpc.notification("notifications/resources/updated", params);
  }

  /** Params whose {@code _meta} names the listen they belong to. */
  private static ObjectNode tagged(Listen listen) {
    ObjectNode params = NODES.objectNode();
    params.putObject("_meta").set(SUBSCRIPTION_ID, listen.id);
    return params;
  }
}
