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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The parsed tail of one transcript file: the entries of its last complete lines, read backwards
 * from the end in {@link #CHUNK_BYTES} steps until they make more than {@link TurnList#MAX_TURNS}
 * turns, until a line after which nothing earlier counts (Gemini's {@code $set} of the message
 * list), until the file's start, or until {@link #BUDGET_BYTES} before its end, whichever comes
 * first. A line that starts before the budget is never read, however long; a line longer than one
 * step is parsed as it streams from the file, never held as bytes. Turns are usually a small share
 * of a file's bytes (Claude Code's other records are ~95% of them), so one fixed tail would hold
 * far fewer turns than wanted.
 *
 * <p>An unchanged file (same size, modification time and identity) costs no read. A file that grew
 * by at most one step costs one read of the new bytes, plus {@link #ANCHOR_BYTES} already-read
 * bytes to check that the old part was not rewritten; when the lines then held make too few turns
 * (or far more than needed), or anything else happened (first read, shrunk, replaced, rewritten,
 * grown by more than a step), the file is read afresh. Memory is bounded by the budget, whatever
 * the file's size.
 *
 * <p>A prompt or an answer whose content the reader does not know ({@link UnknownRecordException})
 * makes the whole answer an {@link UnreadableTranscriptException} naming the file, its line and the
 * CLI's version, never turns without it; the error is kept, and given again, while the file stays
 * unchanged. The last line, until its newline is written, is not read at all, so a record being
 * appended is never taken for an unknown one.
 */
final class TailWindow {

  /** The bytes read in one step backwards. */
  static final int CHUNK_BYTES = 1 << 20;

  /** How far before the end of a file a line may start and still be read. */
  static final int BUDGET_BYTES = 12 << 20;

  /** Bytes before the resume point that are read again to detect a rewritten file. */
  static final int ANCHOR_BYTES = 64;

  /** A file that changes under a fresh read is read again at most this often for one answer. */
  private static final int FRESH_TRIES = 3;

  /** How far into a file the line number of a record not understood is counted. */
  static final long LINE_COUNT_BYTES = 64L << 20;

  private record Placed(long offset, Entry entry) {}

  private final TranscriptReader reader;
  private final AtomicLong bytesRead;
  private final HeadFields heads;

  /** Why the file as it last was cannot be read; given again while it stays unchanged. */
  private UnreadableTranscriptException failure;

  private long size = -1;
  private FileTime modified;
  private Object fileKey;

  /** Where the first line not yet parsed starts. */
  private long resumeAt;

  /** The bytes just before {@link #resumeAt}, compared on the next read. */
  private byte[] anchor = new byte[0];

  /** Where the oldest line read starts; lines before it were not read. */
  private long floor;

  /** Whether nothing before {@link #floor} counts: the file's start, or a reset. */
  private boolean settled;

  /** How many turns the last fresh read held: growth past twice that reads afresh, to trim. */
  private int freshTurns;

  private final ArrayDeque<Placed> entries = new ArrayDeque<>();
  private List<Turn> turns = List.of();

  TailWindow(TranscriptReader reader, AtomicLong bytesRead, HeadFields heads) {
    this.reader = reader;
    this.bytesRead = bytesRead;
    this.heads = heads;
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
      if (failure != null) {
        throw failure;
      }
      return turns;
    }
    long oldSize = failure == null ? size : -1; // after a failure nothing held is whole
    failure = null;
    size = -1; // an exception below leaves nothing half-updated behind
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      // A tail only slides forward: a file that shrank is read afresh.
      boolean grown =
          oldSize >= 0
              && newSize >= oldSize
              && Objects.equals(newKey, fileKey)
              && newSize > resumeAt
              && newSize - resumeAt <= CHUNK_BYTES;
      long reached = grown ? grow(channel, newSize) : -1;
      TurnList all = reached < 0 ? null : reader.turns(held());
      if (all != null && !enough(all, newSize)) {
        reached = -1;
      }
      boolean readAfresh = reached < 0;
      long readSize = newSize;
      for (int tries = 0; reached < 0 && tries < FRESH_TRIES; tries++) {
        reached = fresh(channel, readSize);
        readSize = channel.size(); // it shrank under the read: again, at its new size
      }
      if (reached < 0) {
        entries.clear(); // it keeps changing: nothing this time, read afresh next time
      }
      if (readAfresh) {
        all = reader.turns(held());
        freshTurns = all.size();
      }
      turns = all.lastTurns();
      if (reached == newSize) {
        size = newSize;
        modified = newModified;
        fileKey = newKey;
      }
      // Otherwise the file changed under the read: answer what was read, read afresh next time.
    } catch (UnknownRecordException e) {
      entries.clear();
      turns = List.of();
      failure = unreadable(file, e);
      size = newSize;
      modified = newModified;
      fileKey = newKey;
      throw failure;
    } catch (IOException | RuntimeException e) {
      entries.clear();
      turns = List.of();
      throw e;
    }
    return turns;
  }

  /**
   * The error for a record the reader does not know: the file, the record's line (or its byte
   * offset, in a file too long to count lines in), what it holds, and the CLI and version that
   * wrote it, from the record itself or else from the file's first line.
   */
  private UnreadableTranscriptException unreadable(Path file, UnknownRecordException e)
      throws IOException {
    String where;
    if (e.offset() < 0) {
      where = "in the document";
    } else if (e.offset() <= LINE_COUNT_BYTES) {
      where = "line " + lineNumber(file, e.offset());
    } else {
      where = "the line at byte " + e.offset();
    }
    String version = e.version();
    if (version == null && !reader.versionInHead().isEmpty()) {
      Map<String, String> head = heads.read(file, reader.versionInHead());
      version =
          reader.versionInHead().stream()
              .map(head::get)
              .filter(Objects::nonNull)
              .findFirst()
              .orElse(null);
    }
    String writer =
        version == null
            ? reader.cli() + ", of a version the file does not say"
            : reader.cli() + " " + version;
    return new UnreadableTranscriptException(
        file,
        where
            + ", "
            + e.record()
            + ", holds "
            + e.unknown()
            + ", which this clique does not read (the file was written by "
            + writer
            + "); its turns are not given rather than given wrong");
  }

  /** The number, from 1, of the line that starts at {@code offset}. */
  private long lineNumber(Path file, long offset) throws IOException {
    long line = 1;
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      for (long at = 0; at < offset; at += CHUNK_BYTES) {
        byte[] bytes = read(channel, at, Math.min(CHUNK_BYTES, offset - at));
        for (byte b : bytes) {
          if (b == '\n') {
            line++;
          }
        }
      }
    }
    return line;
  }

  /**
   * Whether the lines held after a growth give what a fresh read would: enough turns (but not so
   * many that memory is wasted), or everything that counts.
   */
  private boolean enough(TurnList all, long fileSize) {
    if (all.size() > 2 * Math.max(TurnList.MAX_TURNS, freshTurns)) {
      return false;
    }
    return all.size() > TurnList.MAX_TURNS || settled || floor <= limit(fileSize);
  }

  private List<Entry> held() {
    List<Entry> window = new ArrayList<>(entries.size());
    for (Placed placed : entries) {
      window.add(placed.entry());
    }
    return window;
  }

  /** The earliest offset a line may start at and be read. */
  private static long limit(long fileSize) {
    return Math.max(0, fileSize - BUDGET_BYTES);
  }

  /**
   * Reads backwards from the end of a file of {@code fileSize} bytes; returns the end of what was
   * read, or -1 when the file shrank under the read.
   */
  private long fresh(FileChannel channel, long fileSize) throws IOException {
    entries.clear();
    settled = false;
    long limit = limit(fileSize);
    List<List<Placed>> lines = new ArrayList<>(); // newest first, each in its own order
    long pos = fileSize;
    long lineEnd = -1; // the newline ending the line whose start is looked for
    resumeAt = limit;
    anchor = new byte[0];
    floor = fileSize;
    boolean stop = false;
    byte[] bytes = null;
    while (pos > limit && !stop) {
      long from = Math.max(limit, pos - CHUNK_BYTES);
      bytes = read(channel, from, pos - from);
      if (bytes.length < pos - from) {
        return -1;
      }
      for (int i = bytes.length - 1; i >= 0 && !stop; i--) {
        if (bytes[i] != '\n') {
          continue;
        }
        long newline = from + i;
        if (lineEnd < 0) {
          resumeAt = newline + 1; // the last line, without its newline yet, is left for later
          keepAnchor(bytes, i + 1);
        } else {
          stop = take(channel, bytes, from, newline + 1, lineEnd, lines);
        }
        lineEnd = newline;
      }
      pos = from;
      if (!stop && pos > limit) {
        stop = reader.turns(entriesOf(lines)).size() > TurnList.MAX_TURNS;
      }
    }
    if (!stop && lineEnd >= 0 && startsLine(channel, limit)) {
      // The oldest line starts right at the limit (or the file's start).
      stop = take(channel, bytes, pos, limit, lineEnd, lines);
      settled |= limit == 0;
    }
    if (!stop) {
      floor = limit; // everything a fresh read may read was read
    }
    for (int i = lines.size() - 1; i >= 0; i--) {
      for (Placed placed : lines.get(i)) {
        entries.addLast(placed);
      }
    }
    return fileSize;
  }

  /** Whether a line starts at {@code offset}: the file's start, or just after a newline. */
  private boolean startsLine(FileChannel channel, long offset) throws IOException {
    if (offset == 0) {
      return true;
    }
    byte[] before = read(channel, offset - 1, 1);
    return before.length == 1 && before[0] == '\n';
  }

  /**
   * Parses the line on {@code [start, end)} and puts its entries first; {@code bytes} holds the
   * file from {@code from} on, when it holds the whole line. Returns whether the line resets, so
   * nothing before it needs reading.
   */
  private boolean take(
      FileChannel channel, byte[] bytes, long from, long start, long end, List<List<Placed>> lines)
      throws IOException {
    floor = start;
    List<Entry> found;
    try {
      if (bytes != null && end - from <= bytes.length) {
        found = entries(bytes, (int) (start - from), (int) (end - from));
      } else {
        found = streamed(channel, start, end);
      }
    } catch (UnknownRecordException e) {
      throw e.at(start);
    }
    if (found.isEmpty()) {
      return false;
    }
    List<Placed> placed = new ArrayList<>(found.size());
    for (Entry entry : found) {
      placed.add(new Placed(start, entry));
    }
    lines.add(placed);
    boolean resets = found.stream().anyMatch(Entry::resets);
    settled |= resets;
    return resets;
  }

  private static List<Entry> entriesOf(List<List<Placed>> lines) {
    List<Entry> list = new ArrayList<>();
    for (int i = lines.size() - 1; i >= 0; i--) {
      for (Placed placed : lines.get(i)) {
        list.add(placed.entry());
      }
    }
    return list;
  }

  /**
   * Reads what was appended since the last call; returns the end of what was read, or -1 when the
   * part already read was rewritten and the file must be read afresh.
   */
  private long grow(FileChannel channel, long fileSize) throws IOException {
    long base = resumeAt - anchor.length;
    byte[] bytes = read(channel, base, fileSize - base);
    if (bytes.length < fileSize - base
        || !Arrays.equals(anchor, 0, anchor.length, bytes, 0, anchor.length)) {
      return -1;
    }
    int start = anchor.length;
    for (int newline = TailWindow.indexOf(bytes, start, '\n');
        newline >= 0;
        newline = TailWindow.indexOf(bytes, start, '\n')) {
      long offset = base + start;
      List<Entry> found;
      try {
        found = entries(bytes, start, newline);
      } catch (UnknownRecordException e) {
        throw e.at(offset);
      }
      for (Entry entry : found) {
        if (entry.resets()) {
          entries.clear(); // nothing before it counts
          floor = offset;
          settled = true;
        }
        entries.addLast(new Placed(offset, entry));
      }
      start = newline + 1;
    }
    resumeAt = base + start;
    keepAnchor(bytes, start);
    long limit = limit(fileSize);
    if (floor < limit) {
      // Lines that start before the budget are no longer read: as if read afresh to the limit.
      while (!entries.isEmpty() && entries.peekFirst().offset() < limit) {
        entries.removeFirst();
      }
      floor = limit;
      settled = false;
    }
    return fileSize;
  }

  /** The entries of the line on {@code bytes[start, end)}; a line of no interest is not parsed. */
  private List<Entry> entries(byte[] bytes, int start, int end) {
    if (!reader.mayMatter(bytes, start, end)) {
      return List.of();
    }
    return entries(JsonLine.parse(bytes, start, end, reader.fields()));
  }

  /** The entries of a line too long for one step, parsed as it is read from the file. */
  private List<Entry> streamed(FileChannel channel, long start, long end) {
    InputStream in = new RegionStream(channel, start, end, bytesRead);
    return entries(
        JsonLine.parse(new InputStreamReader(in, StandardCharsets.UTF_8), reader.fields()));
  }

  private List<Entry> entries(JsonNode line) {
    if (line == null) {
      return List.of();
    }
    try {
      return reader.entries(line);
    } catch (UnknownRecordException e) {
      throw e; // a prompt or an answer left out would make the turns wrong
    } catch (RuntimeException e) {
      return List.of(); // one odd line never fails the answer
    }
  }

  /** The whole of a small file holding one JSON document (Gemini's older format). */
  synchronized List<Turn> documentTurns(Path file, BasicFileAttributes attributes)
      throws IOException {
    long newSize = attributes.size();
    if (newSize == size
        && attributes.lastModifiedTime().equals(modified)
        && Objects.equals(attributes.fileKey(), fileKey)) {
      if (failure != null) {
        throw failure;
      }
      return turns;
    }
    size = -1;
    failure = null;
    entries.clear();
    turns = List.of();
    if (newSize <= CHUNK_BYTES) {
      byte[] bytes;
      try (FileChannel channel =
          FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
        bytes = read(channel, 0, newSize);
      }
      JsonNode document = JsonLine.parse(bytes, 0, bytes.length, reader.documentFields());
      if (document != null) {
        try {
          turns = reader.turns(reader.documentEntries(document)).lastTurns();
        } catch (UnknownRecordException e) {
          failure = unreadable(file, e);
        }
      }
    }
    // Larger documents are not read: a single JSON document has no tail to start from.
    size = newSize;
    modified = attributes.lastModifiedTime();
    fileKey = attributes.fileKey();
    if (failure != null) {
      throw failure;
    }
    return turns;
  }

  private byte[] read(FileChannel channel, long position, long length) throws IOException {
    if (length > CHUNK_BYTES + ANCHOR_BYTES) {
      throw new IllegalStateException("read of " + length + " bytes exceeds one step");
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
    return indexOf(bytes, from, bytes.length, c);
  }

  /** The offset of the first {@code c} in {@code bytes[from, to)}, or -1. */
  static int indexOf(byte[] bytes, int from, int to, char c) {
    return ByteSearch.indexOf(bytes, from, to, (byte) c);
  }

  /** The bytes {@code [start, end)} of a file, read as they are asked for, in small pieces. */
  static final class RegionStream extends InputStream {
    private final FileChannel channel;
    private final long end;
    private final AtomicLong bytesRead;
    private long at;

    RegionStream(FileChannel channel, long start, long end, AtomicLong bytesRead) {
      this.channel = channel;
      this.at = start;
      this.end = end;
      this.bytesRead = bytesRead;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
      if (at >= end) {
        return -1;
      }
      int wanted = (int) Math.min(length, end - at);
      int n = channel.read(ByteBuffer.wrap(into, offset, wanted), at);
      if (n <= 0) {
        return -1; // shrank under us: the line ends here, cut
      }
      at += n;
      bytesRead.addAndGet(n);
      return n;
    }
  }
}
