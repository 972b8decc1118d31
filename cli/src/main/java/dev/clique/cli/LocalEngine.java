package dev.clique.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.EngineSettings;
import dev.clique.engine.home.CliqueHome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * The running {@code clique serve} of this user's home, reached over its operator socket ({@code
 * engine.sock} in the 0700 home): the human commands need no token. One HTTP/1.0 request a
 * connection; the answer is read to its end.
 */
final class LocalEngine {
  /**
   * Numbers are read as the engine wrote them and written back the same: a time with a fraction
   * stays a plain decimal ({@code 1767171234.87}), never a double's {@code 1.76717123487E9}.
   */
  static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);

  /** A request the engine refused, or an engine that is not there: said as one sentence. */
  static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;
    final int exitCode;

    Failure(String message, int exitCode) {
      super(message);
      this.exitCode = exitCode;
    }
  }

  private final CliqueHome home;

  private LocalEngine(CliqueHome home) {
    this.home = home;
  }

  /**
   * The engine of the home {@code env} names. A home the engine would refuse is refused here too:
   * its socket could be anyone's.
   *
   * @throws dev.clique.engine.home.HomeRefusedException naming the home, why, and what to do
   */
  static LocalEngine of(Map<String, String> env) throws IOException {
    CliqueHome home = EngineSettings.fromEnvironment(env).home();
    home.requireTrusted();
    return new LocalEngine(home);
  }

  /** The engine's JSON, written back as the engine's policy writes it. */
  static String json(JsonNode node) {
    try {
      return JSON.writeValueAsString(node);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  JsonNode get(String path) throws Failure {
    return exchange("GET", path, null);
  }

  JsonNode post(String path, Object body) throws Failure {
    return exchange("POST", path, body);
  }

  JsonNode delete(String path) throws Failure {
    return exchange("DELETE", path, null);
  }

  private JsonNode exchange(String method, String path, Object body) throws Failure {
    Path socket = home.operatorSocket();
    byte[] content;
    try {
      content = body == null ? new byte[0] : JSON.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    byte[] answer;
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      try {
        channel.connect(UnixDomainSocketAddress.of(socket));
      } catch (IOException e) {
        throw new Failure(
            "no engine is running for "
                + home.dir()
                + ": start one with `clique serve` (the commands reach it over "
                + socket
                + ")",
            ExitCodes.NOT_CONFIGURED);
      }
      String head =
          method
              + " "
              + path
              + " HTTP/1.0\r\nHost: localhost\r\nContent-Type: application/json\r\n"
              + "Content-Length: "
              + content.length
              + "\r\n\r\n";
      write(channel, head.getBytes(StandardCharsets.US_ASCII));
      write(channel, content);
      answer = readToEnd(channel);
    } catch (IOException e) {
      throw new Failure(
          "the engine at " + socket + " did not answer: " + e.getMessage(),
          ExitCodes.NOT_CONFIGURED);
    }
    return parse(answer, method, path);
  }

  private static JsonNode parse(byte[] answer, String method, String path) throws Failure {
    String text = new String(answer, StandardCharsets.UTF_8);
    int end = text.indexOf("\r\n\r\n");
    if (!text.startsWith("HTTP/") || end < 0) {
      throw new Failure("the engine's answer to " + method + " " + path + " was cut short", 1);
    }
    String[] status = text.substring(0, text.indexOf("\r\n")).split(" ", 3);
    int code = Integer.parseInt(status[1]);
    String body = text.substring(end + 4);
    JsonNode json;
    try {
      json = body.isBlank() ? JSON.createObjectNode() : JSON.readTree(body);
    } catch (IOException e) {
      json = JSON.createObjectNode().put("error", body.strip());
    }
    if (code >= 400) {
      String why = json.path("error").asText(body.strip());
      throw new Failure(
          why.isEmpty() ? "the engine answered " + code : why,
          code == 404 ? ExitCodes.NOT_FOUND : ExitCodes.NOT_CONFIGURED);
    }
    return json;
  }

  private static void write(SocketChannel channel, byte[] bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }

  private static byte[] readToEnd(SocketChannel channel) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
    while (channel.read(buffer) >= 0) {
      all.write(buffer.array(), 0, buffer.position());
      buffer.clear();
    }
    return all.toByteArray();
  }
}
