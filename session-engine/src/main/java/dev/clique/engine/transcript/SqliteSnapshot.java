package dev.clique.engine.transcript;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A read-only look at an SQLite database as its last committed transaction left it: the main file
 * and the committed frames of its write-ahead log ({@code -wal}), read with plain file reads. It
 * never writes, locks or checkpoints (the CLI that owns the database is not disturbed), and reads
 * only the tables it is asked for, a page at a time where it stands (the log is indexed, not held),
 * so a database of any size costs a few pages of memory. Enough of the file format for rowid tables
 * (interior, leaf and overflow pages) of text, numbers and NULLs, an {@code INTEGER PRIMARY KEY}
 * read as the rowid it stands for; anything else it meets is {@link Unreadable}, never a guess.
 */
final class SqliteSnapshot implements Closeable {
  /** What cannot be read as the SQLite file format says (half-written, or not SQLite at all). */
  static final class Unreadable extends IOException {
    private static final long serialVersionUID = 1L;

    Unreadable(String message) {
      super(message);
    }
  }

  private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
  private static final int WAL_HEADER = 32;
  private static final int FRAME_HEADER = 24;
  private static final int WINDOW = 64 << 10;
  private static final Pattern COLUMN =
      Pattern.compile("^\\s*(?!(?i:PRIMARY\\s+KEY))[`\"\\[]?(\\w+)[`\"\\]]?\\s+(\\w+)");
  private static final Pattern REAL = Pattern.compile("REAL|FLOA|DOUB", Pattern.CASE_INSENSITIVE);
  private static final Pattern INTEGER =
      Pattern.compile("^\\S+\\s+INTEGER\\b", Pattern.CASE_INSENSITIVE);
  private static final Pattern INTEGER_KEY =
      Pattern.compile(
          "^\\S+\\s+INTEGER\\s+PRIMARY\\s+KEY\\b(?!\\s+DESC)", Pattern.CASE_INSENSITIVE);
  private static final Pattern TABLE_KEY =
      Pattern.compile(
          "^PRIMARY\\s+KEY\\s*\\(\\s*[`\"\\[]?(\\w+)[`\"\\]]?(?:\\s+(?:ASC|DESC))?\\s*\\)",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern WITHOUT_ROWID =
      Pattern.compile("\\)\\s*WITHOUT\\s+ROWID", Pattern.CASE_INSENSITIVE);

  private final Path file;
  private final FileChannel main;
  private final long mainSize;
  private final FileChannel wal;
  private final int pageSize;
  private final int usable;

  /** Where in the log the newest committed version of a page starts: page number to offset. */
  private final Map<Integer, Long> walPages;

  private final Map<String, Table> tables = new HashMap<>();

  /**
   * The stretch of the main file last read: pages are read {@value #WINDOW} bytes at a time, as a
   * b-tree's leaves and a row's overflow pages mostly lie side by side.
   */
  private final byte[] window;

  private long windowStart = -1;
  private int windowLength;

  /**
   * A table of the schema: where its b-tree starts, its columns in order, which of them is an alias
   * of the rowid ({@code INTEGER PRIMARY KEY}) or -1, and which have REAL affinity (SQLite stores a
   * whole number there as an integer, and reads it back as a real).
   */
  record Table(
      String name, int rootPage, List<String> columns, int rowidColumn, Set<Integer> realColumns) {}

  private SqliteSnapshot(
      Path file, FileChannel main, byte[] header, FileChannel wal, Map<Integer, Long> walPages)
      throws IOException {
    this.file = file;
    this.main = main;
    this.mainSize = main.size();
    this.wal = wal;
    this.walPages = walPages;
    int size = u16(header, 16);
    this.pageSize = size == 1 ? 65536 : size;
    this.window = new byte[Math.max(WINDOW, pageSize)];
    this.usable = pageSize - Byte.toUnsignedInt(header[20]);
  }

  /**
   * Opens {@code file} and its {@code -wal} and reads the schema; the pages of the tables are read
   * when they are scanned. Close it to let the files go.
   *
   * @throws NoSuchFileException when there is no database
   * @throws Unreadable when it is not a database this reader can read
   */
  static SqliteSnapshot open(Path file) throws IOException {
    FileChannel main = FileChannel.open(file, StandardOpenOption.READ);
    FileChannel wal = null;
    try {
      byte[] header = new byte[100];
      if (read(main, 0, header) < header.length || !startsWith(header, MAGIC)) {
        throw new Unreadable(file + " is not an SQLite database (or not written yet)");
      }
      int pageSize = u16(header, 16);
      pageSize = pageSize == 1 ? 65536 : pageSize;
      if (pageSize < 512 || Integer.bitCount(pageSize) != 1) {
        throw new Unreadable(file + " names a page size of " + pageSize);
      }
      if (header[56 + 3] != 1 && u32(header, 56) != 0) {
        throw new Unreadable(file + " keeps its text in UTF-16");
      }
      Path walFile = file.resolveSibling(file.getFileName() + "-wal");
      Map<Integer, Long> walPages = Map.of();
      try {
        wal = FileChannel.open(walFile, StandardOpenOption.READ);
        walPages = committedFrames(walFile, wal, pageSize);
      } catch (NoSuchFileException e) {
        // no log: the main file is the whole database
      }
      SqliteSnapshot snapshot = new SqliteSnapshot(file, main, header, wal, walPages);
      snapshot.readSchema();
      return snapshot;
    } catch (IOException | RuntimeException e) {
      main.close();
      if (wal != null) {
        wal.close();
      }
      throw e;
    }
  }

  @Override
  public void close() throws IOException {
    try {
      main.close();
    } finally {
      if (wal != null) {
        wal.close();
      }
    }
  }

  /** The table named {@code name}, when the schema has it. */
  Optional<Table> table(String name) {
    return Optional.ofNullable(tables.get(name));
  }

  /**
   * Every row of {@code table}, in rowid order: its values by column, as {@link String}, {@link
   * Long}, {@link Double}, {@code byte[]} or null (a column added after the row was written is
   * null).
   */
  void scan(Table table, Consumer<Object[]> row) throws IOException {
    int columns = table.columns().size();
    int alias = table.rowidColumn();
    walk(
        table.rootPage(),
        (rowid, payload) -> {
          Object[] values = record(payload);
          Object[] row2 = new Object[columns];
          System.arraycopy(values, 0, row2, 0, Math.min(columns, values.length));
          if (alias >= 0 && row2[alias] == null) {
            row2[alias] = rowid; // the record keeps NULL there: the value is the rowid
          }
          for (int real : table.realColumns()) {
            if (real < columns && row2[real] instanceof Long whole) {
              row2[real] = whole.doubleValue();
            }
          }
          row.accept(row2);
        });
  }

  private void readSchema() throws IOException {
    walk(
        1,
        (rowid, payload) -> {
          Object[] row = record(payload);
          if (row.length >= 5 && "table".equals(row[0]) && row[3] instanceof Long root) {
            String sql = row[4] instanceof String s ? s : "";
            List<String> columns = columns(sql);
            tables.put(
                (String) row[1],
                new Table(
                    (String) row[1],
                    root.intValue(),
                    columns,
                    columns.indexOf(rowidAlias(sql).orElse("")),
                    realColumns(sql)));
          }
        });
  }

  /** The column names of a {@code CREATE TABLE}, one definition per line as drizzle writes it. */
  static List<String> columns(String sql) {
    List<String> names = new ArrayList<>();
    for (String definition : definitions(sql)) {
      Matcher matcher = COLUMN.matcher(definition);
      if (matcher.find()) {
        names.add(matcher.group(1));
      }
    }
    return names;
  }

  /** The positions of a {@code CREATE TABLE}'s columns whose declared type gives REAL affinity. */
  static Set<Integer> realColumns(String sql) {
    Set<Integer> real = new HashSet<>();
    int position = 0;
    for (String definition : definitions(sql)) {
      Matcher matcher = COLUMN.matcher(definition);
      if (matcher.find()) {
        String type = matcher.group(2);
        if (REAL.matcher(type).find() && !type.toUpperCase(Locale.ROOT).contains("INT")) {
          real.add(position);
        }
        position++;
      }
    }
    return Set.copyOf(real);
  }

  /**
   * The column of a {@code CREATE TABLE} that stands for the rowid, whose records keep NULL in its
   * place: one declared {@code INTEGER PRIMARY KEY}, alone or as the table's key (not {@code INT},
   * not {@code DESC} in its own definition, as SQLite has it); none in a table {@code WITHOUT
   * ROWID}.
   */
  static Optional<String> rowidAlias(String sql) {
    if (WITHOUT_ROWID.matcher(sql).find()) {
      return Optional.empty();
    }
    Map<String, Boolean> integers = new HashMap<>();
    for (String definition : definitions(sql)) {
      Matcher column = COLUMN.matcher(definition);
      Matcher key = TABLE_KEY.matcher(definition);
      if (key.matches()) {
        return Optional.of(key.group(1)).filter(name -> integers.getOrDefault(name, false));
      } else if (column.find()) {
        integers.put(column.group(1), INTEGER.matcher(definition).find());
        if (INTEGER_KEY.matcher(definition).find()) {
          return Optional.of(column.group(1));
        }
      }
    }
    return Optional.empty();
  }

  /** The definitions of a {@code CREATE TABLE}'s columns and constraints, split at top level. */
  private static List<String> definitions(String sql) {
    int open = sql.indexOf('(');
    int close = sql.lastIndexOf(')');
    List<String> definitions = new ArrayList<>();
    if (open < 0 || close < open) {
      return definitions;
    }
    int depth = 0;
    int start = open + 1;
    for (int i = open + 1; i <= close; i++) {
      char c = sql.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')' && i < close) {
        depth--;
      } else if ((c == ',' && depth == 0) || i == close) {
        String definition = sql.substring(start, i).strip();
        start = i + 1;
        String upper = definition.toUpperCase(Locale.ROOT);
        if (!upper.startsWith("CONSTRAINT")
            && !upper.startsWith("FOREIGN KEY")
            && !upper.startsWith("UNIQUE")
            && !upper.startsWith("CHECK")) {
          definitions.add(definition);
        }
      }
    }
    return definitions;
  }

