package dev.clique.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.client.CliqueClient;
import dev.clique.client.CliqueException;
import dev.clique.engine.transcript.TranscriptRequest;
import dev.clique.engine.transcript.TranscriptRoots;
import dev.clique.engine.transcript.Transcripts;
import dev.clique.engine.transcript.Usage;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What reading each session's usage costs. {@code list_sessions} end to end through a spawned
 * {@code clique mcp}, against an engine of 50 Claude Code sessions whose transcripts (and a
 * sub-agent's file each) carry usage, beside another whose transcripts are the same records without
 * it, the two taken in turns; then the usage of one 1 GB Claude transcript, read as the engine
 * reads it ({@link Transcripts#usage}): first, unchanged, and after it grew by a few MB.
 */
final class UsageBenchmark implements Benchmark {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A stand-in for Claude Code that only waits; the benchmark writes its transcripts. */
  private static final String CLAUDE_STAND_IN =
      "[cli.claude]\ncommand = \"sleep\"\nargs = [\"1000000\"]\n";

  /** Rounds of `list_sessions`, each through a fresh pair of `clique mcp` processes. */
  private static final int ROUNDS = 16;

  /** The input and output tokens each benchmark answer records. */
  private static final long INPUT = 120;

  private static final long OUTPUT = 30;

  @Override
  public String name() {
    return "usage";
  }

  @Override
  public List<Figure> run(Settings settings) throws Exception {
    List<Figure> figures = new ArrayList<>(listSessions(settings));
    figures.addAll(largeTranscript(settings));
    return figures;
  }

  private List<Figure> listSessions(Settings settings) throws Exception {
    int sessions = settings.scale(50, 3);
    // More calls than the other latency rows: the ratio of two medians is the figure here.
    int calls = settings.scale(1_000, 10);
    int warmup = settings.scale(200, 5);
    int block = settings.scale(50, 5);
    Path withUsage = Files.createTempDirectory("clique-bench-usage-");
    Path withoutUsage = Files.createTempDirectory("clique-bench-no-usage-");
    try (BenchEngine used =
            BenchEngine.start(Map.of("CLAUDE_CONFIG_DIR", withUsage.toString()), CLAUDE_STAND_IN);
        BenchEngine unused =
            BenchEngine.start(
                Map.of("CLAUDE_CONFIG_DIR", withoutUsage.toString()), CLAUDE_STAND_IN)) {
      used.grow(sessions, "claude");
      unused.grow(sessions, "claude");
      for (String id : used.sessions) {
        writeSession(withUsage, used.home, id, true);
      }
      for (String id : unused.sessions) {
        writeSession(withoutUsage, unused.home, id, false);
      }
      warmUp(used, settings.scale(1_000, 2));
      warmUp(unused, settings.scale(1_000, 2));
      List<String> clique = List.of(settings.launcher().toString(), "mcp");
      Samples usage = new Samples();
      Samples none = new Samples();
      // Each round a fresh pair of `clique mcp`: what one process's JIT happened to compile
      // weighs on one round, not on the whole figure. Blocks taken in turn within a round, each
      // first every other time: the load others put on a shared machine falls on both alike.
      int perRound = (calls + ROUNDS - 1) / ROUNDS;
      for (int round = 0; round < ROUNDS; round++) {
        try (McpProcess overUsed = McpProcess.start(clique, used.mcpEnv());
            McpProcess overUnused = McpProcess.start(clique, unused.mcpEnv())) {
          overUsed.roundTrip(McpProcess.initialize(1));
          overUnused.roundTrip(McpProcess.initialize(1));
          check(overUsed, sessions, true);
          check(overUnused, sessions, false);
          for (int i = 0; i < warmup; i++) {
            time(overUsed);
            time(overUnused);
          }
          for (int done = 0, turn = 0; done < perRound; done += block, turn++) {
            int n = Math.min(block, perRound - done);
            if ((turn + round) % 2 == 0) {
              measure(overUsed, n, usage);
              measure(overUnused, n, none);
            } else {
              measure(overUnused, n, none);
              measure(overUsed, n, usage);
            }
          }
        }
      }
      // The engine's share: its state route alone, the same way.
      Samples stateUsage = new Samples();
      Samples stateNone = new Samples();
      int[] bytes = new int[2];
      URI usedUrl = URI.create(used.url());
      URI unusedUrl = URI.create(unused.url());
      try (RawHttp toUsed = new RawHttp(usedUrl.getHost(), usedUrl.getPort());
          RawHttp toUnused = new RawHttp(unusedUrl.getHost(), unusedUrl.getPort())) {
        byte[] askUsed = RawHttp.get("/api/state?usage=brief", used.reader);
        byte[] askUnused = RawHttp.get("/api/state?usage=brief", unused.reader);
        for (int i = 0; i < warmup; i++) {
          bytes[0] = state(toUsed, askUsed, null);
          bytes[1] = state(toUnused, askUnused, null);
        }
        for (int done = 0, round = 0; done < calls; done += block, round++) {
          int n = Math.min(block, calls - done);
          for (int side = 0; side < 2; side++) {
            boolean usedFirst = round % 2 == 0;
            boolean usedNow = usedFirst == (side == 0);
            for (int i = 0; i < n; i++) {
              if (usedNow) {
                state(toUsed, askUsed, stateUsage);
              } else {
                state(toUnused, askUnused, stateNone);
              }
            }
          }
        }
      }
      String how =
          calls
              + " calls in "
              + ROUNDS
              + " rounds, each a fresh `clique mcp` warmed up by "
              + warmup
              + " calls, in turns of "
              + block
              + " with the other; the engines warmed up before";
      return List.of(
          Figure.reference(
              "`list_sessions` with " + sessions + " sessions with usage",
              "ms",
              usage,
              how + "; each a Claude transcript of 40 answers and a sub-agent's file of 4"),
          Figure.reference(
              "`list_sessions` with " + sessions + " sessions without usage",
              "ms",
              none,
              how + "; the same records without `message.usage`"),
          new Figure(
              "`list_sessions` with usage / without usage",
              "x",
              usage.median() / none.median(),
              usage.p95() / none.p95(),
              "<= 1.10 x",
              usage.median() / none.median() <= 1.10,
              "the two rows above: median by median, p95 by p95"),
          Figure.reference(
              "`GET /api/state?usage=brief` with " + sessions + " sessions with usage",
              "ms",
              stateUsage,
              calls
                  + " requests after "
                  + warmup
                  + " to warm up, in turns of "
                  + block
                  + " with the other; 1 keep-alive connection; "
                  + String.format("%,d", bytes[0])
                  + " bytes an answer"),
          Figure.reference(
              "`GET /api/state?usage=brief` with " + sessions + " sessions without usage",
              "ms",
              stateNone,
              "the same; " + String.format("%,d", bytes[1]) + " bytes an answer"),
          new Figure(
              "`GET /api/state?usage=brief` with usage / without usage",
              "x",
              stateUsage.median() / stateNone.median(),
              stateUsage.p95() / stateNone.p95(),
              "",
              true,
              "the two rows above: the engine's share of the `list_sessions` figures"));
    } finally {
      delete(withUsage);
      delete(withoutUsage);
    }
  }

  /**
   * A session's transcript of 40 answers and one sub-agent's file of 4, as Claude Code lays them.
   */
  private static void writeSession(Path configDir, Path cwd, String id, boolean usage)
      throws IOException {
    Path file = configDir.resolve("projects").resolve(slug(cwd)).resolve(id + ".jsonl");
    Files.createDirectories(file.getParent());
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      text.append(user("question " + i)).append('\n');
      text.append(toolResult("x".repeat(2000))).append('\n');
      text.append(assistant("msg_" + i, "answer " + i, usage, false)).append('\n');
    }
    Files.writeString(file, text, StandardCharsets.UTF_8);
    Path agent = file.resolveSibling(id).resolve("subagents").resolve("agent-a1b2c3.jsonl");
    Files.createDirectories(agent.getParent());
    StringBuilder side = new StringBuilder();
    for (int i = 0; i < 4; i++) {
      side.append(assistant("sub_" + i, "found " + i, usage, true)).append('\n');
    }
    Files.writeString(agent, side, StandardCharsets.UTF_8);
  }

  /** Every session listed, with usage or without as its transcripts say. */
  private static void check(McpProcess mcp, int sessions, boolean usage) throws IOException {
    JsonNode listed = JSON.readTree(call(mcp)).at("/result/structuredContent/sessions");
    long withUsage = 0;
    for (JsonNode session : listed) {
      withUsage += session.has("usage") ? 1 : 0;
    }
    if (listed.size() != sessions || withUsage != (usage ? sessions : 0)) {
      throw new IllegalStateException(
          "list_sessions named "
              + listed.size()
              + " sessions, "
              + withUsage
              + " with usage; expected "
              + sessions
              + (usage ? " all with usage" : " none with usage")
              + ": "
              + listed.path(0));
    }
  }

  /**
   * The usage of one 1 GB transcript through the engine's reader: the first read of a fresh reader
   * (the file's last 64 MiB), a re-read of the unchanged file, and reads after it grew by 4 MiB;
   * then this JVM's heap growth.
   */
  private List<Figure> largeTranscript(Settings settings) throws Exception {
    long size = settings.quick() ? 8L << 20 : 1L << 30;
    int firsts = settings.scale(5, 1);
    int rereads = settings.scale(20, 3);
    int growths = settings.scale(10, 2);
    Path claude = Files.createTempDirectory("clique-bench-usage-gb-");
    try {
      Path cwd = claude.resolve("work");
      String id = "5f0c9a2e-1111-4c3b-9d1e-222233334444";
      Path file = claude.resolve("projects").resolve(slug(cwd)).resolve(id + ".jsonl");
      write(file, size);
      TranscriptRoots roots =
          TranscriptRoots.fromEnvironment(Map.of("CLAUDE_CONFIG_DIR", claude.toString()), claude);
      TranscriptRequest request = new TranscriptRequest("claude", id, null, cwd, null);
      MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
      long heapBefore = usedHeapAfterGc(memory);
      Samples first = new Samples();
      Transcripts transcripts = null;
      for (int i = 0; i < firsts; i++) {
        transcripts = new Transcripts(roots);
        long start = System.nanoTime();
        Usage usage = transcripts.usage(request).usage();
        first.add((System.nanoTime() - start) / 1e6);
        // Over 64 MiB, the sums cover the file's end and say so.
        if (usage == null || Boolean.TRUE.equals(usage.partial()) != size > 64L << 20) {
          throw new IllegalStateException("the transcript's usage is not what it holds: " + usage);
        }
      }
      Samples unchanged = new Samples();
      for (int i = 0; i < rereads; i++) {
        long start = System.nanoTime();
        transcripts.usage(request);
        unchanged.add((System.nanoTime() - start) / 1e6);
      }
      Samples grown = new Samples();
      long answersAGrowth = 0;
      long growthBytes = 0;
      for (int i = 0; i < growths; i++) {
        String growth = turns("grown" + i, 4 << 20);
        answersAGrowth = growth.lines().filter(line -> line.contains("\"usage\"")).count();
        growthBytes = growth.getBytes(StandardCharsets.UTF_8).length;
        long before = transcripts.usage(request).usage().inputTokens();
        Files.writeString(file, growth, StandardOpenOption.APPEND);
        long start = System.nanoTime();
        Usage usage = transcripts.usage(request).usage();
        grown.add((System.nanoTime() - start) / 1e6);
        if (usage.inputTokens() != before + answersAGrowth * INPUT) {
          throw new IllegalStateException(
              "after growing, input " + usage.inputTokens() + " is not " + before + " + new");
        }
      }
      long heapAfter = usedHeapAfterGc(memory);
      String gb = settings.quick() ? "8 MiB" : "1 GB";
      String mb = String.format("%.1f MiB", growthBytes / 1048576.0);
      return List.of(
          Figure.atMost(
              "`usage` of a " + gb + " Claude transcript, first read",
              "ms",
              first,
              100,
              firsts
                  + " fresh readers of one file, `Transcripts.usage` as the engine calls it; its"
                  + " last 64 MiB (partial)"),
          Figure.reference(
              "`usage` of it, unchanged since the last read",
              "ms",
              unchanged,
              rereads + " re-reads"),
          Figure.reference(
              "`usage` of it after it grew by " + mb,
              "ms",
              grown,
              growths + " appends of " + answersAGrowth + " answers; sums checked"),
          Figure.atMost(
              "heap growth after the usage of " + gb,
              "MiB",
              Samples.of((heapAfter - heapBefore) / 1048576.0),
              16,
              "used heap after GC, before and after, the last reader still held"));
    } finally {
      delete(claude);
    }
  }

  /**
   * Turns until {@code bytes} characters: each a question, a 4 KB tool result and an answer with
   * usage, whose ids start with {@code prefix}.
   */
  private static String turns(String prefix, int bytes) {
    StringBuilder text = new StringBuilder();
    for (int n = 0; text.length() < bytes; n++) {
      text.append(user("question " + n)).append('\n');
      text.append(toolResult("x".repeat(4000))).append('\n');
      text.append(assistant(prefix + "_" + n, "answer " + n, true, false)).append('\n');
    }
    return text.toString();
  }

  /** Turns as {@link #growth} makes them until the file holds {@code size} bytes; ids unique. */
  private static void write(Path file, long size) throws IOException {
    Files.createDirectories(file.getParent());
    try (FileChannel out =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      for (int block = 0; out.size() < size; block++) {
        ByteBuffer bytes =
            ByteBuffer.wrap(turns("old" + block, 1 << 20).getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
          out.write(bytes);
        }
      }
      // On disk before any read is timed: the kernel writing 1 GB back is not the reader's cost.
      out.force(false);
    }
  }

  private static String user(String text) {
    return "{\"type\":\"user\",\"isSidechain\":false,\"message\":{\"role\":\"user\",\"content\":\""
        + text
        + "\"},\"uuid\":\"u\"}";
  }

  private static String assistant(String id, String text, boolean usage, boolean sidechain) {
    return "{\"type\":\"assistant\",\"isSidechain\":"
        + sidechain
        + ",\"message\":{\"id\":\""
        + id
        + "\",\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5-20250929\",\"content\":"
        + "[{\"type\":\"text\",\"text\":\""
        + text
        + "\"}]"
        + (usage
            ? ",\"usage\":{\"input_tokens\":"
                + INPUT
                + ",\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,"
                + "\"output_tokens\":"
                + OUTPUT
                + "}"
            : "")
        + "},\"uuid\":\"a\"}";
  }

  private static String toolResult(String output) {
    return "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":"
        + "\"tool_result\",\"tool_use_id\":\"t\",\"content\":\""
        + output
        + "\"}]},\"uuid\":\"r\"}";
  }

  private static String slug(Path cwd) {
    return cwd.toString().replaceAll("[^A-Za-z0-9]", "-");
  }

  /** One {@code GET /api/state}, timed into {@code into} unless it is null; its answer's bytes. */
  private static int state(RawHttp http, byte[] request, Samples into) throws IOException {
    long start = System.nanoTime();
    http.send(request);
    String body = http.read();
    if (into != null) {
      into.add((System.nanoTime() - start) / 1e6);
    }
    return body.getBytes(StandardCharsets.UTF_8).length;
  }

  private static void measure(McpProcess mcp, int calls, Samples into) throws IOException {
    for (int i = 0; i < calls; i++) {
      into.add(time(mcp));
    }
  }

  private static double time(McpProcess mcp) throws IOException {
    long start = System.nanoTime();
    call(mcp);
    return (System.nanoTime() - start) / 1e6;
  }

  private static String call(McpProcess mcp) throws IOException {
    String answer = mcp.callTool("list_sessions", "{}");
    if (!answer.contains("\"isError\":false")) {
      throw new IllegalStateException("list_sessions failed: " + answer);
    }
    return answer;
  }

  /** As a user's engine has been running: its state route compiled before the calls are timed. */
  private static void warmUp(BenchEngine engine, int rounds) throws IOException {
    CliqueClient client = CliqueClient.builder().baseUrl(engine.url()).token(engine.reader).build();
    try {
      for (int i = 0; i < rounds; i++) {
        client.state();
      }
    } catch (CliqueException e) {
      throw new IOException("warming the engine up failed: " + e.getMessage(), e);
    }
  }

  private static long usedHeapAfterGc(MemoryMXBean memory) {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return memory.getHeapMemoryUsage().getUsed();
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
