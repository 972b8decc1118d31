package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code clique serve} lists a shell a person runs in their own tmux (a throwaway {@code
 * TMUX_TMPDIR}, shells asked for), and {@code clique serve --no-discover} lists nothing of it.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class DiscoveryFlagIT {
  @Test
  void serveFindsThePersonsShellAndNoDiscoverFindsNone() throws Exception {
    Path tmpdir = Files.createTempDirectory("clique-it-tmux-");
    Path socketDir =
        Files.createDirectories(
            tmpdir.resolve("tmux-" + Files.getAttribute(Path.of("/proc/self/"), "unix:uid")));
    Files.setPosixFilePermissions(socketDir, PosixFilePermissions.fromString("rwx------"));
    Path socket = socketDir.resolve("default");
    Map<String, String> discover =
        Map.of(
            "CLIQUE_DISCOVER", "on",
            "CLIQUE_DISCOVER_SHELLS", "on",
            "TMUX_TMPDIR", tmpdir.toString());
    try {
      Process started =
          new ProcessBuilder(
                  "tmux",
                  "-S",
                  socket.toString(),
                  "-f",
                  "/dev/null",
                  "new-session",
                  "-d",
                  "-s",
                  "mine",
                  "bash",
                  "--norc",
                  "--noprofile")
              .start();
      assertThat(started.waitFor(10, TimeUnit.SECONDS) && started.exitValue() == 0).isTrue();

      try (ThrowawayEngine on = ThrowawayEngine.prepare().withEnv(discover).start()) {
        String token = on.mintToken("on", true);
        JsonNode sessions = null;
        for (int i = 0; i < 50; i++) {
          sessions = ThrowawayEngine.json(on.get("/api/state", token).body()).path("sessions");
          if (sessions.size() > 0) {
            break;
          }
          Thread.sleep(100);
        }
        assertThat(sessions).hasSize(1);
        assertThat(sessions.get(0).path("cli").asText()).isEqualTo("shell");
        assertThat(sessions.get(0).path("source").path("session").asText()).isEqualTo("mine");
      }
      try (ThrowawayEngine off =
          ThrowawayEngine.prepare().withEnv(discover).withServeFlags("--no-discover").start()) {
        String token = off.mintToken("off", true);
        Thread.sleep(2_000);
        assertThat(ThrowawayEngine.json(off.get("/api/state", token).body()).path("sessions"))
            .isEmpty();
        assertThat(off.serveStderr()).contains("discovery is off");
      }
    } finally {
      new ProcessBuilder("tmux", "-S", socket.toString(), "kill-server")
          .start()
          .waitFor(10, TimeUnit.SECONDS);
      ThrowawayEngine.deleteTree(tmpdir);
    }
  }
}
