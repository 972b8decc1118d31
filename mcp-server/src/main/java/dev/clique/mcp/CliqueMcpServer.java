package dev.clique.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.client.CliqueClient;
import dev.clique.mcp.protocol.RequestRouter;
import dev.clique.mcp.stdio.FrameWriter;
import dev.clique.mcp.stdio.StdioFront;
import dev.clique.mcp.tools.CliqueTool;
import dev.clique.mcp.tools.ConversationTool;
import dev.clique.mcp.tools.GetSessionTool;
import dev.clique.mcp.tools.ListSessionsTool;
import dev.clique.mcp.tools.PreviewPaneTool;
import dev.clique.mcp.tools.WaitTool;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessAsyncServer;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.AsyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * {@code clique mcp}: the five read-only tools on stdin/stdout. The tools reach sessions only
 * through the GET-only {@link CliqueClient}, so nothing here can type into a session.
 */
public final class CliqueMcpServer {
  public static final String NAME = "clique";
  public static final String INSTRUCTIONS =
      "clique shows the coding-agent sessions (Claude Code, Codex, Gemini, shells) running in"
          + " tmux: list_sessions, get_session, wait, preview_pane and conversation. They only"
          + " read: they never type into a session.";

  private final CliqueClient client;

  public CliqueMcpServer(CliqueClient client) {
    this.client = client;
  }

  /** The project's version, as built. */
  public static String version() {
    Properties props = new Properties();
    try (InputStream in = CliqueMcpServer.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        props.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return props.getProperty("version", "unknown");
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

  /** Serves until {@code in} ends, then cancels what is still pending and returns. */
  public void serve(InputStream in, OutputStream out) throws IOException {
    ObjectMapper json = new ObjectMapper();
    FrameWriter frames = new FrameWriter(out);
    List<CliqueTool> tools = tools();
    Set<String> names = new LinkedHashSet<>();
    tools.forEach(tool -> names.add(tool.definition().name()));
    RequestRouter router = new RequestRouter(frames, names, json);
    McpStatelessAsyncServer server =
        McpServer.async(router)
            .jsonMapper(new JacksonMcpJsonMapper(json))
            .serverInfo(NAME, version())
            .instructions(INSTRUCTIONS)
            .capabilities(ServerCapabilities.builder().tools(false).build())
            .validateToolInputs(false)
            .tools(
                tools.stream()
                    .map(
                        tool ->
                            new AsyncToolSpecification(
                                tool.definition(),
                                (context, request) -> tool.call(request.arguments())))
                    .toList())
            .build();
    try {
      new StdioFront(frames, router).run(in);
    } finally {
      router.cancelAll();
      server.close();
    }
  }
}
