package dev.clique.cli;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Unix socket of the process that runs the home's engine: the processes waiting to take over
 * connect and read, which costs them nothing until the kernel closes their connections with this
 * process, however it ends (kill -9 too). It writes nothing and reads nothing of what they say.
 */
final class Heartbeat implements AutoCloseable {
  private final Path socket;
  private final ServerSocketChannel server;
  private final Set<SocketChannel> waiters = ConcurrentHashMap.newKeySet();

  private Heartbeat(Path socket, ServerSocketChannel server) {
    this.socket = socket;
    this.server = server;
  }

  /**
   * Listens on {@code socket} (in the 0700 home), in place of one a killed holder left; null when
   * it cannot (the waiters then look at the lock every so often instead).
   */
  static Heartbeat listen(Path socket) {
    try {
      Files.deleteIfExists(socket);
      ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      server.bind(UnixDomainSocketAddress.of(socket));
      Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
      Heartbeat heartbeat = new Heartbeat(socket, server);
      Thread accepting = new Thread(heartbeat::accept, "engine-heartbeat");
      accepting.setDaemon(true);
      accepting.start();
      return heartbeat;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private void accept() {
    while (server.isOpen()) {
      try {
        SocketChannel waiter = server.accept();
        Thread holding = new Thread(() -> hold(waiter), "engine-heartbeat-waiter");
        holding.setDaemon(true);
        holding.start();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  /** Keeps one waiter's connection until it goes (it ended, or took over elsewhere). */
  private void hold(SocketChannel waiter) {
    waiters.add(waiter);
    try (waiter) {
      ByteBuffer nothing = ByteBuffer.allocate(1);
      while (waiter.read(nothing.clear()) >= 0) {
        // a waiter says nothing: only its end tells
      }
    } catch (IOException e) {
      // it went
    } finally {
      waiters.remove(waiter);
    }
  }

  @Override
  public void close() {
    try {
      server.close();
      for (SocketChannel waiter : waiters) {
        waiter.close(); // this process lets go of the engine: the waiters look at the lock now
      }
      Files.deleteIfExists(socket);
    } catch (IOException e) {
      // the process is ending
    }
  }
}
