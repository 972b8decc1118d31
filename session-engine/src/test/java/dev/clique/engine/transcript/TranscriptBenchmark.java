package dev.clique.engine.transcript;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Not a test: measures {@link Transcripts#turns} on a generated 1 GB Claude Code transcript, cold
 * (first call in this JVM), warm on the cached file (median of 20), warm on a fresh reader (median
 * of 20 tail reads), and the used heap after GC before and after. Run with the test class path; the
 * size in GB may be given as the only argument.
 */
public final class TranscriptBenchmark {

  private static final String ID = "5f0c9a2e-1111-4c3b-9d1e-222233334444";
  private static final int RUNS = 20;

  private TranscriptBenchmark() {}

  public static void main(String[] args) throws IOException {
    long size = (long) ((args.length > 0 ? Double.parseDouble(args[0]) : 1.0) * 1e9);
    Path home = Files.createTempDirectory("transcript-benchmark");
    try {
      Path file = home.resolve(".claude/projects/-work-app/" + ID + ".jsonl");
      long started = System.nanoTime();
      write(file, size);
      System.out.printf(
          "generated %,d bytes in %.1f s%n", Files.size(file), (System.nanoTime() - started) / 1e9);
      run(home);
    } finally {
      delete(home);
    }
  }

  private static void run(Path home) {
    TranscriptRequest request =
        new TranscriptRequest("claude", ID, null, Path.of("/work/app"), Instant.now());
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long heapBefore = usedHeapAfterGc(memory);

    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Transcripts transcripts = new Transcripts(TestRoots.under(home));
    long c0 = threads.getCurrentThreadCpuTime();
    long t0 = System.nanoTime();
    List<Turn> turns = transcripts.turns(request);
    double cold = (System.nanoTime() - t0) / 1e6;
    double coldCpu = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
    long coldBytes = transcripts.bytesRead();

    double[] cached = new double[RUNS];
    for (int i = 0; i < RUNS; i++) {
      long t = System.nanoTime();
      transcripts.turns(request);
      cached[i] = (System.nanoTime() - t) / 1e6;
    }
    long cachedBytes = transcripts.bytesRead() - coldBytes;

    double[] uncached = new double[RUNS];
    double[] uncachedCpu = new double[RUNS];
    long uncachedBytes = 0;
    for (int i = 0; i < RUNS; i++) {
      Transcripts fresh = new Transcripts(TestRoots.under(home));
      long c = threads.getCurrentThreadCpuTime();
      long t = System.nanoTime();
      fresh.turns(request);
      uncached[i] = (System.nanoTime() - t) / 1e6;
      uncachedCpu[i] = (threads.getCurrentThreadCpuTime() - c) / 1e6;
      uncachedBytes += fresh.bytesRead();
    }

    long heapAfter = usedHeapAfterGc(memory);
    System.out.printf("turns: %d, last: %s%n", turns.size(), turns.get(turns.size() - 1));
    System.out.printf(
        "cold (first call in this JVM): %.1f ms (%.1f ms CPU of the calling thread), %,d bytes read%n",
        cold, coldCpu, coldBytes);
    System.out.printf(
        "warm, unchanged file (median of %d): %.3f ms, %,d bytes read in all%n",
        RUNS, median(cached), cachedBytes);
    System.out.printf(
        "warm, new reader each time (median of %d): %.1f ms (%.1f ms CPU), %,d bytes read each%n",
        RUNS, median(uncached), median(uncachedCpu), uncachedBytes / RUNS);
    System.out.printf(
        "used heap after GC: before %.1f MiB, after %.1f MiB, growth %.1f MiB%n",
        heapBefore / 1048576.0, heapAfter / 1048576.0, (heapAfter - heapBefore) / 1048576.0);
    // Keeps the cache reachable until the heap was measured.
    if (transcripts.turns(request).isEmpty()) {
      throw new IllegalStateException("no turns");
    }
  }

  private static void write(Path file, long size) throws IOException {
    Files.createDirectories(file.getParent());
    StringBuilder block = new StringBuilder();
    for (int n = 0; block.length() < 1 << 20; n++) {
      block.append(user("old question " + n)).append('\n');
      block.append(toolResult("x".repeat(4000))).append('\n');
      block.append(assistant("old_" + n, "old answer " + n)).append('\n');
    }
    ByteBuffer bytes = ByteBuffer.wrap(block.toString().getBytes(StandardCharsets.UTF_8));
    try (FileChannel out =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      while (out.size() < size) {
        bytes.rewind();
        while (bytes.hasRemaining()) {
          out.write(bytes);
        }
      }
      StringBuilder last = new StringBuilder();
      for (int i = 0; i < 400; i++) {
        last.append(user("question " + i)).append('\n');
        last.append(assistant("msg_" + i, "answer " + i)).append('\n');
      }
      out.write(ByteBuffer.wrap(last.toString().getBytes(StandardCharsets.UTF_8)));
    }
  }

  // Lines are written by hand, not with Jackson, so that the first call really is cold.

  private static String user(String text) {
    return "{\"type\":\"user\",\"isSidechain\":false,\"message\":{\"role\":\"user\",\"content\":\""
        + text
        + "\"},\"uuid\":\"u\",\"timestamp\":\"2026-08-01T10:00:00.000Z\"}";
  }

  private static String assistant(String id, String text) {
    return "{\"type\":\"assistant\",\"isSidechain\":false,\"message\":{\"id\":\""
        + id
        + "\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\""
        + text
        + "\"}]},\"uuid\":\"a\"}";
  }

  private static String toolResult(String output) {
    return "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":"
        + "\"tool_result\",\"tool_use_id\":\"t\",\"content\":\""
        + output
        + "\"}]},\"uuid\":\"r\"}";
  }

  private static long usedHeapAfterGc(MemoryMXBean memory) {
    for (int i = 0; i < 5; i++) {
      System.gc();
    }
    return memory.getHeapMemoryUsage().getUsed();
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return (sorted[(sorted.length - 1) / 2] + sorted[sorted.length / 2]) / 2;
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path path : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
