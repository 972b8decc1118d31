package dev.clique.cli;

import dev.clique.engine.Engine;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The home's engine run inside a {@code clique mcp --embedded} process, on an ephemeral loopback
 * port: it has no operator socket and adopts nothing, and it knows the tokens of the home's store,
 * where each assistant's process mints its own. The MCP server sees only its URL and a token, as it
 * would a remote engine's.
 */
final class EmbeddedEngine implements AutoCloseable {
  private final Engine engine;
  private final AtomicBoolean closed = new AtomicBoolean();

  private EmbeddedEngine(Engine engine) {
    this.engine = engine;
  }

  static EmbeddedEngine start(Map<String, String> env) throws IOException {
    return new EmbeddedEngine(
        Engine.start(env, "127.0.0.1", 0, false, BuildInfo.current().version()));
  }

  String url() {
    return engine.url();
  }

  /** Stops the engine, once: a signal's stop and the end of stdin may both ask. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      engine.close();
    }
  }

  @Override
  public String toString() {
    return "EmbeddedEngine[" + engine.url() + "]";
  }
}
