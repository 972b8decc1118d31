package dev.clique.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * pi's own view of a session file: the installed pi's {@code SessionManager} opens it and builds
 * the context pi would continue from ({@code pi-own-view.mjs}, run by the Node 22 pi needs). What
 * the engine reads from a pi session is held to it.
 */
final class PiOwnView {
  private static final ObjectMapper JSON = new ObjectMapper();

  private PiOwnView() {}

  /** The turns pi's own session manager keeps of {@code session}. */
  static JsonNode of(Path session) throws IOException, InterruptedException {
    Path script = Files.createTempFile("pi-own-view-", ".mjs");
    // A home of its own: whatever pi's modules look up or make there stays out of the person's.
    Path home = Files.createTempDirectory("pi-own-view-home-");
    try (InputStream in = PiOwnView.class.getResourceAsStream("/pi-own-view.mjs")) {
      Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
    }
    Path index =
        AgentClis.bin()
            .getParent()
            .resolve("@earendil-works/pi-coding-agent/dist/index.js")
            .toAbsolutePath();
    try (Spawned node =
        Spawned.start(
            List.of(
                AgentClis.bin().resolve("node").toString(),
                script.toString(),
                index.toUri().toString(),
                session.toAbsolutePath().toString()),
            Map.of(
                "PATH",
                AgentClis.path(),
                "HOME",
                home.toString(),
                "PI_OFFLINE",
                "1",
                "PI_TELEMETRY",
                "0"),
            session.toAbsolutePath().getParent())) {
      int code = node.waitFor(Duration.ofSeconds(60));
      if (code != 0) {
        throw new AssertionError(
            "pi's session manager exited " + code + " on " + session + ": " + node.stderr());
      }
      return JSON.readTree(node.stdout());
    } finally {
      Files.deleteIfExists(script);
      ThrowawayEngine.deleteTree(home);
    }
  }
}
