package dev.clique.engine.testing;

import java.io.ByteArrayOutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** A request over an engine's operator socket, as the human commands make it. */
public final class OperatorCall {
  private OperatorCall() {}

  /** One HTTP/1.0 exchange over the socket; the whole answer, status line and headers included. */
  public static String over(Path socket, String method, String path, String body) throws Exception {
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      channel.connect(UnixDomainSocketAddress.of(socket));
      byte[] content = body.getBytes(StandardCharsets.UTF_8);
      String head =
          method
              + " "
              + path
              + " HTTP/1.0\r\nHost: localhost\r\nContent-Length: "
              + content.length
              + "\r\n\r\n";
      channel.write(ByteBuffer.wrap(head.getBytes(StandardCharsets.US_ASCII)));
      channel.write(ByteBuffer.wrap(content));
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      ByteBuffer buffer = ByteBuffer.allocate(8192);
      while (channel.read(buffer) >= 0) {
        all.write(buffer.array(), 0, buffer.position());
        buffer.clear();
      }
      return all.toString(StandardCharsets.UTF_8);
    }
  }
}
