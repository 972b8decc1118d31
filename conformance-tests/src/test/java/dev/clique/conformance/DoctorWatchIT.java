package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code clique doctor} says how the running engine watches its tmux server: by events when its
 * control client joined, by polling when it could not, naming tmux's own words; the engine's log
 * says the fall back to polling once, not on every look.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class DoctorWatchIT {
  @Test
  void doctorSaysTheOwnServerIsWatchedByEvents() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      String admin = engine.mintToken("doctor-admin", false);
      engine.createShell(admin, "watched");

      String said = awaitDoctorLine(engine, "by events");

      assertThat(said)
          .contains(
              "\nwatch:  how the engine learns what each tmux server did\n  "
                  + engine.socket
                  + ": by events (control client and /proc activity stamp)\n");
    }
  }

  @Test
  void doctorAndTheLogSayWhyAServerWithoutControlModeIsPolled() throws Exception {
    Path bin = Files.createTempDirectory("clique-it-bin-");
    try {
      Path tmux = bin.resolve("tmux");
      Files.writeString(
          tmux,
          "#!/bin/sh\n"
              + "for word in \"$@\"; do\n"
              + "  [ \"$word\" = -C ] && { echo 'unknown option -- C' >&2; exit 1; }\n"
              + "done\n"
              + "exec "
              + realTmux()
              + " \"$@\"\n");
      assertThat(tmux.toFile().setExecutable(true)).isTrue();
      try (ThrowawayEngine engine =
          ThrowawayEngine.prepare()
              .withEnv(Map.of("PATH", bin + ":" + System.getenv("PATH")))
              .start()) {
        String admin = engine.mintToken("doctor-admin", false);
        engine.createShell(admin, "polled");

        String said = awaitDoctorLine(engine, "by polling");
        assertThat(said)
            .contains(
                "\n  "
                    + engine.socket
                    + ": by polling (the control client could not attach: tmux control client:"
                    + " unknown option -- C)\n");

        Thread.sleep(2_000); // many looks of the watcher, each listing the panes
        Matcher logged =
            Pattern.compile("tmux server " + Pattern.quote(engine.socket) + ": watched by polling")
                .matcher(engine.serveStderr());
        int times = 0;
        while (logged.find()) {
          times++;
        }
        assertThat(times).as("the fall back, in the log: " + engine.serveStderr()).isEqualTo(1);
        assertThat(engine.serveStderr()).contains("unknown option -- C");
      }
    } finally {
      ThrowawayEngine.deleteTree(bin);
    }
  }

  /** The doctor's output once it has the line (the watcher may not have looked yet). */
  private static String awaitDoctorLine(ThrowawayEngine engine, String wanted) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    String said;
    do {
      said = doctor(engine);
      if (said.contains(wanted)) {
        return said;
      }
      Thread.sleep(200);
    } while (System.nanoTime() < deadline);
    return said;
  }

  private static String doctor(ThrowawayEngine engine) throws Exception {
    try (Spawned doctor =
        Spawned.start(Launcher.jarCommand("doctor"), engine.env(), engine.workdir)) {
      doctor.closeStdin();
      assertThat(doctor.waitFor(Duration.ofSeconds(30))).as(doctor.stderr()).isZero();
      return doctor.stdout();
    }
  }

  /** The tmux the suite runs, by its full path: the stand-in runs it for all but control mode. */
  private static String realTmux() {
    for (String dir : System.getenv("PATH").split(":")) {
      Path candidate = Path.of(dir, "tmux");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    throw new AssertionError("tmux must be installed to run this suite");
  }
}
