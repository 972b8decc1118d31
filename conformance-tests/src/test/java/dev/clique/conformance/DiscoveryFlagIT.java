package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
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
    try (PersonsTmux own = PersonsTmux.start("mine", "bash", "--norc", "--noprofile")) {
      Map<String, String> discover = own.discoverShells();
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
    }
  }
}
