package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The parsed tail of one transcript file: the entries of the complete lines that start in its last
 * {@link #WINDOW_BYTES} bytes, and the turns they make.
 *
 * <p>The answer is a function of the file's last window only, so it is the same whichever way it
 * was reached. An unchanged file (same size, modification time and identity) costs no read. A file
 * that grew by at most the window costs one read of the new bytes, plus {@link #ANCHOR_BYTES}
 * already-read bytes to check that the old part was not rewritten: entries of lines that left the
 * window are dropped and the new lines' entries appended. Anything else (first read, shrunk,
 * replaced, rewritten, grown by more than the window) reads the window afresh. Memory is bounded by
 * the window, whatever the file's size.
 */
final class TailWindow {

  /** The most bytes read from a file for one answer (plus {@link #ANCHOR_BYTES}). */
  static final int WINDOW_BYTES = 1 << 20;

  /** Bytes before the resume point that are read again to detect a rewritten file. */
  static final int ANCHOR_BYTES = 64;

  private record Placed(long offset, Entry entry) {}

  private final TranscriptReader reader;
  private final AtomicLong bytesRead;

  private long size = -1;
  private FileTime modified;
  private Object fileKey;

  /** Where the first line not yet parsed starts (or, when {@link #midLine}, some byte in it). */
  private long resumeAt;

  /** Whether {@link #resumeAt} is inside a line whose start was outside the window. */
  private boolean midLine;

  /** The bytes just before {@link #resumeAt}, compared on the next read. */
  private byte[] anchor = new byte[0];

  private final ArrayDeque<Placed> entries = new ArrayDeque<>();
  private List<Turn> turns = List.of();

  TailWindow(TranscriptReader reader, AtomicLong bytesRead) {
    this.reader = reader;
    this.bytesRead = bytesRead;
  }

  TranscriptReader reader() {
    return reader;
  }

  /** The turns of the file as it is now; reads only what changed since the last call. */
  synchronized List<Turn> turns(Path file, BasicFileAttributes attributes) throws IOException {
    long newSize = attributes.size();
    FileTime newModified = attributes.lastModifiedTime();
    Object newKey = attributes.fileKey();
    if (newSize == size && newModified.equals(modified) && Objects.equals(newKey, fileKey)) {
      return turns;
    }
    long oldSize = size;
    size = -1; // an exception below leaves nothing half-updated behind
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      // A window only slides forward: a file that shrank is read afresh.
      boolean grown =
          oldSize >= 0
              && newSize >= oldSize
              && Objects.equals(newKey, fileKey)
              && newSize > resumeAt
              && newSize - resumeAt <= WINDOW_BYTES;
      long reached = grown ? grow(channel, newSize) : -1;
      if (reached < 0) {
        reached = fresh(channel, newSize);
      }
      List<Entry> window = new ArrayList<>(entries.size());
      for (Placed placed : entries) {
        window.add(placed.entry());
      }
      turns = reader.turns(window);
      if (reached == newSize) {
        size = newSize;
        modified = newModified;
        fileKey = newKey;
      }
      // Otherwise the file changed under the read: answer what was read, read afresh next time.
    } catch (IOException | RuntimeException e) {
      entries.clear();
      turns = List.of();
      throw e;
    }
    return turns;
  }

  /** Reads the window of a file of {@code fileSize} bytes; returns the end of what was read. */
  private long fresh(FileChannel channel, long fileSize) throws IOException {
    entries.clear();
    long windowStart = Math.max(0, fileSize - WINDOW_BYTES);
    // One byte before the window tells whether the window starts on a line boundary.
    long base = windowStart == 0 ? 0 : windowStart - 1;
    byte[] bytes = read(channel, base, fileSize - base);
    int from = 0;
    if (windowStart > 0) {
      from = indexOf(bytes, 0, '\n') + 1;
      if (from == 0) {
        resumeAt = base + bytes.length;
        midLine = true;
        keepAnchor(bytes, bytes.length);
        return base + bytes.length;
      }
    }
    midLine = false;
    parseLines(bytes, from, base, windowStart);
    return base + bytes.length;
  }

  /**
   * Reads what was appended since the last call; returns the end of what was read, or -1 when the
   * part already read was rewritten and the window must be read afresh.
   */
  private long grow(FileChannel channel, long fileSize) throws IOException {
    long base = resumeAt - anchor.length;
    byte[] bytes = read(channel, base, fileSize - base);
    if (bytes.length < anchor.length
        || !Arrays.equals(anchor, 0, anchor.length, bytes, 0, anchor.length)) {
      return -1;
    }
    int from = anchor.length;
    if (midLine) {
      int newline = indexOf(bytes, from, '\n');
      if (newline < 0) {
        entries.clear();
        resumeAt = base + bytes.length;
        keepAnchor(bytes, bytes.length);
        return base + bytes.length;
      }
      midLine = false;
      from = newline + 1;
    }
    long windowStart = Math.max(0, fileSize - WINDOW_BYTES);
    while (!entries.isEmpty() && entries.peekFirst().offset() < windowStart) {
      entries.removeFirst();
    }
    parseLines(bytes, from, base, windowStart);
    return base + bytes.length;
  }

  /**
   * Parses the complete lines of {@code bytes} from index {@code from} (a line start) whose file
   * offset is at least {@code windowStart}; a last line without its newline is left for later.
   */
  private void parseLines(byte[] bytes, int from, long base, long windowStart) {
    int start = from;
    for (int newline = indexOf(bytes, start, '\n');
        newline >= 0;
        newline = indexOf(bytes, start, '\n')) {
      long offset = base + start;
      if (offset >= windowStart) {
        Entry entry = entry(bytes, start, newline);
        if (entry != null) {
          entries.addLast(new Placed(offset, entry));
        }
      }
      start = newline + 1;
    }
    resumeAt = base + start;
    keepAnchor(bytes, start);
  }

  private Entry entry(byte[] bytes, int start, int end) {
    JsonNode line = JsonLine.parse(bytes, start, end, reader.fields());
    if (line == null) {
      return null;
    }
    try {
      return reader.entry(line);
    } catch (RuntimeException e) {
      return null; // one odd line never fails the answer
    }
  }

  /** The whole of a small file holding one JSON document (Gemini's older format). */
  synchronized List<Turn> documentTurns(Path file, BasicFileAttributes attributes)
      throws IOException {
    long newSize = attributes.size();
    if (newSize == size
        && attributes.lastModifiedTime().equals(modified)
        && Objects.equals(attributes.fileKey(), fileKey)) {
      return turns;
    }
    size = -1;
    entries.clear();
    turns = List.of();
    if (newSize <= WINDOW_BYTES) {
      byte[] bytes;
      try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
        bytes = read(channel, 0, newSize);
      }
      JsonNode document = JsonLine.parse(bytes, 0, bytes.length, reader.documentFields());
      if (document != null) {
        turns = reader.turns(reader.documentEntries(document));
      }
    }
    // Larger documents are not read: a single JSON document has no tail to start from.
    size = newSize;
    modified = attributes.lastModifiedTime();
    fileKey = attributes.fileKey();
    return turns;
  }

  private byte[] read(FileChannel channel, long position, long length) throws IOException {
    if (length > WINDOW_BYTES + ANCHOR_BYTES) {
      throw new IllegalStateException("read of " + length + " bytes exceeds the window");
    }
    ByteBuffer buffer = ByteBuffer.allocate((int) length);
    long at = position;
    while (buffer.hasRemaining()) {
      int n = channel.read(buffer, at);
      if (n < 0) {
        break; // shrank under us
      }
      at += n;
    }
    bytesRead.addAndGet(buffer.position());
    return buffer.position() == length
        ? buffer.array()
        : Arrays.copyOf(buffer.array(), buffer.position());
  }

  private void keepAnchor(byte[] bytes, int end) {
    int length = Math.min(ANCHOR_BYTES, end);
    anchor = Arrays.copyOfRange(bytes, end - length, end);
  }

  static int indexOf(byte[] bytes, int from, char c) {
    for (int i = from; i < bytes.length; i++) {
      if (bytes[i] == c) {
        return i;
      }
    }
    return -1;
  }
}