  /** Walks a table b-tree from {@code root}, handing each row's whole payload to {@code row}. */
  private void walk(int root, PayloadConsumer row) throws IOException {
    Deque<Integer> pages = new ArrayDeque<>();
    Set<Integer> seen = new HashSet<>();
    pages.push(root);
    while (!pages.isEmpty()) {
      int number = pages.pop();
      if (!seen.add(number)) {
        throw new Unreadable(file + ": page " + number + " is reached twice");
      }
      byte[] page = page(number);
      int header = number == 1 ? 100 : 0;
      int type = Byte.toUnsignedInt(page[header]);
      int cells = u16(page, header + 3);
      if (type == 0x05) {
        List<Integer> children = new ArrayList<>(cells + 1);
        for (int i = 0; i < cells; i++) {
          int cell = u16(page, header + 12 + 2 * i);
          children.add((int) u32(page, cell));
        }
        children.add((int) u32(page, header + 8));
        for (int i = children.size() - 1; i >= 0; i--) {
          pages.push(children.get(i));
        }
      } else if (type == 0x0d) {
        for (int i = 0; i < cells; i++) {
          int cell = u16(page, header + 8 + 2 * i);
          long[] length = varint(page, cell);
          long[] rowid = varint(page, (int) length[1]);
          row.accept(rowid[0], payload(page, (int) rowid[1], length[0]));
        }
      } else {
        throw new Unreadable(file + ": page " + number + " is no table page (type " + type + ")");
      }
    }
  }

