package dev.clique.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A proxy on loopback that refuses everything and keeps the first line of each request: where a CLI
 * tried to go outside (its {@code HTTPS_PROXY} and the like point here).
 */
final class OutsideTrafficTrap implements AutoCloseable {
  private final ServerSocket socket;
  private final List<String> attempts = Collections.synchronizedList(new ArrayList<>());
  private final Thread acceptor;

  OutsideTrafficTrap() throws IOException {
    socket = new ServerSocket(0, 16, InetAddress.getLoopbackAddress());
    acceptor = new Thread(this::accept, "outside-traffic-trap");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  String url() {
    return "http://127.0.0.1:" + socket.getLocalPort();
  }

  List<String> attempts() {
    synchronized (attempts) {
      return List.copyOf(attempts);
    }
  }

  private void accept() {
    while (!socket.isClosed()) {
      try (Socket client = socket.accept()) {
        client.setSoTimeout(2_000);
        attempts.add(firstLine(client.getInputStream()));
        OutputStream out = client.getOutputStream();
        out.write(
            "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
      } catch (IOException e) {
        // closed, or a client that hung up
      }
    }
  }

  private static String firstLine(InputStream in) throws IOException {
    StringBuilder line = new StringBuilder();
    int c;
    while ((c = in.read()) >= 0 && c != '\n' && line.length() < 300) {
      if (c != '\r') {
        line.append((char) c);
      }
    }
    return line.toString();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
