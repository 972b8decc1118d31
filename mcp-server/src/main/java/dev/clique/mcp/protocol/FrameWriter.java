package dev.clique.mcp.protocol;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes whole JSON-RPC frames to stdout, one per line, one writer at a time: the only thing that
 * ever reaches stdout.
 */
public final class FrameWriter {
  private final OutputStream out;
  private volatile boolean broken;
  private volatile boolean closed;

  public FrameWriter(OutputStream out) {
    this.out = out;
  }

  /** Writes one frame; a JSON text never contains a raw newline, so it stays one line. */
  public void write(String json) {
    write(json.getBytes(StandardCharsets.UTF_8));
  }

  /** Writes one frame already encoded as UTF-8 JSON (the large answers come this way). */
  public synchronized void write(byte[] json) {
    if (broken || closed) {
      return;
    }
    try {
      out.write(json);
      out.write('\n');
      out.flush();
    } catch (IOException e) {
      broken = true; // the client went away; nothing more to say to it
    }
  }

  /**
   * Writes nothing more, once a frame being written is whole: the process is about to exit (SIGINT,
   * SIGTERM), and stdout must not end in half a frame.
   */
  public synchronized void close() {
    closed = true;
  }
}
