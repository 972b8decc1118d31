package dev.clique.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.clique.models.ScriptedModelServer.Tokens;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a session's {@code usage} says beside what the scripted model server sent: the server
 * answered {@code answers} turns of the main conversation, each with the same {@link Tokens}, so
 * the sums clique reads from the CLI's own record must be those counts times {@code answers}.
 */
final class UsageProof {
  private UsageProof() {}

  /**
   * The sums the server sent, by the names {@code usage} gives them; absent cache counts left out.
   */
  static Map<String, Long> sent(Tokens tokens, long answers) {
    Map<String, Long> sums = new LinkedHashMap<>();
    sums.put("input_tokens", tokens.input() * answers);
    sums.put("output_tokens", tokens.output() * answers);
    if (tokens.cacheRead() > 0) {
      sums.put("cache_read_tokens", tokens.cacheRead() * answers);
    }
    if (tokens.cacheWrite() > 0) {
      sums.put("cache_write_tokens", tokens.cacheWrite() * answers);
    }
    return sums;
  }

  /** The same counts as the session's {@code usage} reports them ({@code null}: absent). */
  static Map<String, Long> reported(JsonNode usage, Map<String, Long> sent) {
    Map<String, Long> sums = new LinkedHashMap<>();
    for (String field : sent.keySet()) {
      sums.put(field, usage.path(field).isIntegralNumber() ? usage.path(field).asLong() : null);
    }
    return sums;
  }

  /**
   * Asks {@code GET /api/state} until the session's usage equals {@code sent} or {@code patience}
   * passes (the CLI writes its record a moment after its screen shows the answer); prints both.
   */
  static Map<String, Long> await(
      ThrowawayEngine engine,
      String token,
      String id,
      String cli,
      Map<String, Long> sent,
      Duration patience)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + patience.toNanos();
    Map<String, Long> reported;
    JsonNode usage;
    while (true) {
      HttpResponse<String> answer = engine.get("/api/state", token);
      usage = JsonNodeFactory.instance.objectNode();
      for (JsonNode row : ThrowawayEngine.json(answer.body()).path("sessions")) {
        if (id.equals(row.path("id").asText())) {
          usage = row.path("usage");
        }
      }
      reported = reported(usage, sent);
      if (reported.equals(sent) || System.nanoTime() > deadline) {
        break;
      }
      Thread.sleep(200);
    }
    System.err.printf(
        "%s | usage: the server sent %s, clique reported %s (turns %s, source %s)%n",
        cli, sent, reported, usage.path("turns"), usage.path("source"));
    return reported;
  }
}
