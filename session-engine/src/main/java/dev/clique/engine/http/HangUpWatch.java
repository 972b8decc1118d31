package dev.clique.engine.http;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Notices the clients that hung up on a request the engine holds open (a {@code wait}). Jetty
 * learns of an HTTP/1.1 client's hang-up only when it writes the answer; the kernel's TCP table
 * knows at once: a connection whose peer closed it is in {@code CLOSE_WAIT}, one it reset is gone.
 * One read of the table every {@value #EVERY_MILLIS} ms serves every held request; where there is
 * no such table (not Linux) a hang-up is noticed at the answer, as before.
 */
final class HangUpWatch implements AutoCloseable {
  static final long EVERY_MILLIS = 250;
  private static final String CLOSE_WAIT = "08";

  private final List<Path> tables;
  private final Map<Connection, Runnable> held = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "engine-hang-ups");
            thread.setDaemon(true);
            return thread;
          });

  /** A TCP connection as the table names it: the two ports (the addresses are loopback's). */
  private record Connection(int localPort, int remotePort) {}

  HangUpWatch(List<Path> tables) {
    this.tables = tables.stream().filter(Files::isReadable).toList();
    if (!this.tables.isEmpty()) {
      timer.scheduleWithFixedDelay(this::look, EVERY_MILLIS, EVERY_MILLIS, TimeUnit.MILLISECONDS);
    }
  }

  static HangUpWatch system() {
    return new HangUpWatch(List.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6")));
  }

  /**
   * Runs {@code onHangUp} once when the client of this connection hangs up; closing the answer
   * stops watching.
   */
  AutoCloseable watch(SocketAddress local, SocketAddress remote, Runnable onHangUp) {
    if (tables.isEmpty()
        || !(local instanceof InetSocketAddress l)
        || !(remote instanceof InetSocketAddress r)) {
      return () -> {};
    }
    Connection connection = new Connection(l.getPort(), r.getPort());
    held.put(connection, onHangUp);
    return () -> held.remove(connection);
  }

  private void look() {
    if (held.isEmpty()) {
      return;
    }
    Set<Connection> open = new HashSet<>();
    try {
      for (Path table : tables) {
        for (String line : Files.readAllLines(table)) {
          String[] f = line.strip().split("\\s+");
          if (f.length < 4 || !f[1].contains(":") || f[3].equals(CLOSE_WAIT)) {
            continue; // the header, or a connection its client closed
          }
          open.add(new Connection(port(f[1]), port(f[2])));
        }
      }
    } catch (IOException | RuntimeException e) {
      return; // unreadable this time: nothing is decided on half a table
    }
    for (Map.Entry<Connection, Runnable> entry : held.entrySet()) {
      if (!open.contains(entry.getKey()) && held.remove(entry.getKey()) != null) {
        entry.getValue().run();
      }
    }
  }

  private static int port(String address) {
    return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1), 16);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