  /** A cell's payload, with what spilled onto overflow pages. */
  private byte[] payload(byte[] page, int start, long length) throws IOException {
    if (length > Integer.MAX_VALUE - 8) {
      throw new Unreadable(file + ": a row of " + length + " bytes");
    }
    int total = (int) length;
    int maxLocal = usable - 35;
    if (total <= maxLocal) {
      return slice(page, start, total);
    }
    int minLocal = (usable - 12) * 32 / 255 - 23;
    int local = minLocal + (total - minLocal) % (usable - 4);
    if (local > maxLocal) {
      local = minLocal;
    }
    byte[] out = new byte[total];
    System.arraycopy(slice(page, start, local), 0, out, 0, local);
    int filled = local;
    long next = u32(page, start + local);
    Set<Long> seen = new HashSet<>();
    while (filled < total) {
      if (next == 0 || !seen.add(next)) {
        throw new Unreadable(file + ": a row's overflow chain breaks off");
      }
      byte[] overflow = page((int) next);
      int take = Math.min(total - filled, usable - 4);
      System.arraycopy(overflow, 4, out, filled, take);
      filled += take;
      next = u32(overflow, 0);
    }
    return out;
  }

  /** The values of a record: its header of serial types, then the values. */
  private Object[] record(byte[] payload) throws Unreadable {
    long[] headerSize = varint(payload, 0);
    int at = (int) headerSize[1];
    int body = (int) headerSize[0];
    if (body > payload.length || body < at) {
      throw new Unreadable(file + ": a record's header runs past the record");
    }
    List<Long> types = new ArrayList<>();
    while (at < body) {
      long[] type = varint(payload, at);
      types.add(type[0]);
      at = (int) type[1];
    }
    Object[] values = new Object[types.size()];
    int offset = body;
    for (int i = 0; i < values.length; i++) {
      long type = types.get(i);
      int size = size(type);
      if (offset + size > payload.length) {
        throw new Unreadable(file + ": a record's value runs past the record");
      }
      values[i] = value(payload, offset, type, size);
      offset += size;
    }
    return values;
  }

