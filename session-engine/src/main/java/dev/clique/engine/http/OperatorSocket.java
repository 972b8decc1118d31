package dev.clique.engine.http;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.unixdomain.server.UnixDomainServerConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's socket in its home ({@code engine.sock}, 0600 in the 0700 home): whoever connects is
 * the user who owns the home, and is the operator, with no token. This is how the human commands
 * ({@code clique new}, {@code clique ls}, ...) reach a running {@code clique serve} without a
 * long-lived token on disk.
 */
public final class OperatorSocket {
  private static final Logger log = LoggerFactory.getLogger(OperatorSocket.class);

  /** The longest path a Unix socket address holds ({@code sun_path}, less its NUL). */
  private static final int MAX_PATH_BYTES = 107;

  private OperatorSocket() {}

  /**
   * Adds the socket's connector to {@code server}, unless another engine already answers on it (two
   * engines may share a home; the first keeps its socket) or the path is too long for a socket.
   */
  public static Optional<UnixDomainServerConnector> claim(Server server, Path path) {
    if (path.toString().getBytes().length > MAX_PATH_BYTES) {
      log.warn(
          "no operator socket: {} is longer than a Unix socket path may be; set CLIQUE_HOME to a"
              + " shorter folder for `clique new`, `clique ls` and the other commands",
          path);
      return Optional.empty();
    }
    if (answers(path)) {
      log.info("another engine answers on {}: it keeps that socket", path);
      return Optional.empty();
    }
    try {
      Files.deleteIfExists(path); // left by an engine that died: nobody answers on it
    } catch (IOException e) {
      log.warn("no operator socket: {} could not be replaced: {}", path, e.getMessage());
      return Optional.empty();
    }
    UnixDomainServerConnector connector = new UnixDomainServerConnector(server, 1, 1);
    connector.setUnixDomainPath(path);
    server.addConnector(connector);
    return Optional.of(connector);
  }

  /** Makes the socket the owner's alone, once the server has made it. */
  public static void makePrivate(Path path) throws IOException {
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
  }

  private static boolean answers(Path path) {
    if (!Files.exists(path)) {
      return false;
    }
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      return channel.connect(UnixDomainSocketAddress.of(path));
    } catch (IOException e) {
      return false;
    }
  }
}
