package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A seeded fuzz of {@code clique mcp}'s stdin: thousands of bad lines, and after every batch a ping
 * that must be answered. Every request with an id gets exactly one answer; stdout carries nothing
 * but JSON-RPC frames; the server exits 0 at the end of its input.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class HostileInputIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long SEED = 20261130L;
  private static final int BATCHES = 40;
  private static final int LINES_PER_BATCH = 60;

  private static ThrowawayEngine.WithShell shell;

  @BeforeAll
  static void engineWithASession() throws Exception {
    shell = ThrowawayEngine.startWithShell("fuzz");
  }

  @AfterAll
  static void cleanUp() throws Exception {
    shell.engine().close();
  }

  @Test
  void thousandsOfBadLinesNeverStopTheServerNorGoUnanswered() throws Exception {
    Map<String, String> env = shell.engine().mcpEnv(shell.reader());
    Random random = new Random(SEED);
    try (Spawned mcp = Spawned.start(Launcher.jarCommand("mcp"), env, shell.engine().workdir)) {
      mcp.send(
          "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":"
              + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
              + "\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"0\"}}}");
      int sent = 0;
      for (int batch = 0; batch < BATCHES; batch++) {
        Map<String, Integer> expectedIds = new HashMap<>();
        for (int i = 0; i < LINES_PER_BATCH; i++) {
          byte[] line = hostileLine(random, "b" + batch + "-" + i, expectedIds);
          mcp.sendBytes(line);
          mcp.sendBytes(new byte[] {'\n'});
          sent++;
        }
        String pingId = "ping-" + batch;
        mcp.send("{\"jsonrpc\":\"2.0\",\"id\":\"" + pingId + "\",\"method\":\"ping\"}");
        // Calls run concurrently, so their answers may come before or after the ping's.
        Map<String, Integer> answered = new HashMap<>();
        boolean pinged = false;
        while (!pinged || !answered.keySet().containsAll(expectedIds.keySet())) {
          String line = mcp.nextLine(Duration.ofSeconds(60));
          JsonNode frame = JSON.readTree(line);
          assertFrame(line, frame);
          JsonNode id = frame.get("id");
          if (id != null && id.isTextual()) {
            answered.merge(id.asText(), 1, Integer::sum);
            if (id.asText().equals(pingId)) {
              assertThat(frame.path("result").isObject()).as(line).isTrue();
              pinged = true;
            }
          }
        }
        for (Map.Entry<String, Integer> expected : expectedIds.entrySet()) {
          assertThat(answered.getOrDefault(expected.getKey(), 0))
              .as("answers to request " + expected.getKey())
              .isEqualTo(expected.getValue());
        }
      }
      assertThat(sent).isEqualTo(BATCHES * LINES_PER_BATCH);
      mcp.closeStdin();
      assertThat(mcp.waitFor(Duration.ofSeconds(10))).isZero();
      assertThat(mcp.stderr()).doesNotContain(shell.reader());
      for (String line : mcp.stdout().split("\n")) {
        assertThat(line).doesNotContain(shell.reader());
        assertFrame(line, JSON.readTree(line));
      }
    }
  }

  private static void assertFrame(String line, JsonNode frame) {
    assertThat(frame.isObject()).as(line).isTrue();
    assertThat(frame.path("jsonrpc").asText()).as(line).isEqualTo("2.0");
    boolean result = frame.has("result");
    boolean error = frame.has("error");
    boolean notification = frame.has("method") && !frame.has("id");
    assertThat(result ^ error || notification)
        .as("a result, an error or a notification: " + line)
        .isTrue();
    if (error) {
      assertThat(frame.at("/error/code").isInt()).as(line).isTrue();
      assertThat(frame.at("/error/message").isTextual()).as(line).isTrue();
    }
  }

  /**
   * One hostile line. When the line is a well-formed request with a string id, that id is counted
   * in {@code expectedIds}: it must be answered exactly once.
   */
  private static byte[] hostileLine(Random random, String id, Map<String, Integer> expectedIds)
      throws Exception {
    switch (random.nextInt(12)) {
      case 0:
        return utf8("{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":");
      case 1:
        return utf8("[" + validRequest(random, id) + "]");
      case 2:
        return utf8(List.of("42", "\"text\"", "true", "null", "-1.5e99").get(random.nextInt(5)));
      case 3:
        {
          byte[] bytes = utf8(validRequest(random, "x" + id));
          bytes[random.nextInt(bytes.length)] = (byte) (0x80 + random.nextInt(0x7f));
          return bytes;
        }
      case 4:
        {
          byte[] bytes = utf8(validRequest(random, "x" + id));
          bytes[random.nextInt(bytes.length)] = 0;
          return bytes;
        }
      case 5:
        {
          expectedIds.put(id, 1);
          return utf8(
              "{\"jsonrpc\":\"2.0\",\"id\":\""
                  + id
                  + "\",\"method\":\"tools/call\",\"params\":{\"name\":\"preview_pane\","
                  + "\"arguments\":{\"id\":"
                  + List.of("7", "true", "[]", "{}", "\"\"", "null").get(random.nextInt(6))
                  + ",\"lines\":"
                  + List.of("\"x\"", "-3", "0", "1e9", "[]", "2.5").get(random.nextInt(6))
                  + "}}}");
        }
      case 6:
        expectedIds.put(id, 1);
        return utf8(
            "{\"jsonrpc\":\"2.0\",\"id\":\""
                + id
                + "\",\"method\":\""
                + List.of("no/such", "tools/nope", "", "prompts/list", "INITIALIZE")
                    .get(random.nextInt(5))
                + "\"}");
      case 7:
        expectedIds.put(id, 1);
        return utf8(
            "{\"jsonrpc\":\"2.0\",\"id\":\""
                + id
                + "\",\"method\":\"tools/call\",\"params\":{\"name\":\""
                + List.of("type_into", "send_keys", "", "list_sessions ", "LIST_SESSIONS")
                    .get(random.nextInt(5))
                + "\",\"arguments\":{}}}");
      case 8:
        {
          if (random.nextInt(8) == 0) {
            // A line past the size limit: refused, and the next line is read normally.
            ByteArrayOutputStream big = new ByteArrayOutputStream();
            big.write(
                utf8(
                    "{\"jsonrpc\":\"2.0\",\"id\":\"big\",\"method\":\"ping\",\"params\":{\"p\":\""));
            big.write(utf8("x".repeat(9 * 1024 * 1024)));
            big.write(utf8("\"}}"));
            return big.toByteArray();
          }
          return utf8("   ");
        }
      case 9:
        {
          ObjectNode request = (ObjectNode) JSON.readTree(validRequest(random, id));
          List<String> keys = List.of("jsonrpc", "method", "params");
          String victim = keys.get(random.nextInt(keys.size()));
          request.remove(victim);
          // Without jsonrpc or method it is an invalid request; without params, a bad call:
          // answered once either way.
          expectedIds.put(id, 1);
          return utf8(request.toString());
        }
      case 10:
        {
          expectedIds.put(id, 1);
          ObjectNode request = (ObjectNode) JSON.readTree(validRequest(random, id));
          request.put("params", List.of("[1]", "7", "\"p\"").get(random.nextInt(3)));
          request.set("params", JSON.readTree(request.get("params").asText()));
          return utf8(request.toString());
        }
      default:
        expectedIds.put(id, 1);
        return utf8(validRequest(random, id) + (random.nextBoolean() ? "\r" : ""));
    }
  }

  private static String validRequest(Random random, String id) {
    String params =
        switch (random.nextInt(4)) {
          case 0 -> "{\"name\":\"list_sessions\",\"arguments\":{}}";
          case 1 ->
              "{\"name\":\"get_session\",\"arguments\":{\"id\":\"" + shell.sessionId() + "\"}}";
          case 2 ->
              "{\"name\":\"preview_pane\",\"arguments\":{\"id\":\""
                  + shell.sessionId()
                  + "\",\"lines\":3}}";
          default ->
              "{\"name\":\"wait\",\"arguments\":{\"id\":\""
                  + shell.sessionId()
                  + "\",\"timeout\":0}}";
        };
    return "{\"jsonrpc\":\"2.0\",\"id\":\""
        + id
        + "\",\"method\":\"tools/call\",\"params\":"
        + params
        + "}";
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