  private Object value(byte[] bytes, int at, long type, int size) throws Unreadable {
    if (type == 0) {
      return null;
    }
    if (type >= 1 && type <= 6) {
      long value = bytes[at]; // sign-extended big-endian
      for (int i = 1; i < size; i++) {
        value = (value << 8) | Byte.toUnsignedInt(bytes[at + i]);
      }
      return value;
    }
    if (type == 7) {
      return ByteBuffer.wrap(bytes, at, 8).order(ByteOrder.BIG_ENDIAN).getDouble();
    }
    if (type == 8 || type == 9) {
      return type - 8;
    }
    if (type >= 12 && type % 2 == 0) {
      return slice(bytes, at, size);
    }
    if (type >= 13) {
      return new String(bytes, at, size, StandardCharsets.UTF_8);
    }
    throw new Unreadable(file + ": a record has the reserved serial type " + type);
  }

  private static int size(long type) {
    return switch ((int) Math.min(type, 12)) {
      case 0, 8, 9 -> 0;
      case 1 -> 1;
      case 2 -> 2;
      case 3 -> 3;
      case 4 -> 4;
      case 5 -> 6;
      case 6, 7 -> 8;
      default -> type >= 12 ? (int) ((type - 12 - (type % 2)) / 2) : 0;
    };
  }

  /** Page {@code number} as the last commit left it: from the log when it is there. */
  private byte[] page(int number) throws IOException {
    byte[] page = new byte[pageSize];
    Long logged = walPages.get(number);
    if (logged != null) {
      if (read(wal, logged, page) < pageSize) {
        throw new Unreadable(file + "-wal: page " + number + " is cut short");
      }
      return page;
    }
    long start = (long) (number - 1) * pageSize;
    if (number < 1 || start + pageSize > mainSize) {
      throw new Unreadable(file + ": page " + number + " is past the end of the database");
    }
    if (start < windowStart || start + pageSize > windowStart + windowLength) {
      windowStart = start - start % window.length;
      windowLength = read(main, windowStart, window);
      if (start + pageSize > windowStart + windowLength) {
        throw new Unreadable(file + ": page " + number + " is cut short");
      }
    }
    System.arraycopy(window, (int) (start - windowStart), page, 0, pageSize);
    return page;
  }

