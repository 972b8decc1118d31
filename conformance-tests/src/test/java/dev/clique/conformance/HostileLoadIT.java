package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A read-only token (the one an MCP client holds) cannot exhaust the engine: waits whose clients
 * hung up are dropped at once, waits are capped per token and in all (503 with Retry-After over the
 * cap), and {@code /healthz} answers fast under a flood of reads. Bounded in count and time, on
 * loopback only.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class HostileLoadIT {
  private static final int ABANDONED_WAITS = 2_000;
  private static final int PEEK_FLOOD = 100;

  @Test
  void abandonedWaitsAndAReadFloodLeaveTheEngineFastAndItsDescriptorsAsTheyWere() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      String admin = engine.mintToken("load-admin", false);
      String reader = engine.mintToken("load-reader", true);
      String id = engine.createShell(admin, "load");
      engine.get("/api/state", reader); // the first request's connection, pools and classes
      Thread.sleep(500);
      int base = descriptors(engine.pid());

      for (int batch = 0; batch < ABANDONED_WAITS / 500; batch++) {
        List<Socket> clients = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
          clients.add(
              rawGet(engine, "/api/sessions/" + id + "/wait?for=stopped&timeout=300", reader));
        }
        Thread.sleep(200); // every wait is registered and pending
        for (Socket client : clients) {
          client.close(); // the client hangs up
        }
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
      int now = descriptors(engine.pid());
      while (now > base + 5 && System.nanoTime() < deadline) {
        Thread.sleep(50);
        now = descriptors(engine.pid());
      }
      System.err.printf(
          "descriptors: %d before, %d within 2 s of %d abandoned waits%n",
          base, now, ABANDONED_WAITS);
      assertThat(now).as("open files of the engine").isLessThanOrEqualTo(base + 5);

      ExecutorService flood = Executors.newFixedThreadPool(PEEK_FLOOD);
      try {
        List<Future<Integer>> peeks = new ArrayList<>();
        for (int round = 0; round < 3; round++) {
          for (int i = 0; i < PEEK_FLOOD; i++) {
            int lines = 1 + (i + round * 7) % 200; // each a size the cache has not served
            peeks.add(
                flood.submit(
                    () ->
                        engine
                            .get("/api/sessions/" + id + "/peek?lines=" + lines, reader)
                            .statusCode()));
          }
        }
        List<Long> health = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
          long start = System.nanoTime();
          HttpResponse<String> answer = engine.get("/healthz", null);
          health.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
          assertThat(answer.statusCode()).isEqualTo(200);
          Thread.sleep(20);
        }
        for (Future<Integer> peek : peeks) {
          assertThat(peek.get(60, TimeUnit.SECONDS)).isIn(200, 503);
        }
        Collections.sort(health);
        long median = health.get(health.size() / 2);
        System.err.printf(
            "/healthz during %d peeks: median %d ms, max %d ms%n",
            3 * PEEK_FLOOD, median, health.get(health.size() - 1));
        assertThat(median).as("median /healthz under a read flood, ms").isLessThanOrEqualTo(100);
      } finally {
        flood.shutdownNow();
      }
    }
  }

  @Test
  void oneTokensWaitsAreCappedAndTheOthersKeepWorking() throws Exception {
    // 256 descriptors: waits may hold 64 of them, one token 16.
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().withFileLimit(256).start()) {
      String admin = engine.mintToken("cap-admin", false);
      String greedy = engine.mintToken("cap-greedy", true);
      String other = engine.mintToken("cap-other", true);
      String id = engine.createShell(admin, "cap");
      List<Socket> held = new ArrayList<>();
      try {
        for (int i = 0; i < 16; i++) {
          held.add(rawGet(engine, "/api/sessions/" + id + "/wait?for=stopped&timeout=60", greedy));
        }
        Thread.sleep(300);
        HttpResponse<String> over =
            engine.get("/api/sessions/" + id + "/wait?for=stopped&timeout=60", greedy);
        assertThat(over.statusCode()).as(over.body()).isEqualTo(503);
        assertThat(over.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(over.body()).contains("16 pending waits");

        HttpResponse<String> others =
            engine.get("/api/sessions/" + id + "/wait?for=idle,working&timeout=5", other);
        assertThat(others.statusCode()).as(others.body()).isEqualTo(200);
        assertThat(engine.get("/healthz", null).statusCode()).isEqualTo(200);
      } finally {
        for (Socket socket : held) {
          socket.close();
        }
      }
      // The places come back as the clients hang up.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
      int status = 503;
      while (status == 503 && System.nanoTime() < deadline) {
        Thread.sleep(100);
        status =
            engine
                .get("/api/sessions/" + id + "/wait?for=idle,working&timeout=0", greedy)
                .statusCode();
      }
      assertThat(status).isEqualTo(200);
    }
  }

  /** A GET on a raw connection, left open: the test decides when the client hangs up. */
  private static Socket rawGet(ThrowawayEngine engine, String path, String token)
      throws IOException {
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), engine.port);
    OutputStream out = socket.getOutputStream();
    out.write(
        ("GET "
                + path
                + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                + token
                + "\r\n\r\n")
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    return socket;
  }

  private static int descriptors(long pid) throws IOException {
    try (var entries = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      return (int) entries.count();
    }
  }
}
