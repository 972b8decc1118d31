package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The running usage of one transcript file: a tally advanced line by line from where the last read
 * stopped, so a file that grows costs the bytes it grew by, and an unchanged one (same size,
 * modification time and identity) nothing. Sums need every line, not a tail, and the CLIs only
 * append; a file that shrank, was replaced, or whose bytes before the resume point changed is
 * tallied afresh. A fresh tally of a file larger than {@link #BUDGET_BYTES} starts at the first
 * line that budget before its end, and says its sums are partial; so does a file that grew by more
 * than the budget between two reads. Memory holds at most two steps of the file, whatever its size;
 * a line longer than a step is parsed as it streams from the file.
 */
final class UsageFile {

  /** The bytes read in one step. */
  static final int CHUNK_BYTES = 1 << 20;

  /** The most a fresh tally reads: the end of a larger file only. */
  static final long BUDGET_BYTES = 64L << 20;

  /** Bytes before the resume point compared on every read, to notice a rewritten file. */
  static final int ANCHOR_BYTES = 64;

  private final UsageReader reader;
  private final AtomicLong bytesRead;

  private UsageReader.Tally tally;
  private boolean partial;
  private long size = -1;
  private FileTime modified;
  private Object fileKey;

  /** Where the first line not yet tallied starts. */
  private long resumeAt;

  /** The bytes just before {@link #resumeAt}. */
  private byte[] anchor = new byte[0];

  private UsageReport report = UsageReport.NONE;

  UsageFile(UsageReader reader, AtomicLong bytesRead) {
    this.reader = reader;
    this.bytesRead = bytesRead;
  }

  UsageReader reader() {
    return reader;
  }

  /** The usage the file records now; reads only what was appended since the last call. */
  synchronized UsageReport report(Path file, BasicFileAttributes attributes) throws IOException {
    long newSize = attributes.size();
    FileTime newModified = attributes.lastModifiedTime();
    Object newKey = attributes.fileKey();
    if (newSize == size && newModified.equals(modified) && Objects.equals(newKey, fileKey)) {
      return report;
    }
    long oldSize = size;
    size = -1; // an exception below leaves nothing half-updated behind
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      boolean appended =
          tally != null
              && oldSize >= 0
              && newSize >= oldSize
              && Objects.equals(newKey, fileKey)
              && newSize - resumeAt <= BUDGET_BYTES
              && Arrays.equals(anchor, read(channel, resumeAt - anchor.length, anchor.length));
      if (!appended) {
        start(channel, newSize);
      }
      advance(channel, newSize);
      keepAnchor(channel);
      report = tally.report(partial);
      size = newSize;
      modified = newModified;
      fileKey = newKey;
    } catch (IOException | RuntimeException e) {
      tally = null;
      report = UsageReport.NONE;
      throw e;
    }
    return report;
  }

  /**
   * The usage of a small file holding one JSON document (Gemini CLI's older format), read whole
   * when it changed; a larger one is not read, as a document has no line to start from.
   */
  synchronized UsageReport documentReport(Path file, BasicFileAttributes attributes)
      throws IOException {
    if (attributes.size() == size
        && attributes.lastModifiedTime().equals(modified)
        && Objects.equals(attributes.fileKey(), fileKey)) {
      return report;
    }
    size = -1;
    report = UsageReport.NONE;
    if (attributes.size() <= CHUNK_BYTES) {
      byte[] bytes;
      try (FileChannel channel =
          FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
        bytes = read(channel, 0, attributes.size());
      }
      tally = reader.tally();
      take(JsonLine.parse(bytes, 0, bytes.length, reader.fields()));
      report = tally.report(false);
    }
    size = attributes.size();
    modified = attributes.lastModifiedTime();
    fileKey = attributes.fileKey();
    return report;
  }

  /** A fresh tally, from the file's start or from the first line of its last budget. */
  private void start(FileChannel channel, long fileSize) throws IOException {
    tally = reader.tally();
    partial = fileSize > BUDGET_BYTES;
    resumeAt = 0;
    if (partial) {
      long newline = find(channel, fileSize - BUDGET_BYTES - 1, fileSize);
      resumeAt = newline < 0 ? fileSize : newline + 1;
    }
  }

  /**
   * Tallies every complete line from {@link #resumeAt} to {@code end}, each byte read once; a cut
   * last line waits for the rest of it. One buffer serves every step: a step's bytes land after the
   * line the step before cut.
   */
  private void advance(FileChannel channel, long end) throws IOException {
    byte[] bytes = new byte[(int) Math.min(2L * CHUNK_BYTES, end - resumeAt)];
    long pos = resumeAt; // where the first line not yet tallied starts: bytes[0]
    int held = 0; // the bytes from pos on that the buffer holds
    while (pos + held < end) {
      int fresh = read(channel, pos + held, bytes, held, Math.min(CHUNK_BYTES, end - pos - held));
      if (fresh == 0) {
        break; // shrank under us: the next call starts afresh
      }
      held += fresh;
      int start = 0;
      for (int newline = TailWindow.indexOf(bytes, 0, held, '\n');
          newline >= 0;
          newline = TailWindow.indexOf(bytes, start, held, '\n')) {
        line(bytes, start, newline);
        start = newline + 1;
      }
      pos += start;
      held -= start;
      System.arraycopy(bytes, start, bytes, 0, held);
      if (held > CHUNK_BYTES) {
        // A line longer than a step: found to its end, then parsed as it streams from the file.
        long newline = find(channel, pos + held, end);
        if (newline < 0) {
          break;
        }
        streamed(channel, pos, newline);
        pos = newline + 1;
        held = 0;
      }
    }
    resumeAt = pos;
  }

  /** The offset of the first newline in {@code [from, end)}, or -1. */
  private long find(FileChannel channel, long from, long end) throws IOException {
    for (long pos = Math.max(0, from); pos < end; ) {
      byte[] bytes = read(channel, pos, Math.min(CHUNK_BYTES, end - pos));
      if (bytes.length == 0) {
        return -1;
      }
      int newline = TailWindow.indexOf(bytes, 0, '\n');
      if (newline >= 0) {
        return pos + newline;
      }
      pos += bytes.length;
    }
    return -1;
  }

  private void line(byte[] bytes, int start, int end) {
    if (reader.mayMatter(bytes, start, end)) {
      take(JsonLine.parse(bytes, start, end, reader.fields()));
    }
  }

  /** A line too long for one step, parsed as it is read; its bytes are not looked at first. */
  private void streamed(FileChannel channel, long start, long end) {
    InputStream in = new TailWindow.RegionStream(channel, start, end, bytesRead);
    take(JsonLine.parse(new InputStreamReader(in, StandardCharsets.UTF_8), reader.fields()));
  }

  /** Gives the tally a line that may hold usage, or says it was left out when it did not parse. */
  private void take(JsonNode line) {
    if (line == null) {
      tally.leftOut(RecordsLeftOut.Why.CUT);
      return;
    }
    try {
      tally.add(line);
    } catch (RuntimeException e) {
      // one odd line never fails the answer
    }
  }

  private void keepAnchor(FileChannel channel) throws IOException {
    long from = Math.max(0, resumeAt - ANCHOR_BYTES);
    anchor = read(channel, from, resumeAt - from);
  }

  private byte[] read(FileChannel channel, long position, long length) throws IOException {
    if (position < 0) {
      return new byte[0];
    }
    byte[] bytes = new byte[(int) length];
    int n = read(channel, position, bytes, 0, length);
    return n == length ? bytes : Arrays.copyOf(bytes, n);
  }

  /**
   * Reads {@code bytes[offset, offset + length)} from {@code position}; fewer at the file's end.
   */
  private int read(FileChannel channel, long position, byte[] bytes, int offset, long length)
      throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, (int) length);
    long at = position;
    while (buffer.hasRemaining()) {
      int n = channel.read(buffer, at);
      if (n < 0) {
        break; // shrank under us: what is there is read, the next call starts afresh
      }
      at += n;
    }
    int n = buffer.position() - offset;
    bytesRead.addAndGet(n);
    return n;
  }
}