  /** Reads into {@code into} from {@code at}; answers how many bytes there were. */
  private static int read(FileChannel channel, long at, byte[] into) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(into);
    while (buffer.hasRemaining()) {
      int n = channel.read(buffer, at + buffer.position());
      if (n < 0) {
        break;
      }
    }
    return buffer.position();
  }

  /**
   * Where the log's committed transactions keep each page, its newest version: frames are read one
   * at a time while their salts match the header and their checksums chain, and count up to the
   * last frame that ends a transaction (one a writer was still writing does not).
   */
  private static Map<Integer, Long> committedFrames(Path walFile, FileChannel wal, int pageSize)
      throws IOException {
    byte[] header = new byte[WAL_HEADER];
    if (read(wal, 0, header) < WAL_HEADER) {
      return Map.of();
    }
    long magic = u32(header, 0);
    if (magic != 0x377f0682L && magic != 0x377f0683L) {
      throw new Unreadable(walFile + " is not an SQLite write-ahead log");
    }
    boolean bigEndian = magic == 0x377f0683L;
    if (u32(header, 8) != pageSize) {
      return Map.of(); // a log of an earlier database, not yet reset
    }
    long salt1 = u32(header, 16);
    long salt2 = u32(header, 20);
    int[] sum = checksum(header, 0, 24, bigEndian, 0, 0);
    if (Integer.toUnsignedLong(sum[0]) != u32(header, 24)
        || Integer.toUnsignedLong(sum[1]) != u32(header, 28)) {
      return Map.of(); // a header being rewritten: nothing in the log counts yet
    }
    Map<Integer, Long> committed = new HashMap<>();
    Map<Integer, Long> pending = new HashMap<>();
    byte[] frame = new byte[FRAME_HEADER + pageSize];
    for (long at = WAL_HEADER; read(wal, at, frame) == frame.length; at += frame.length) {
      if (u32(frame, 8) != salt1 || u32(frame, 12) != salt2) {
        break;
      }
      sum = checksum(frame, 0, 8, bigEndian, sum[0], sum[1]);
      sum = checksum(frame, FRAME_HEADER, pageSize, bigEndian, sum[0], sum[1]);
      if (Integer.toUnsignedLong(sum[0]) != u32(frame, 16)
          || Integer.toUnsignedLong(sum[1]) != u32(frame, 20)) {
        break;
      }
      pending.put((int) u32(frame, 0), at + FRAME_HEADER);
      if (u32(frame, 4) != 0) { // it ends a transaction
        committed.putAll(pending);
        pending.clear();
      }
    }
    return committed;
  }

  /** SQLite's log checksum over {@code length} bytes (a multiple of 8) from {@code at}. */
  private static int[] checksum(byte[] b, int at, int length, boolean bigEndian, int s0, int s1) {
    ByteBuffer words = ByteBuffer.wrap(b, at, length);
    words.order(bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < length; i += 8) {
      s0 += words.getInt(at + i) + s1;
      s1 += words.getInt(at + i + 4) + s0;
    }
    return new int[] {s0, s1};
  }

  /** An SQLite varint at {@code at}: its value and the offset after it. */
  private long[] varint(byte[] b, int at) throws Unreadable {
    long value = 0;
    for (int i = 0; i < 9; i++) {
      if (at + i >= b.length) {
        throw new Unreadable(file + ": a number runs past its page");
      }
      int c = Byte.toUnsignedInt(b[at + i]);
      if (i == 8) {
        return new long[] {(value << 8) | c, at + 9};
      }
      value = (value << 7) | (c & 0x7f);
      if ((c & 0x80) == 0) {
        return new long[] {value, at + i + 1};
      }
    }
    throw new IllegalStateException("unreachable");
  }

  private byte[] slice(byte[] b, int at, int length) throws Unreadable {
    if (at < 0 || length < 0 || at + length > b.length) {
      throw new Unreadable(file + ": a value runs past its page");
    }
    byte[] out = new byte[length];
    System.arraycopy(b, at, out, 0, length);
    return out;
  }

  private static boolean startsWith(byte[] b, byte[] prefix) {
    for (int i = 0; i < prefix.length; i++) {
      if (b[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static int u16(byte[] b, int at) {
    return (Byte.toUnsignedInt(b[at]) << 8) | Byte.toUnsignedInt(b[at + 1]);
  }

  private static long u32(byte[] b, int at) {
    return ((long) Byte.toUnsignedInt(b[at]) << 24)
        | (Byte.toUnsignedInt(b[at + 1]) << 16)
        | (Byte.toUnsignedInt(b[at + 2]) << 8)
        | Byte.toUnsignedInt(b[at + 3]);
  }

  @FunctionalInterface
  private interface PayloadConsumer {
    void accept(long rowid, byte[] payload) throws IOException;
  }
}
