package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The wire of MCP.md: bad input never kills the server and never goes unanswered. */
class WireTest {
  private final McpHarness mcp =
      McpHarness.start(new CliqueMcpServer(new FakeClient(), Fixtures.VERSION));

  @AfterEach
  void theServerEndsWhenStdinCloses() {
    mcp.close();
  }

  private JsonNode nextFrame() throws InterruptedException {
    JsonNode frame = mcp.next(Duration.ofSeconds(5));
    assertThat(frame).as("a frame within 5 s").isNotNull();
    return frame;
  }

  private void assertStillServing() throws InterruptedException {
    JsonNode pong = mcp.request("ping", null);
    assertThat(pong.get("result")).isEqualTo(Fixtures.json("{}"));
  }

  @Test
  void aLineThatIsNotJsonIsAParseErrorWithANullId() throws Exception {
    mcp.send("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ");
    JsonNode error = nextFrame();
    assertThat(error.at("/error/code").asInt()).isEqualTo(-32700);
    assertThat(error.get("id").isNull()).isTrue();
    assertStillServing();
  }

  @Test
  void aBatchANumberAndAStringAreInvalidRequestsWithANullId() throws Exception {
    mcp.send("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]");
    mcp.send("42");
    mcp.send("\"ping\"");
    mcp.send("null");
    for (int i = 0; i < 4; i++) {
      JsonNode error = nextFrame();
      assertThat(error.at("/error/code").asInt()).isEqualTo(-32600);
      assertThat(error.get("id").isNull()).isTrue();
    }
    assertStillServing();
  }

  @Test
  void anObjectWithAnIdButNoMethodIsAnInvalidRequest() throws Exception {
    mcp.send("{\"jsonrpc\":\"2.0\",\"id\":7}");
    JsonNode error = nextFrame();
    assertThat(error.at("/error/code").asInt()).isEqualTo(-32600);
    assertThat(error.get("id").asInt()).isEqualTo(7);
    assertStillServing();
  }

  @Test
  void aLineOverTheLimitIsRefusedAndTheNextLineIsReadNormally() throws Exception {
    byte[] big = new byte[9 * 1024 * 1024];
    Arrays.fill(big, (byte) 'x');
    mcp.sendBytes(big);
    mcp.send("");
    JsonNode error = nextFrame();
    assertThat(error.at("/error/code").asInt()).isEqualTo(-32600);
    assertThat(error.get("id").isNull()).isTrue();
    assertStillServing();
  }

  @Test
  void aFourMebibyteRequestIsAccepted() throws Exception {
    String padding = "x".repeat(4 * 1024 * 1024);
    int id = mcp.sendRequest("ping", Map.of("padding", padding));
    assertThat(mcp.answerTo(id, Duration.ofSeconds(10)).has("result")).isTrue();
  }

  @Test
  void invalidUtf8NulBytesCrlfAndBlankLinesAreNeverFatal() throws Exception {
    ByteArrayOutputStream input = new ByteArrayOutputStream();
    input.write(new byte[] {(byte) 0xc3, (byte) 0x28, (byte) 0xff, '\n'});
    input.write(new byte[] {'{', 0, '}', '\n'});
    input.write("\n\r\n \t \n".getBytes(StandardCharsets.UTF_8));
    input.write(
        "{\"jsonrpc\":\"2.0\",\"id\":\"\u00e9\",\"method\":\"ping\"}\r\n"
            .getBytes(StandardCharsets.UTF_8));
    // A string with an invalid byte inside is still a request; the byte reads as U+FFFD.
    ByteArrayOutputStream broken = new ByteArrayOutputStream();
    broken.write("{\"jsonrpc\":\"2.0\",\"id\":\"a".getBytes(StandardCharsets.UTF_8));
    broken.write(0xfe);
    broken.write("\",\"method\":\"ping\"}\n".getBytes(StandardCharsets.UTF_8));
    input.write(broken.toByteArray());
    mcp.sendBytes(input.toByteArray());
    assertThat(nextFrame().at("/error/code").asInt()).isEqualTo(-32700);
    assertThat(nextFrame().at("/error/code").asInt()).isEqualTo(-32700);
    JsonNode pong = nextFrame();
    assertThat(pong.get("id").asText()).isEqualTo("\u00e9");
    assertThat(pong.has("result")).isTrue();
    JsonNode replaced = nextFrame();
    assertThat(replaced.get("id").asText()).isEqualTo("a\ufffd");
    assertStillServing();
  }

  @Test
  void notificationsAreNeverAnsweredEvenWithAnIdOrAnUnknownMethod() throws Exception {
    mcp.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    mcp.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/whatever\",\"params\":{}}");
    mcp.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"notifications/initialized\"}");
    mcp.send("{\"jsonrpc\":\"2.0\",\"method\":\"no/such/method\"}");
    mcp.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{}}");
    assertStillServing();
    assertThat(mcp.seen()).hasSize(1);
  }

  @Test
  void anUnknownMethodIsMethodNotFound() throws Exception {
    JsonNode answer = mcp.request("prompts/list", null);
    assertThat(answer.at("/error/code").asInt()).isEqualTo(-32601);
    assertThat(mcp.request("no/such/method", Map.of()).at("/error/code").asInt()).isEqualTo(-32601);
  }

  @Test
  void pingAnswersAnEmptyObject() throws Exception {
    JsonNode pong = mcp.request("ping", null);
    assertThat(pong.get("jsonrpc").asText()).isEqualTo("2.0");
    assertThat(pong.get("result")).isEqualTo(Fixtures.json("{}"));
  }

  @Test
  void theIdComesBackExactlyAsSent() throws Exception {
    mcp.send("{\"jsonrpc\":\"2.0\",\"id\":\"req-1\",\"method\":\"ping\"}");
    mcp.send("{\"jsonrpc\":\"2.0\",\"id\":9007199254740993,\"method\":\"ping\"}");
    assertThat(nextFrame().get("id").asText()).isEqualTo("req-1");
    assertThat(nextFrame().get("id").toString()).isEqualTo("9007199254740993");
  }

  @Test
  void aRequestWithoutJsonrpc20OrWithBadParamsIsRefusedWithItsId() throws Exception {
    mcp.send("{\"id\":4,\"method\":\"ping\"}");
    JsonNode noVersion = nextFrame();
    assertThat(noVersion.at("/error/code").asInt()).isEqualTo(-32600);
    assertThat(noVersion.get("id").asInt()).isEqualTo(4);
    mcp.send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":[1]}");
    JsonNode badParams = nextFrame();
    assertThat(badParams.at("/error/code").asInt()).isEqualTo(-32602);
    assertThat(badParams.get("id").asInt()).isEqualTo(5);
  }

  @Test
  void aSecondRequestWithTheIdOfAPendingOneIsRefused() throws Exception {
    mcp.send(
        "{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"tools/call\","
            + "\"params\":{\"name\":\"wait\",\"arguments\":{\"id\":\"s\"}}}");
    mcp.send("{\"jsonrpc\":\"2.0\",\"id\":77,\"method\":\"ping\"}");
    JsonNode refused = nextFrame();
    assertThat(refused.at("/error/code").asInt()).isEqualTo(-32600);
    assertThat(refused.at("/error/message").asText()).contains("already in use");
  }
}
