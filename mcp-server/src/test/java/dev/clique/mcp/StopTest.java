package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.client.CliqueClient;
import dev.clique.fake.FakeEngine;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link CliqueMcpServer#stop()}, what SIGINT and SIGTERM call: serve returns at once from a read
 * blocked on stdin, pending calls are cancelled, and nothing more reaches stdout.
 */
class StopTest {
  private static final String INITIALIZE =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
          + "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"0\"}}}\n";

  @Test
  void stopEndsABlockedReadAbandonsWaitsAndWritesNothingMore() throws Exception {
    Pipe stdin = Pipe.open();
    InputStream in = Channels.newInputStream(stdin.source());
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    OutputStream out = written;
    FakeClient client = new FakeClient();
    CliqueMcpServer server = new CliqueMcpServer(client, Fixtures.VERSION);
    CountDownLatch ended = new CountDownLatch(1);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread serving =
        new Thread(
            () -> {
              try {
                server.serve(in, out);
              } catch (Throwable t) {
                failure.set(t);
              } finally {
                ended.countDown();
              }
            });
    serving.setDaemon(true);
    serving.start();

    write(stdin, INITIALIZE);
    write(
        stdin,
        "{\"jsonrpc\":\"2.0\",\"id\":\"held\",\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"wait\",\"arguments\":{\"id\":\"s1\"}}}\n");
    client.awaitCalls(1);
    long stopped = System.nanoTime();
    server.stop();
    assertThat(ended.await(1, TimeUnit.SECONDS)).as("serve returned").isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - stopped)).isLessThan(Duration.ofMillis(100));
    assertThat(failure.get()).as("a stop is no failure").isNull();
    assertThat(client.calls.get(0).future().isCancelled()).as("the wait is abandoned").isTrue();

    String before = written.toString(StandardCharsets.UTF_8);
    assertThat(before).contains("\"id\":1").doesNotContain("held").endsWith("\n");
    client.calls.get(0).answer(FakeClient.waitResult(Fixtures.contractJson("wait-matched.json")));
    Thread.sleep(50);
    assertThat(written.toString(StandardCharsets.UTF_8)).isEqualTo(before);
  }

  @Test
  void stopIsAsQuickWithAHeldChangeFeedAndLetsGoOfIt() throws Exception {
    FakeFeed feed = FakeFeed.ofTheContract();
    try (FakeEngine engine = FakeEngine.start().on("/api/state", feed)) {
      Pipe stdin = Pipe.open();
      ByteArrayOutputStream written = new ByteArrayOutputStream();
      CliqueMcpServer server =
          new CliqueMcpServer(
              CliqueClient.builder().baseUrl(engine.url()).token(Fixtures.TOKEN).build(),
              Fixtures.VERSION);
      CountDownLatch ended = new CountDownLatch(1);
      Thread serving =
          new Thread(
              () -> {
                try {
                  server.serve(Channels.newInputStream(stdin.source()), written);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                } finally {
                  ended.countDown();
                }
              });
      serving.setDaemon(true);
      serving.start();
      write(stdin, INITIALIZE);
      write(
          stdin,
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/subscribe\",\"params\":"
              + "{\"uri\":\"clique://sessions\"}}\n");
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (feed.holding.get() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(feed.holding.get()).as("the feed is held").isEqualTo(1);
      long stopped = System.nanoTime();
      server.stop();
      assertThat(ended.await(1, TimeUnit.SECONDS)).as("serve returned").isTrue();
      assertThat(Duration.ofNanos(System.nanoTime() - stopped)).isLessThan(Duration.ofMillis(100));
      deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (feed.abandoned.get() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(5);
      }
      assertThat(feed.abandoned.get()).as("the held request is let go of").isEqualTo(1);
      String before = written.toString(StandardCharsets.UTF_8);
      feed.setState(Fixtures.CLAUDE_ID, "idle");
      Thread.sleep(100);
      assertThat(written.toString(StandardCharsets.UTF_8)).isEqualTo(before);
    }
  }

  @Test
  void aStopBeforeServingMakesServeReturnAtOnce() throws Exception {
    Pipe stdin = Pipe.open();
    CliqueMcpServer server = new CliqueMcpServer(new FakeClient(), Fixtures.VERSION);
    server.stop();
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    server.serve(Channels.newInputStream(stdin.source()), written);
    assertThat(written.size()).isZero();
  }

  private static void write(Pipe pipe, String text) throws Exception {
    pipe.sink().write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
  }
}
