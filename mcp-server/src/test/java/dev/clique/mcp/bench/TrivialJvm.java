package dev.clique.mcp.bench;

import java.io.IOException;

/**
 * The JVM {@link McpBenchmark} starts beside {@code clique mcp}: it answers one line with one line
 * and loads nothing else, so the difference is what clique itself costs.
 */
public final class TrivialJvm {
  private TrivialJvm() {}

  public static void main(String[] args) throws IOException {
    byte[] buffer = new byte[8192];
    while (System.in.read(buffer) > 0) {
      if (new String(buffer, java.nio.charset.StandardCharsets.UTF_8).indexOf('\n') >= 0) {
        break;
      }
    }
    System.out.println("{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}");
    System.out.flush();
    while (System.in.read(buffer) > 0) {
      // until stdin closes
    }
  }
}
