package dev.clique.engine.bench;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A load of {@code GET /api/state} on a running engine, for profiling: {@code StateLoad URL TOKEN
 * CONNECTIONS SECONDS}. Prints requests per second.
 */
public final class StateLoad {
  private StateLoad() {}

  public static void main(String[] args) throws Exception {
    URI url = URI.create(args[0]);
    byte[] request = RawHttp.get("/api/state", args[1]);
    int connections = Integer.parseInt(args[2]);
    long seconds = Long.parseLong(args[3]);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong done = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    for (int c = 0; c < connections; c++) {
      Thread thread =
          new Thread(
              () -> {
                try (RawHttp http = new RawHttp(url.getHost(), url.getPort())) {
                  while (!stop.get()) {
                    http.send(request);
                    http.read();
                    done.incrementAndGet();
                  }
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      thread.start();
      threads.add(thread);
    }
    Thread.sleep(seconds * 1000);
    stop.set(true);
    for (Thread thread : threads) {
      thread.join();
    }
    System.out.printf(Locale.ROOT, "%,.0f requests/s%n", done.get() / (double) seconds);
  }
}
