package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real CLI's conversation as the engine reads it ({@code GET /api/sessions/{id}/transcript}),
 * next to what was said, and the CLI's own transcript file kept under {@code
 * target/recorded-transcripts/} (the raw material of the readers' golden fixtures).
 */
final class RecordedConversation {
  private static final ObjectMapper JSON = new ObjectMapper();

  private RecordedConversation() {}

  /** The prompts and answers of {@code exchanges} as the turns they should read as. */
  static ArrayNode expectedTurns(String[][] exchanges) {
    ArrayNode turns = JSON.createArrayNode();
    for (String[] exchange : exchanges) {
      turns.addObject().put("role", "user").put("text", exchange[0]);
      turns.addObject().put("role", "assistant").put("text", exchange[1]);
    }
    return turns;
  }

  /** The session's turns, asked until there are {@code wanted} of them or {@code within} passes. */
  static JsonNode turns(
      ThrowawayEngine engine, String token, String id, int wanted, Duration within)
      throws IOException, InterruptedException {
    JsonNode turns = JSON.createArrayNode();
    long deadline = System.nanoTime() + within.toNanos();
    do {
      HttpResponse<String> answer = engine.get("/api/sessions/" + id + "/transcript", token);
      assertThat(answer.statusCode()).as("GET transcript: %s", answer.body()).isEqualTo(200);
      turns = JSON.readTree(answer.body()).path("turns");
      if (turns.size() >= wanted) {
        break;
      }
      Thread.sleep(200);
    } while (System.nanoTime() < deadline);
    return turns;
  }

  /** The only file under {@code root} whose name ends with {@code suffix}. */
  static Path onlyFile(Path root, String suffix) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      List<Path> found =
          files
              .filter(Files::isRegularFile)
              .filter(p -> p.getFileName().toString().endsWith(suffix))
              .toList();
      assertThat(found).as("the %s files under %s", suffix, root).hasSize(1);
      return found.get(0);
    }
  }

  /** Keeps a copy of the CLI's transcript as {@code target/recorded-transcripts/<name>}. */
  static void keep(Path transcript, String name) throws IOException {
    Path kept = Files.createDirectories(Path.of("target", "recorded-transcripts")).resolve(name);
    Files.copy(transcript, kept, StandardCopyOption.REPLACE_EXISTING);
    System.err.println("recorded transcript | " + kept.toAbsolutePath());
  }
}
