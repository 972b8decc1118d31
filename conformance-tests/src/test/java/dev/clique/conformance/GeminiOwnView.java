package dev.clique.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Gemini CLI's own view of a chat file: the installed CLI's own loader ({@code
 * loadConversationRecord} in its bundle) run by node on the file, through {@code
 * gemini-own-view.mjs}. What the engine reads from a Gemini chat is held to it.
 */
final class GeminiOwnView {
  private static final ObjectMapper JSON = new ObjectMapper();

  private GeminiOwnView() {}

  /** The turns Gemini CLI's own loader keeps of {@code chat}. */
  static JsonNode of(Path chat) throws IOException, InterruptedException {
    Path script = Files.createTempFile("gemini-own-view-", ".mjs");
    try (InputStream in = GeminiOwnView.class.getResourceAsStream("/gemini-own-view.mjs")) {
      Files.copy(in, script, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    try (Spawned node =
        Spawned.start(
            List.of(
                "node",
                script.toString(),
                loaderChunk().toUri().toString(),
                chat.toAbsolutePath().toString()),
            Map.of("PATH", AgentClis.path()),
            chat.toAbsolutePath().getParent())) {
      int code = node.waitFor(Duration.ofSeconds(60));
      if (code != 0) {
        throw new AssertionError(
            "Gemini CLI's loader exited " + code + " on " + chat + ": " + node.stderr());
      }
      return JSON.readTree(node.stdout());
    } finally {
      Files.deleteIfExists(script);
    }
  }

  /** The bundle chunk that defines and exports the loader. */
  private static Path loaderChunk() throws IOException {
    Path bundle =
        AgentClis.bin().getParent().resolve("@google").resolve("gemini-cli").resolve("bundle");
    try (Stream<Path> chunks = Files.list(bundle)) {
      for (Path chunk : chunks.filter(p -> p.toString().endsWith(".js")).sorted().toList()) {
        String text = Files.readString(chunk);
        if (text.contains("async function loadConversationRecord(")
            && text.contains("  loadConversationRecord,\n")) {
          return chunk;
        }
      }
    }
    throw new IllegalStateException("no chunk of " + bundle + " defines loadConversationRecord");
  }
}
