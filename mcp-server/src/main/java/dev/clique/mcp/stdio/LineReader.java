package dev.clique.mcp.stdio;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Splits a byte stream into lines ({@code \n}, with a trailing {@code \r} dropped). A line longer
 * than the limit is skipped to its end and reported as oversize, so the next line reads normally.
 */
final class LineReader {
  private final InputStream in;
  private final int maxBytes;
  private final byte[] buffer = new byte[64 * 1024];
  private int position;
  private int limit;

  LineReader(InputStream in, int maxBytes) {
    this.in = in;
    this.maxBytes = maxBytes;
  }

  /** One line read: its bytes, or {@code oversize} with no bytes. */
  record Line(byte[] bytes, boolean oversize) {}

  /** The next line, or null at the end of the stream. */
  Line next() throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    boolean oversize = false;
    boolean sawAny = false;
    while (true) {
      if (position == limit) {
        limit = in.read(buffer);
        position = 0;
        if (limit <= 0) {
          limit = 0;
          if (!sawAny) {
            return null;
          }
          return finish(line, oversize);
        }
      }
      sawAny = true;
      int start = position;
      while (position < limit && buffer[position] != '\n') {
        position++;
      }
      int length = position - start;
      if (!oversize) {
        if (line.size() + length > maxBytes) {
          oversize = true;
          line = new ByteArrayOutputStream();
        } else {
          line.write(buffer, start, length);
        }
      }
      if (position < limit) {
        position++; // the newline
        return finish(line, oversize);
      }
    }
  }

  private static Line finish(ByteArrayOutputStream line, boolean oversize) {
    if (oversize) {
      return new Line(new byte[0], true);
    }
    byte[] bytes = line.toByteArray();
    int end = bytes.length;
    if (end > 0 && bytes[end - 1] == '\r') {
      end--;
    }
    if (end != bytes.length) {
      bytes = java.util.Arrays.copyOf(bytes, end);
    }
    return new Line(bytes, false);
  }
}
