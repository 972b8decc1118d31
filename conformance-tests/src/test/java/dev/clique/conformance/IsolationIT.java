package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The seed's isolation wall, asked of the built command itself: the engine's own socket by default,
 * {@code CLIQUE_TMUX_SOCKET} to get another, and a test home that never sees the real state file.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class IsolationIT {
  private static String doctor(Map<String, String> env, Path cwd) throws Exception {
    try (Spawned doctor = Spawned.start(Launcher.jarCommand("doctor"), env, cwd)) {
      doctor.closeStdin();
      assertThat(doctor.waitFor(Duration.ofSeconds(30))).as(doctor.stderr()).isZero();
      return doctor.stdout();
    }
  }

  @Test
  void theEngineDefaultsToItsOwnSocketAndTheEnvironmentChoosesAnother() throws Exception {
    try (ThrowawayEngine home = ThrowawayEngine.prepare()) {
      Map<String, String> env = home.env();
      env.remove("CLIQUE_TMUX_SOCKET");
      assertThat(doctor(env, home.workdir)).contains("socket: clique\n");
      env.put("CLIQUE_TMUX_SOCKET", "clique-env-check");
      assertThat(doctor(env, home.workdir)).contains("socket: clique-env-check\n");
    }
  }

  @Test
  void aTestHomeDoesNotInheritTheLiveStateFile() throws Exception {
    try (ThrowawayEngine home = ThrowawayEngine.prepare()) {
      String said = doctor(home.env(), home.workdir);
      assertThat(said).contains("state:  " + home.home.resolve("state.json") + "\n");
      assertThat(said)
          .doesNotContain(Path.of(System.getProperty("user.home"), ".clique").toString() + "/");
    }
  }
}
