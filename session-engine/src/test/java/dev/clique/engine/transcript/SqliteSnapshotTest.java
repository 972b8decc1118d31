package dev.clique.engine.transcript;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Databases written by Python's own sqlite3 (the oracle: {@code make-db.py}), in the shapes a real
 * opencode database takes once a tool's output is over a page: interior pages, overflow chains,
 * commits still in the write-ahead log, and a table whose rowid has a column of its own.
 */
class SqliteSnapshotTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path CWD = Path.of("/home/dev/project");

  @TempDir Path dir;

  /** Writes the database; answers what make-db.py says its last session holds. */
  private JsonNode make(Path db, int megabytes, String... wal) throws Exception {
    Path script = Path.of(getClass().getResource("/transcripts/opencode/make-db.py").toURI());
    List<String> command =
        new ArrayList<>(List.of("python3", script.toString(), db.toString(), "" + megabytes, "20"));
    command.addAll(List.of(wal));
    Process python = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(python.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(python.exitValue()).as(out).isZero();
    return JSON.readTree(out);
  }

  private static List<Turn> turns(JsonNode expected) {
    List<Turn> turns = new ArrayList<>();
    expected.path("turns").forEach(t -> turns.add(new Turn(t.get(0).asText(), t.get(1).asText())));
    return turns;
  }

  private static TranscriptRequest request(String cliSessionId) {
    return new TranscriptRequest("opencode", "clique-id", cliSessionId, CWD, null);
  }

  @Test
  void interiorAndOverflowPagesAndTheLogAreReadAsSqliteWroteThem() throws Exception {
    Path db = dir.resolve("opencode.db");
    JsonNode expected = make(db, 3, "wal");
    assertThat(Files.size(dir.resolve("opencode.db-wal")))
        .as("the last session is in the log")
        .isPositive();

    assertThat(OpencodeConversation.turns(db, request(null)))
        .as("the newest session of the folder, from the log")
        .isEqualTo(turns(expected));
    assertThat(OpencodeConversation.turns(db, request("ses_000003")))
        .as("an early session, from the main file")
        .containsExactly(new Turn("user", "question 3"), new Turn("assistant", "answer 3"));

    try (SqliteSnapshot snapshot = SqliteSnapshot.open(db)) {
      SqliteSnapshot.Table parts = snapshot.table("part").orElseThrow();
      int sessions = expected.path("sessions").asInt();
      List<Object[]> rows = new ArrayList<>();
      snapshot.scan(parts, rows::add);
      assertThat(rows).as("three parts a session, every leaf reached").hasSize(3 * sessions);
      Object[] tool = rows.get(rows.size() - 1);
      assertThat(tool[0]).isEqualTo("prt_%06d_1_b".formatted(sessions - 1));
      JsonNode output = JSON.readTree((String) tool[3]).path("state").path("output");
      assertThat(output.asText())
          .as("a 47 KB value, whole across its overflow pages")
          .hasSize(47_600)
          .startsWith("line 000000 of a long tool output\n")
          .endsWith("line 001399 of a long tool output\n");
    }
  }

  @Test
  void theRealOpencodesDatabaseWithLongToolOutputsReadsAsPythonsSqliteReadsIt() throws Exception {
    // opencode 1.18.33's own database after 24 shell calls of some 80 KB output each: its part
    // and message tables have interior pages, the parts 480 overflow pages, the last commits are
    // in the log; its session row has a REAL column that SQLite keeps as the integer 0.
    for (String name : List.of("long-outputs.db", "long-outputs.db-wal")) {
      Files.copy(
          Path.of(getClass().getResource("/transcripts/opencode/" + name).toURI()),
          dir.resolve(name.replace("long-outputs", "opencode")));
    }
    Path db = dir.resolve("opencode.db");
    for (String table : List.of("part", "message", "session")) {
      List<String> read = new ArrayList<>();
      try (SqliteSnapshot snapshot = SqliteSnapshot.open(db)) {
        snapshot.scan(snapshot.table(table).orElseThrow(), row -> read.add(hashes(row)));
      }
      assertThat(read).as(table).isEqualTo(oracle(db, table)).isNotEmpty();
    }
  }

  /** What Python's sqlite3 reads of {@code table}, from a copy of the database and its log. */
  private List<String> oracle(Path db, String table) throws Exception {
    Path copy = Files.createTempDirectory(dir, "oracle").resolve("copy.db");
    Files.copy(db, copy);
    Files.copy(db.resolveSibling("opencode.db-wal"), copy.resolveSibling("copy.db-wal"));
    Path script = Path.of(getClass().getResource("/transcripts/opencode/read-table.py").toURI());
    Process python =
        new ProcessBuilder("python3", script.toString(), copy.toString(), table)
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(python.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(python.exitValue()).isZero();
    return out.lines().toList();
  }

  private static String hashes(Object[] row) {
    List<String> cells = new ArrayList<>();
    for (Object value : row) {
      String text = value == null ? "null" : value.toString();
      try {
        cells.add(
            java.util.HexFormat.of()
                .formatHex(
                    java.security.MessageDigest.getInstance("SHA-256")
                        .digest(text.getBytes(StandardCharsets.UTF_8))));
      } catch (java.security.NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }
    return String.join("\t", cells);
  }

  @Test
  void anIntegerPrimaryKeyColumnReadsAsTheRowid() throws Exception {
    Path db = dir.resolve("opencode.db");
    make(db, 0);
    try (SqliteSnapshot snapshot = SqliteSnapshot.open(db)) {
      SqliteSnapshot.Table counter = snapshot.table("counter").orElseThrow();
      List<List<Object>> rows = new ArrayList<>();
      snapshot.scan(counter, row -> rows.add(java.util.Arrays.asList(row)));
      assertThat(rows)
          .containsExactly(
              List.of(1L, "n1", -3L),
              List.of(2L, "n2", -6L),
              List.of(300L, "n300", -900L),
              List.of(70000L, "n70000", -210000L),
              List.of(1L << 40, "n" + (1L << 40), -3L << 40));
    }
  }

  @Test
  void aDatabaseOf200MbIsReadAPageAtATimeAndItsTurnsKept() throws Exception {
    Path db = dir.resolve("opencode.db");
    JsonNode expected = make(db, 200, "wal");
    assertThat(Files.size(db)).isGreaterThan(200_000_000L);

    LiveHeap live = new LiveHeap();
    OpencodeConversation.Kept kept = new OpencodeConversation.Kept();
    long[] nanos = new long[2];
    List<Turn> first = live.during(() -> timed(nanos, 0, () -> kept.turns(db, request(null))));
    long firstGrowth = live.growth();
    List<Turn> again = live.during(() -> timed(nanos, 1, () -> kept.turns(db, request(null))));
    System.err.printf(
        "SqliteSnapshotTest: %d MB database: first call %d ms, live heap growth %.1f MiB;"
            + " again %d µs, %.1f MiB%n",
        Files.size(db) / 1_000_000,
        nanos[0] / 1_000_000,
        firstGrowth / 1048576.0,
        nanos[1] / 1_000,
        live.growth() / 1048576.0);

    assertThat(first).isEqualTo(turns(expected));
    assertThat(again).isEqualTo(first);
    assertThat(firstGrowth).as("live heap growth of a call, bytes").isLessThan(16L << 20);
  }

  private static <T> T timed(long[] nanos, int i, LiveHeap.Call<T> call) throws Exception {
    long started = System.nanoTime();
    T value = call.call();
    nanos[i] = System.nanoTime() - started;
    return value;
  }

  @Test
  void theColumnThatStandsForTheRowidIsOneDeclaredIntegerPrimaryKey() {
    assertThat(SqliteSnapshot.rowidAlias("CREATE TABLE t (`id` INTEGER PRIMARY KEY, x text)"))
        .contains("id");
    assertThat(SqliteSnapshot.rowidAlias("CREATE TABLE t (x text, id integer primary key asc)"))
        .contains("id");
    assertThat(SqliteSnapshot.rowidAlias("CREATE TABLE t (id INTEGER, x text, PRIMARY KEY (id))"))
        .contains("id");
    assertThat(SqliteSnapshot.rowidAlias("CREATE TABLE t (id INT PRIMARY KEY, x text)"))
        .as("INT is no alias")
        .isEmpty();
    assertThat(SqliteSnapshot.rowidAlias("CREATE TABLE t (id INTEGER PRIMARY KEY DESC)"))
        .as("DESC is no alias")
        .isEmpty();
    assertThat(SqliteSnapshot.rowidAlias("CREATE TABLE t (id text, PRIMARY KEY (id))")).isEmpty();
    assertThat(SqliteSnapshot.rowidAlias("CREATE TABLE t (id INTEGER PRIMARY KEY) WITHOUT ROWID"))
        .isEmpty();
    assertThat(SqliteSnapshot.rowidAlias("CREATE TABLE t (`id` text PRIMARY KEY)")).isEmpty();
  }

  /**
   * The most the live heap (what each collection during a call left) grew over what it was before
   * the call: a call that holds the file in memory shows its size here, one that reads a page at a
   * time does not, however much garbage it makes.
   */
  static final class LiveHeap {
    private static final java.util.Set<String> HEAP =
        ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(pool -> pool.getType() == java.lang.management.MemoryType.HEAP)
            .map(java.lang.management.MemoryPoolMXBean::getName)
            .collect(java.util.stream.Collectors.toSet());

    private final AtomicLong most = new AtomicLong();
    private long before;

    interface Call<T> {
      T call() throws Exception;
    }

    <T> T during(Call<T> call) throws Exception {
      System.gc();
      before = used(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage());
      most.set(before);
      NotificationListener listener =
          (notification, handback) -> {
            if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
                notification.getType())) {
              long after =
                  GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData())
                      .getGcInfo()
                      .getMemoryUsageAfterGc()
                      .entrySet()
                      .stream()
                      .filter(pool -> HEAP.contains(pool.getKey()))
                      .mapToLong(pool -> used(pool.getValue()))
                      .sum();
              most.accumulateAndGet(after, Math::max);
            }
          };
      List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
      collectors.forEach(
          c -> ((NotificationEmitter) c).addNotificationListener(listener, null, null));
      try {
        T value = call.call();
        System.gc(); // what the call keeps
        most.accumulateAndGet(
            used(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage()), Math::max);
        return value;
      } finally {
        for (GarbageCollectorMXBean c : collectors) {
          ((NotificationEmitter) c).removeNotificationListener(listener);
        }
      }
    }

    long growth() {
      return Math.max(0, most.get() - before);
    }

    private static long used(MemoryUsage usage) {
      return usage.getUsed();
    }
  }
}
