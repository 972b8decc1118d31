package dev.clique.mcp.stdio;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.mcp.protocol.FrameWriter;
import dev.clique.mcp.protocol.MessageHandler;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every malformed line gets its own answer, and the line after it is read normally. */
class StdioFrontTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final List<String> requests = new ArrayList<>();
  private final List<String> notifications = new ArrayList<>();

  private List<JsonNode> feed(byte[] input) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    StdioFront front =
        new StdioFront(
            new FrameWriter(out),
            new MessageHandler() {
              @Override
              public void request(JsonNode id, String method, ObjectNode message) {
                requests.add(method + "#" + id);
              }

              @Override
              public void notification(String method, ObjectNode message) {
                notifications.add(method);
              }
            });
    front.run(new ByteArrayInputStream(input));
    List<JsonNode> frames = new ArrayList<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
      if (!line.isEmpty()) {
        frames.add(JSON.readTree(line));
      }
    }
    return frames;
  }

  private List<JsonNode> feed(String input) throws Exception {
    return feed(input.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aLineThatIsNotJsonIsAParseErrorWithANullId() throws Exception {
    List<JsonNode> frames = feed("{nope\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");
    assertThat(frames).hasSize(1);
    assertThat(frames.get(0).at("/error/code").asInt()).isEqualTo(-32700);
    assertThat(frames.get(0).get("id").isNull()).isTrue();
    assertThat(requests).containsExactly("ping#1");
  }

  @Test
  void jsonThatIsNotAnObjectIsAnInvalidRequest() throws Exception {
    List<JsonNode> frames = feed("[1,2]\n42\n\"text\"\n");
    assertThat(frames).extracting(f -> f.at("/error/code").asInt()).containsOnly(-32600);
    assertThat(frames).allMatch(f -> f.get("id").isNull());
  }

  @Test
  void anIdWithoutAMethodIsAnInvalidRequestThatKeepsItsId() throws Exception {
    List<JsonNode> frames = feed("{\"jsonrpc\":\"2.0\",\"id\":5}\n");
    assertThat(frames.get(0).at("/error/code").asInt()).isEqualTo(-32600);
    assertThat(frames.get(0).get("id").asInt()).isEqualTo(5);
  }

  @Test
  void anOversizeLineIsRefusedAndTheNextLineIsRead() throws Exception {
    byte[] big = new byte[StdioFront.MAX_LINE_BYTES + 10];
    java.util.Arrays.fill(big, (byte) 'x');
    ByteArrayOutputStream input = new ByteArrayOutputStream();
    input.write(big);
    input.write(
        "\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n".getBytes(StandardCharsets.UTF_8));
    List<JsonNode> frames = feed(input.toByteArray());
    assertThat(frames).hasSize(1);
    assertThat(frames.get(0).at("/error/code").asInt()).isEqualTo(-32600);
    assertThat(requests).containsExactly("ping#2");
  }

  @Test
  void aFourMebibyteLineIsAccepted() throws Exception {
    String padding = "x".repeat(4 * 1024 * 1024);
    feed(
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":{\"pad\":\""
            + padding
            + "\"}}\n");
    assertThat(requests).containsExactly("ping#3");
  }

  @Test
  void invalidUtf8NulBytesCrlfAndBlankLinesAreNeverFatal() throws Exception {
    ByteArrayOutputStream input = new ByteArrayOutputStream();
    input.write(new byte[] {(byte) 0xff, (byte) 0xfe, '\n'});
    input.write(new byte[] {'{', 0, '}', '\n'});
    input.write("\n\r\n   \n".getBytes(StandardCharsets.UTF_8));
    input.write(
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}\r\n".getBytes(StandardCharsets.UTF_8));
    List<JsonNode> frames = feed(input.toByteArray());
    assertThat(frames).hasSize(2).allMatch(f -> f.get("id").isNull());
    assertThat(requests).containsExactly("ping#4");
  }

  @Test
  void notificationsAreForwardedAndNeverAnswered() throws Exception {
    List<JsonNode> frames =
        feed("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    assertThat(frames).isEmpty();
    assertThat(notifications).containsExactly("notifications/initialized");
  }

  @Test
  void aLastLineWithoutANewlineIsStillRead() throws Exception {
    feed("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}");
    assertThat(requests).containsExactly("ping#9");
  }
}
