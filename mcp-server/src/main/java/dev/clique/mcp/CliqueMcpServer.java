package dev.clique.mcp;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.client.CliqueClient;
import dev.clique.mcp.protocol.FrameWriter;
import dev.clique.mcp.protocol.RequestRouter;
import dev.clique.mcp.protocol.Route;
import dev.clique.mcp.protocol.ServerIdentity;
import dev.clique.mcp.resources.ResourceRoutes;
import dev.clique.mcp.stdio.StdioFront;
import dev.clique.mcp.tools.CliqueTool;
import dev.clique.mcp.tools.ConversationTool;
import dev.clique.mcp.tools.GetSessionTool;
import dev.clique.mcp.tools.ListSessionsTool;
import dev.clique.mcp.tools.PreviewPaneTool;
import dev.clique.mcp.tools.ToolRoutes;
import dev.clique.mcp.tools.WaitTool;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code clique mcp}: the five read-only tools on stdin/stdout, and the sessions as resources. Both
 * reach sessions only through the GET-only {@link CliqueClient}, so nothing here can type into a
 * session.
 */
public final class CliqueMcpServer {
  public static final String NAME = "clique";

  /**
   * What an assistant reads first; a client may show it nothing else of the server up front (Claude
   * Code defers the tools themselves behind its tool search). Under 2 KB, as is each tool's
   * description.
   */
  public static final String INSTRUCTIONS =
      "clique shows the coding-agent sessions (Claude Code, Codex, Gemini CLI, shells) running in"
          + " tmux; its five tools only read: they never type into a session. Start with"
          + " list_sessions: every session's id, CLI, folder and state (working, waiting, error,"
          + " idle or stopped). To follow one, call wait with its id: it returns as soon as the"
          + " session is no longer working, because it finished (idle) or needs a person (waiting"
          + " or error; attention says why), or when its timeout (at most 300 s) passes, so call"
          + " it again to keep waiting. get_session shows one session, preview_pane the last lines"
          + " of its terminal, conversation what the person and the agent said. A waiting session"
          + " needs its person: say what it asks; you cannot answer it from here.";

  /** How often a pending request that asked for progress hears of it (MCP.md: at most 15 s). */
  public static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);

  /** How long answers still pending when stdin closes may take before they are cancelled. */
  public static final Duration DRAIN_ON_EOF = Duration.ofMillis(250);

  private final CliqueClient client;
  private final String version;
  private final Duration progressEvery;
  private final Duration drainOnEof;
  private final AtomicReference<Serving> serving = new AtomicReference<>();
  private volatile boolean stopped;

  /** What {@link #stop()} ends: the stdout frames, the pending calls, the subscriptions, stdin. */
  private record Serving(
      FrameWriter frames, RequestRouter router, ResourceRoutes resources, InputStream in) {}

  /**
   * @param client the engine's client, bound to a read-only token
   * @param version the version {@code initialize} names, as the assembling command has it
   */
  public CliqueMcpServer(CliqueClient client, String version) {
    this(client, version, PROGRESS_EVERY, DRAIN_ON_EOF);
  }

  private CliqueMcpServer(
      CliqueClient client, String version, Duration progressEvery, Duration drainOnEof) {
    this.client = Objects.requireNonNull(client, "client");
    this.version = Objects.requireNonNull(version, "version");
    this.progressEvery = positive(progressEvery, "progressEvery");
    this.drainOnEof = Objects.requireNonNull(drainOnEof, "drainOnEof");
  }

  /** This server, sending progress every {@code interval} instead (tests use a short one). */
  public CliqueMcpServer progressEvery(Duration interval) {
    return new CliqueMcpServer(client, version, interval, drainOnEof);
  }

  /** This server, giving pending answers {@code grace} once stdin has closed. */
  public CliqueMcpServer drainOnEof(Duration grace) {
    return new CliqueMcpServer(client, version, progressEvery, grace);
  }

  /**
   * {@code {"tools": {"listChanged": false}, "resources": {"subscribe": true, "listChanged":
   * true}}}, as the SDK would write its {@code ServerCapabilities}: made by hand, since having
   * Jackson write the SDK's record costs tens of milliseconds at start.
   */
  static ObjectNode capabilities() {
    ObjectNode capabilities = JsonNodeFactory.instance.objectNode();
    capabilities.putObject("tools").put("listChanged", false);
    capabilities.putObject("resources").put("subscribe", true).put("listChanged", true);
    return capabilities;
  }

  /** The tools, in the order {@code tools/list} shows them. */
  public List<CliqueTool> tools() {
    return List.of(
        new ListSessionsTool(client),
        new GetSessionTool(client),
        new WaitTool(client),
        new PreviewPaneTool(client),
        new ConversationTool(client));
  }

  /**
   * Serves until {@code in} ends; then gives pending answers a moment ({@link #DRAIN_ON_EOF}),
   * cancels the rest (aborting their HTTP calls) and returns.
   */
  public void serve(InputStream in, OutputStream out) throws IOException {
    FrameWriter frames = new FrameWriter(out);
    ServerIdentity identity = new ServerIdentity(NAME, version, INSTRUCTIONS, capabilities());
    ResourceRoutes resources = new ResourceRoutes(client, frames);
    Map<String, Route> routes = new HashMap<>(new ToolRoutes(tools()).routes());
    routes.putAll(resources.routes());
    RequestRouter router = new RequestRouter(frames, identity, progressEvery, routes);
    serving.set(new Serving(frames, router, resources, in));
    if (stopped) {
      stop();
      return;
    }
    try {
      new StdioFront(frames, router).run(in);
      router.awaitIdle(drainOnEof);
    } catch (IOException e) {
      if (!stopped) {
        throw e;
      }
      // stop() closed stdin under the read: the end of input, asked for.
    } finally {
      router.close();
      resources.close();
    }
  }

  /**
   * Stops serving at once, for SIGINT and SIGTERM (MCP.md: exit within 100 ms): nothing more is
   * written to stdout once the frame being written is whole, pending calls are abandoned (their
   * HTTP calls aborted) and stdin is closed, which ends {@link #serve} when closing that stream
   * wakes a read blocked on it (a channel's stream does; a {@code FileInputStream} does not).
   *
   * <p>The JVM waits up to 300 ms at exit for threads blocked in a system call; this leaves none of
   * this server's.
   */
  public void stop() {
    stopped = true;
    Serving current = serving.get();
    if (current == null) {
      return;
    }
    current.frames().close();
    current.router().close();
    current.resources().close();
    try {
      current.in().close();
    } catch (IOException e) {
      // stdin is going away with the process either way
    }
  }

  private static Duration positive(Duration value, String name) {
    Objects.requireNonNull(value, name);
    if (value.isZero() || value.isNegative()) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
    return value;
  }
}
