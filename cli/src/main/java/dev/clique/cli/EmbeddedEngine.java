package dev.clique.cli;

import dev.clique.engine.Engine;
import dev.clique.engine.token.MintedToken;
import dev.clique.engine.token.Scope;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code clique mcp --embedded}: an engine inside the MCP process, on an ephemeral loopback port,
 * with a read-only token that lives in memory only. The MCP server sees only its URL and token, as
 * it would a remote engine's.
 */
final class EmbeddedEngine implements AutoCloseable {
  private final Engine engine;
  private final String token;
  private final AtomicBoolean closed = new AtomicBoolean();

  private EmbeddedEngine(Engine engine, String token) {
    this.engine = engine;
    this.token = token;
  }

  static EmbeddedEngine start(Map<String, String> env) throws IOException {
    Engine engine = Engine.start(env, "127.0.0.1", 0, false, BuildInfo.current().version());
    try {
      MintedToken minted = engine.tokens().create("mcp-embedded", Set.of(Scope.READ), "");
      return new EmbeddedEngine(engine, minted.secret());
    } catch (IOException | RuntimeException e) {
      engine.close();
      throw e;
    }
  }

  String url() {
    return engine.url();
  }

  /** The read-only token for this process's own client. */
  String token() {
    return token;
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
