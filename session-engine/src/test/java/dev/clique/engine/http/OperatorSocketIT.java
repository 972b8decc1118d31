package dev.clique.engine.http;

import static dev.clique.engine.testing.OperatorCall.over;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.Engine;
import dev.clique.engine.testing.TestEngine;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator socket in the home: whoever reaches it (only the home's owner can) has the
 * operator's rights with no token; a second engine on the same home leaves the first its socket;
 * one left by an engine that died is taken over; an embedded engine has none.
 */
class OperatorSocketIT {
  @TempDir Path dir;

  @Test
  void overTheSocketTheOwnerIsTheOperatorWithNoToken() throws Exception {
    Path home = dir.resolve("home");
    try (TestEngine engine = TestEngine.start(home)) {
      Path socket = home.resolve("engine.sock");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)))
          .as("a set's order is the JVM's: its permissions are compared as rwx text")
          .isEqualTo("rw-------");
      assertThat(over(socket, "GET", "/api/state", "")).startsWith("HTTP/1.1 200");
      String created =
          over(
              socket,
              "POST",
              "/api/sessions",
              "{\"cli\":\"shell\",\"cwd\":\"" + dir + "\",\"name\":\"op\"}");
      assertThat(created).as("the operator may write").startsWith("HTTP/1.1 201");
      assertThat(engine.send("GET", "/api/state", null, null).statusCode())
          .as("over TCP a token is still needed")
          .isEqualTo(401);
    }
  }

  @Test
  void aSecondEngineOnTheHomeLeavesTheFirstItsSocket() throws Exception {
    Path home = dir.resolve("home");
    try (TestEngine first = TestEngine.start(home)) {
      assertThat(first.url()).startsWith("http://127.0.0.1:");
      Path socket = home.resolve("engine.sock");
      try (TestEngine second = TestEngine.start(home)) {
        assertThat(second.send("GET", "/healthz", null, null).statusCode()).isEqualTo(200);
        assertThat(over(socket, "GET", "/healthz", "")).startsWith("HTTP/1.1 200");
      }
      assertThat(over(socket, "GET", "/api/state", ""))
          .as("the second engine's stop did not take the first one's socket away")
          .startsWith("HTTP/1.1 200");
    }
  }

  @Test
  void aSocketLeftByAnEngineThatDiedIsTakenOver() throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    Path socket = home.resolve("engine.sock");
    try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      dead.bind(UnixDomainSocketAddress.of(socket)); // closed without removing its file
    }
    assertThat(socket).exists();
    try (TestEngine engine = TestEngine.start(home)) {
      assertThat(engine.url()).startsWith("http://127.0.0.1:");
      assertThat(over(socket, "GET", "/api/state", "")).startsWith("HTTP/1.1 200");
    }
  }

  @Test
  void anEmbeddedEngineHasNoOperatorSocket() throws Exception {
    Path home = dir.resolve("home");
    try (Engine embedded =
        Engine.start(
            TestEngine.env(home, "clique-test-" + UUID.randomUUID()),
            "127.0.0.1",
            0,
            false,
            TestEngine.VERSION)) {
      assertThat(embedded.url()).startsWith("http://127.0.0.1:");
      assertThat(home.resolve("engine.sock")).doesNotExist();
    }
  }
}
