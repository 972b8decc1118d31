package dev.clique.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /transcript} of Claude Code sessions whose transcripts are 1 GB each: the first read
 * of each file, re-reads of an unchanged file, reads after the file grew, and the engine's heap
 * growth (this JVM runs the engine).
 */
final class ConversationBenchmark implements Benchmark {
  private final HttpClient http = HttpClient.newHttpClient();

  @Override
  public String name() {
    return "conversation";
  }

  @Override
  public List<Figure> run(Settings settings) throws Exception {
    long size = settings.quick() ? 8L << 20 : 1L << 30;
    int files = settings.scale(3, 1);
    int rereads = settings.scale(20, 3);
    Path claude = Files.createTempDirectory("clique-bench-claude-");
    // A stand-in for Claude Code that only waits; the benchmark writes its transcript.
    try (BenchEngine engine =
        BenchEngine.start(
            Map.of("CLAUDE_CONFIG_DIR", claude.toString()),
            "[cli.claude]\ncommand = \"sleep\"\nargs = [\"1000000\"]\n")) {
      MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
      long heapBefore = usedHeapAfterGc(memory);
      Samples first = new Samples();
      Samples unchanged = new Samples();
      Samples grown = new Samples();
      List<Path> written = new ArrayList<>();
      for (int f = 0; f < files; f++) {
        engine.grow(f + 1, "claude");
        String id = engine.sessions.get(f);
        Path file = claude.resolve("projects").resolve(slug(engine.home)).resolve(id + ".jsonl");
        write(file, size);
        written.add(file);
        first.add(read(engine, id));
        for (int i = 0; i < rereads; i++) {
          unchanged.add(read(engine, id));
        }
        for (int i = 0; i < rereads; i++) {
          Files.writeString(
              file,
              user("one more question " + i)
                  + "\n"
                  + assistant("more_" + i, "one more answer")
                  + "\n",
              StandardOpenOption.APPEND);
          grown.add(read(engine, id));
        }
      }
      long heapAfter = usedHeapAfterGc(memory);
      String gb = settings.quick() ? "8 MiB" : "1 GB";
      return List.of(
          Figure.atMost(
              "`conversation` on a " + gb + " Claude transcript, first read",
              "ms",
              first,
              100,
              files + " files of " + gb + ", GET /transcript"),
          Figure.reference(
              "the same, file unchanged since the last read",
              "ms",
              unchanged,
              rereads + " re-reads a file"),
          Figure.reference(
              "the same, after the file grew by two turns",
              "ms",
              grown,
              rereads + " appends a file"),
          Figure.atMost(
              "engine heap growth after reading " + files + " x " + gb,
              "MiB",
              Samples.of((heapAfter - heapBefore) / 1048576.0),
              16,
              "used heap after GC, before and after"));
    } finally {
      delete(claude);
    }
  }

  private double read(BenchEngine engine, String id) throws IOException, InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(engine.url() + "/api/sessions/" + id + "/transcript"))
            .header("Authorization", "Bearer " + engine.reader)
            .GET()
            .build();
    long start = System.nanoTime();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    double ms = (System.nanoTime() - start) / 1e6;
    if (response.statusCode() != 200 || !response.body().contains("answer")) {
      throw new IllegalStateException(
          "transcript answered "
              + response.statusCode()
              + ": "
              + response.body().substring(0, Math.min(200, response.body().length())));
    }
    return ms;
  }

  private static String slug(Path cwd) {
    return cwd.toString().replaceAll("[^A-Za-z0-9]", "-");
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

  private static String user(String text) {
    return "{\"type\":\"user\",\"isSidechain\":false,\"message\":{\"role\":\"user\",\"content\":\""
        + text
        + "\"},\"uuid\":\"u\"}";
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
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return memory.getHeapMemoryUsage().getUsed();
  }

  private static void delete(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
