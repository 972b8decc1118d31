package dev.clique.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.GarbageCollectionNotificationInfo;
import dev.clique.engine.transcript.TranscriptRequest;
import dev.clique.engine.transcript.TranscriptRoots;
import dev.clique.engine.transcript.Transcripts;
import dev.clique.engine.transcript.Turn;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The conversation of an opencode session whose database is 200 MB (written by Python's sqlite3
 * with the test suite's {@code make-db.py}: 47 KB tool outputs, the last session in the write-ahead
 * log): the first read, with how much the live heap grew meanwhile, and reads while it is
 * unchanged.
 */
final class OpencodeDatabaseBenchmark implements Benchmark {
  private static final Set<String> HEAP =
      ManagementFactory.getMemoryPoolMXBeans().stream()
          .filter(pool -> pool.getType() == MemoryType.HEAP)
          .map(MemoryPoolMXBean::getName)
          .collect(Collectors.toSet());

  @Override
  public String name() {
    return "opencode-database";
  }

  @Override
  public List<Figure> run(Settings settings) throws Exception {
    int megabytes = settings.quick() ? 8 : 200;
    Path root = settings.launcher().getParent().getParent();
    Path script = root.resolve("session-engine/src/test/resources/transcripts/opencode/make-db.py");
    Path dir = Files.createTempDirectory("clique-bench-opencode-");
    Path db = dir.resolve("opencode.db");
    Process python =
        new ProcessBuilder("python3", script.toString(), db.toString(), "" + megabytes, "20", "wal")
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    JsonNode made =
        new ObjectMapper()
            .readTree(new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    if (!python.waitFor(300, TimeUnit.SECONDS) || python.exitValue() != 0) {
      throw new IllegalStateException("make-db.py failed");
    }
    TranscriptRoots roots = TranscriptRoots.fromEnvironment(Map.of(), dir).withOpencodeDatabase(db);
    TranscriptRequest request =
        new TranscriptRequest(
            "opencode", "bench", made.path("session").asText(), Path.of("/home/dev/project"), null);
    Samples first = new Samples();
    Samples heap = new Samples();
    Samples again = new Samples();
    for (int i = 0; i < settings.scale(5, 1); i++) {
      Transcripts transcripts = new Transcripts(roots); // nothing kept yet
      long[] grew = new long[1];
      long started = System.nanoTime();
      List<Turn> turns = liveHeapGrowth(() -> transcripts.turns(request), grew);
      first.add((System.nanoTime() - started) / 1e6);
      heap.add(grew[0] / 1048576.0);
      if (turns.size() != 2) {
        throw new IllegalStateException("read " + turns + " from " + db);
      }
      for (int j = 0; j < settings.scale(20, 3); j++) {
        long t = System.nanoTime();
        transcripts.turns(request);
        again.add((System.nanoTime() - t) / 1e3);
      }
    }
    long size = Files.size(db);
    try (var files = Files.list(dir)) {
      for (Path file : files.toList()) {
        Files.delete(file);
      }
    }
    Files.delete(dir);
    String what = (size / 1_000_000) + " MB opencode database";
    return List.of(
        Figure.atMost(
            "`conversation` on a " + what + ", live heap growth",
            "MiB",
            heap,
            16,
            "most the live heap grew over a first read (after each GC during it)"),
        Figure.reference(
            "`conversation` on a " + what + ", first read",
            "ms",
            first,
            "Transcripts.turns, nothing kept"),
        Figure.reference(
            "`conversation` on a " + what + ", unchanged",
            "µs",
            again,
            "Transcripts.turns again, the files' stamps unchanged"));
  }

  /** Runs {@code read}; {@code grew[0]} is the most the live heap grew over what it was before. */
  private static <T> T liveHeapGrowth(java.util.function.Supplier<T> read, long[] grew) {
    System.gc();
    long before = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    AtomicLong most = new AtomicLong(before);
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
                    .mapToLong(pool -> pool.getValue().getUsed())
                    .sum();
            most.accumulateAndGet(after, Math::max);
          }
        };
    List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
    collectors.forEach(
        c -> ((NotificationEmitter) c).addNotificationListener(listener, null, null));
    try {
      T value = read.get();
      System.gc(); // what the read keeps
      most.accumulateAndGet(
          ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
      grew[0] = Math.max(0, most.get() - before);
      return value;
    } finally {
      for (GarbageCollectorMXBean c : collectors) {
        try {
          ((NotificationEmitter) c).removeNotificationListener(listener);
        } catch (javax.management.ListenerNotFoundException e) {
          // not added
        }
      }
    }
  }
}
