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
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

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

  /** The connections open now, as the kernel's tables list them; null when they cannot be read. */
  interface Table {
    Set<Connection> open();
  }

  /** A TCP connection as the table names it: the two ports (the addresses are loopback's). */
  record Connection(int localPort, int remotePort) {}

  /** A held request: what its hang-up runs, and how many reads of the table had begun before it. */
  private record Held(Runnable onHangUp, long readsBefore) {}

  private final Table table;
  private final Map<Connection, Held> held = new ConcurrentHashMap<>();
  private final AtomicLong reads = new AtomicLong();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "engine-hang-ups");
            thread.setDaemon(true);
            return thread;
          });

  private final boolean everyQuarterSecond;
  private ScheduledFuture<?> looking; // guarded by this: runs only while a request is held

  /** Watches with {@code table}; {@code table} null: no table here, hang-ups go unnoticed. */
  HangUpWatch(Table table, boolean everyQuarterSecond) {
    this.table = table;
    this.everyQuarterSecond = table != null && everyQuarterSecond;
  }

  /** One look, and the timer stopped once no request is held: an idle engine reads nothing. */
  private void lookWhileHeld() {
    look();
    synchronized (this) {
      if (held.isEmpty() && looking != null) {
        looking.cancel(false);
        looking = null;
      }
    }
  }

  static HangUpWatch system() {
    List<Path> files =
        Stream.of(Path.of("/proc/net/tcp"), Path.of("/proc/net/tcp6"))
            .filter(Files::isReadable)
            .toList();
    return new HangUpWatch(files.isEmpty() ? null : () -> read(files), true);
  }

  /**
   * Runs {@code onHangUp} once when the client of this connection hangs up; closing the answer
   * stops watching.
   */
  AutoCloseable watch(SocketAddress local, SocketAddress remote, Runnable onHangUp) {
    if (table == null
        || !(local instanceof InetSocketAddress l)
        || !(remote instanceof InetSocketAddress r)) {
      return () -> {};
    }
    Connection connection = new Connection(l.getPort(), r.getPort());
    Held entry = new Held(onHangUp, reads.get());
    synchronized (this) {
      held.put(connection, entry);
      if (everyQuarterSecond && looking == null) {
        looking =
            timer.scheduleWithFixedDelay(
                this::lookWhileHeld, EVERY_MILLIS, EVERY_MILLIS, TimeUnit.MILLISECONDS);
      }
    }
    // Only its own entry: a later request on a reused port may hold the same key by now.
    return () -> held.remove(connection, entry);
  }

  /**
   * One look at the table. A request held after this read began may be missing from it (its
   * connection was made while the table was read), so only the requests held before are judged.
   */
  void look() {
    if (held.isEmpty()) {
      return;
    }
    long read = reads.incrementAndGet();
    Set<Connection> open = table.open();
    if (open == null) {
      return; // unreadable this time: nothing is decided on half a table
    }
    for (Map.Entry<Connection, Held> entry : held.entrySet()) {
      Held waiting = entry.getValue();
      if (waiting.readsBefore() < read
          && !open.contains(entry.getKey())
          && held.remove(entry.getKey(), waiting)) {
        waiting.onHangUp().run();
      }
    }
  }

  private static Set<Connection> read(List<Path> files) {
    Set<Connection> open = new HashSet<>();
    try {
      for (Path file : files) {
        for (String line : Files.readAllLines(file)) {
          String[] f = line.strip().split("\\s+");
          if (f.length < 4 || !f[1].contains(":") || f[3].equals(CLOSE_WAIT)) {
            continue; // the header, or a connection its client closed
          }
          open.add(new Connection(port(f[1]), port(f[2])));
        }
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
    return open;
  }

  private static int port(String address) {
    return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1), 16);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
