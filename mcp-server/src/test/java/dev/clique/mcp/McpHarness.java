package dev.clique.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@link CliqueMcpServer#serve} on a thread of its own, with stdin and stdout in memory: what a
 * test writes is a line on the server's stdin, and every line the server writes is a frame to read.
 * Every stdout line must be JSON.
 */
final class McpHarness implements AutoCloseable {
  private static final byte[] END = new byte[0];

  private final BlockingQueue<byte[]> stdin = new LinkedBlockingQueue<>();
  private final BlockingQueue<JsonNode> frames = new LinkedBlockingQueue<>();
  private final List<JsonNode> seen = new ArrayList<>();
  private final List<JsonNode> aside = new ArrayList<>();
  private final CountDownLatch ended = new CountDownLatch(1);
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final List<String> notJson = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final AtomicInteger nextId = new AtomicInteger(1000);
  private final Thread serving;
  private volatile boolean inputClosed;

  private McpHarness(CliqueMcpServer server) {
    serving =
        new Thread(
            () -> {
              try {
                server.serve(new QueueInput(), new LineOutput());
              } catch (Throwable t) {
                failure.set(t);
              } finally {
                ended.countDown();
              }
            },
            "mcp-harness-serve");
    serving.setDaemon(true);
    serving.start();
  }

  static McpHarness start(CliqueMcpServer server) {
    return new McpHarness(server);
  }

  /** Writes one line (a newline is added). */
  void send(String line) {
    sendBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
  }

  void sendBytes(byte[] bytes) {
    stdin.add(bytes.clone());
  }

  void send(Map<String, Object> message) {
    try {
      send(Fixtures.JSON.writeValueAsString(message));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A request with a fresh id; returns the id. */
  int sendRequest(String method, Object params) {
    int id = nextId.incrementAndGet();
    ObjectNode message = Fixtures.JSON.createObjectNode();
    message.put("jsonrpc", "2.0");
    message.put("id", id);
    message.put("method", method);
    if (params != null) {
      message.set("params", Fixtures.JSON.valueToTree(params));
    }
    send(message.toString());
    return id;
  }

  /** Sends a request and waits for its answer; other frames are kept for {@link #aside()}. */
  JsonNode request(String method, Object params) throws InterruptedException {
    return answerTo(sendRequest(method, params), Duration.ofSeconds(10));
  }

  JsonNode callTool(String name, Map<String, Object> arguments) throws InterruptedException {
    return request("tools/call", Map.of("name", name, "arguments", arguments));
  }

  /** The text of a tool result's first content block. */
  static String text(JsonNode answer) {
    return answer.at("/result/content/0/text").asText();
  }

  /** Waits for the answer with this id; frames that come first are set aside. */
  JsonNode answerTo(int id, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (aside) {
      for (JsonNode frame : aside) {
        if (frame.path("id").asInt(-1) == id && !frame.has("method")) {
          aside.remove(frame);
          return frame;
        }
      }
    }
    while (true) {
      long left = deadline - System.nanoTime();
      JsonNode frame = left > 0 ? frames.poll(left, TimeUnit.NANOSECONDS) : null;
      if (frame == null) {
        throw new AssertionError("no answer to request " + id + " within " + timeout);
      }
      if (frame.path("id").asInt(-1) == id && frame.has("id") && !frame.has("method")) {
        return frame;
      }
      synchronized (aside) {
        aside.add(frame);
      }
    }
  }

  /** The next frame, whatever it is, or null when none comes within {@code timeout}. */
  JsonNode next(Duration timeout) throws InterruptedException {
    synchronized (aside) {
      if (!aside.isEmpty()) {
        return aside.remove(0);
      }
    }
    return frames.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Frames that arrived while waiting for another answer (notifications, other answers). */
  List<JsonNode> aside() {
    synchronized (aside) {
      return List.copyOf(aside);
    }
  }

  /** Every frame the server wrote so far. */
  List<JsonNode> seen() {
    synchronized (seen) {
      return List.copyOf(seen);
    }
  }

  /** Closes the server's stdin (end of stream). */
  void closeInput() {
    inputClosed = true;
    stdin.add(END);
  }

  /** Waits for {@code serve} to return; true when it did within {@code timeout}. */
  boolean awaitEnd(Duration timeout) throws InterruptedException {
    boolean done = ended.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (done && failure.get() != null) {
      throw new AssertionError("serve failed", failure.get());
    }
    return done;
  }

  @Override
  public void close() {
    if (!inputClosed) {
      closeInput();
    }
    boolean done;
    try {
      done = awaitEnd(Duration.ofSeconds(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      done = false;
    }
    if (!done) {
      serving.interrupt();
      throw new AssertionError("serve did not return within 5 s of stdin closing");
    }
    if (!notJson.isEmpty()) {
      throw new AssertionError("stdout carried lines that are not JSON: " + notJson);
    }
  }

  /** The server's stdin: what the test sent, then the end. */
  private final class QueueInput extends InputStream {
    private byte[] current = new byte[0];
    private int position;
    private boolean atEnd;

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      if (length == 0) {
        return 0;
      }
      while (!atEnd && position == current.length) {
        try {
          byte[] next = stdin.take();
          if (next == END) {
            atEnd = true;
          } else {
            current = next;
            position = 0;
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException();
        }
      }
      if (atEnd && position == current.length) {
        return -1;
      }
      int n = Math.min(length, current.length - position);
      System.arraycopy(current, position, buffer, offset, n);
      position += n;
      return n;
    }
  }

  /** The server's stdout: split into lines, each parsed as a frame. */
  private final class LineOutput extends OutputStream {
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    @Override
    public synchronized void write(int b) {
      if (b == '\n') {
        String text = line.toString(StandardCharsets.UTF_8);
        line.reset();
        JsonNode frame;
        try {
          frame = Fixtures.JSON.readTree(text);
        } catch (IOException e) {
          notJson.add(text);
          return;
        }
        synchronized (seen) {
          seen.add(frame);
        }
        frames.add(frame);
      } else {
        line.write(b);
      }
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) {
      for (int i = offset; i < offset + length; i++) {
        write(bytes[i]);
      }
    }
  }
}
