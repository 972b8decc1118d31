package dev.clique.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The engine's end of {@link LibraryFloor} with {@code --serve}: Jetty on loopback, set up as the
 * engine sets up its own, answering every request with the state of an engine with no sessions. A
 * class of its own, so that the floor without it never needs Jetty on its class path.
 */
final class FloorServer {
  private static final byte[] EMPTY_STATE =
      "{\"revision\":1,\"sessions\":[]}".getBytes(StandardCharsets.UTF_8);

  private FloorServer() {}

  /** Starts the server on loopback; its URL. */
  static String start() throws Exception {
    QueuedThreadPool threads = new QueuedThreadPool(16, 2);
    threads.setDaemon(true);
    Server server = new Server(threads);
    ServerConnector connector = new ServerConnector(server, 1, 1);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(
        new Handler.Abstract() {
          @Override
          public boolean handle(
              org.eclipse.jetty.server.Request request,
              org.eclipse.jetty.server.Response response,
              Callback callback) {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            response.write(true, ByteBuffer.wrap(EMPTY_STATE), callback);
            return true;
          }
        });
    server.start();
    return "http://127.0.0.1:" + connector.getLocalPort();
  }
}
