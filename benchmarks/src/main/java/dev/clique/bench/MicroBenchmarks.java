package dev.clique.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.session.SessionView;
import dev.clique.engine.transcript.TranscriptRequest;
import dev.clique.engine.transcript.TranscriptRoots;
import dev.clique.engine.transcript.Transcripts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/** In-process microbenchmarks (JMH): the JSON of 50 sessions, and reading a transcript's tail. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MicroBenchmarks {
  private static final String ID = "5f0c9a2e-1111-4c3b-9d1e-222233334444";

  private final ObjectMapper json = new ObjectMapper();
  private List<SessionView> sessions;
  private Path claudeHome;
  private TranscriptRequest request;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    sessions = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      sessions.add(
          new SessionView(
              "3f2b8c1e-5a47-4d0e-9b6f-2c81d4e7a9" + String.format("%02d", i),
              "session " + i,
              "claude",
              "Claude Code",
              "2.1.328",
              "/home/dev/src/project-" + i,
              "project-" + i,
              null,
              "acceptEdits",
              1767168912.44,
              true,
              false,
              "claude",
              1767171234.87,
              200,
              50,
              i % 3 == 0,
              "",
              "",
              "idle",
              412876800,
              "main",
              i % 4,
              null,
              new SessionView.SourceView("hook", "Stop"),
              null,
              null,
              null,
              List.of(),
              null,
              null));
    }
    claudeHome = Files.createTempDirectory("clique-micro-");
    Path file = claudeHome.resolve("projects").resolve("-home-dev-app").resolve(ID + ".jsonl");
    Files.createDirectories(file.getParent());
    StringBuilder text = new StringBuilder();
    for (int i = 0; text.length() < 4 << 20; i++) {
      text.append("{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"question ")
          .append(i)
          .append("\"}}\n{\"type\":\"assistant\",\"message\":{\"id\":\"m")
          .append(i)
          .append("\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"answer ")
          .append(i)
          .append(" ")
          .append("y".repeat(400))
          .append("\"}]}}\n");
    }
    Files.writeString(file, text);
    request = new TranscriptRequest("claude", ID, null, Path.of("/home/dev/app"), Instant.now());
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try (var paths = Files.walk(claudeHome)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  @Benchmark
  public byte[] jsonOfFiftySessions() throws IOException {
    return json.writeValueAsBytes(sessions);
  }

  /** A new reader each time, so the 1 MiB tail is read and parsed, not served from the cache. */
  @Benchmark
  public int transcriptTailOfA4MiBFile() {
    Transcripts transcripts =
        new Transcripts(
            new TranscriptRoots(
                claudeHome,
                claudeHome.resolve("codex"),
                claudeHome.resolve("gemini"),
                claudeHome.resolve("qwen"),
                claudeHome.resolve("copilot"),
                claudeHome.resolve("pi"),
                claudeHome.resolve("opencode.db")));
    return transcripts.turns(request).size();
  }
}
