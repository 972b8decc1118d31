package dev.clique.bench;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One keep-alive HTTP/1.1 connection with as little client overhead as possible: the request bytes
 * are built once, an answer is read by its Content-Length. Also a wait held open: send now, read
 * later.
 */
final class RawHttp implements Closeable {
  private final Socket socket;
  private final InputStream in;
  private final OutputStream out;

  RawHttp(String host, int port) throws IOException {
    socket = new Socket(host, port);
    socket.setTcpNoDelay(true);
    in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
    out = socket.getOutputStream();
  }

  static byte[] get(String path, String token) {
    return ("GET "
            + path
            + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
            + token
            + "\r\n\r\n")
        .getBytes(StandardCharsets.US_ASCII);
  }

  void send(byte[] request) throws IOException {
    out.write(request);
    out.flush();
  }

  /** Reads one answer, which must be a 200; returns its body. */
  String read() throws IOException {
    int status = -1;
    int length = 0;
    StringBuilder line = new StringBuilder();
    while (true) {
      int c = in.read();
      if (c < 0) {
        throw new EOFException("connection closed");
      }
      if (c == '\r') {
        continue;
      }
      if (c != '\n') {
        line.append((char) c);
        continue;
      }
      if (line.length() == 0) {
        break;
      }
      String header = line.toString();
      if (status < 0) {
        status = Integer.parseInt(header.split(" ")[1]);
      } else if (header.regionMatches(true, 0, "content-length:", 0, 15)) {
        length = Integer.parseInt(header.substring(15).strip());
      }
      line.setLength(0);
    }
    byte[] body = in.readNBytes(length);
    if (status != 200) {
      throw new IOException("HTTP " + status + ": " + new String(body, StandardCharsets.UTF_8));
    }
    return new String(body, StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
