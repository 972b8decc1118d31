package dev.clique.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.home.AtomicFile;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code state.json} survives {@code kill -9} in the middle of a storm of writes: every record a
 * writer acknowledged is there when the file is read again.
 */
class StateFileCrashIT {
  @TempDir Path dir;

  @Test
  void everyAcknowledgedRecordSurvivesAKillNineMidStorm() throws Exception {
    Path file = dir.resolve("state.json");
    List<String> acknowledged = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      acknowledged.addAll(storm(file, "r" + round, 60 + 70 * round));
      Set<String> loaded =
          SessionStore.open(file).all().stream().map(SessionRecord::id).collect(Collectors.toSet());
      assertThat(loaded).as("after kill -9 in round %d", round).containsAll(acknowledged);
    }
    assertThat(acknowledged).hasSizeGreaterThan(150);
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .as("the temporary file a kill left behind is swept at the next open")
          .containsExactlyInAnyOrder(
              "state.json", "state.json.bak", ".state.json.lock", "home-id", ".home-id.lock");
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(
            PosixFilePermissions.toString(Files.getPosixFilePermissions(AtomicFile.backupOf(file))))
        .isEqualTo("rw-------");
  }

  /** Runs a writer in a child JVM, kills it (SIGKILL) after {@code acks} acknowledgements. */
  private static List<String> storm(Path file, String prefix, int acks) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process child =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                StateStorm.class.getName(),
                file.toString(),
                prefix)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    List<String> seen = new ArrayList<>();
    // Only whole lines count: a line cut by the kill was never acknowledged.
    StringBuilder line = new StringBuilder();
    try (InputStreamReader out =
        new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8)) {
      int c;
      while ((c = out.read()) >= 0) {
        if (c != '\n') {
          line.append((char) c);
          continue;
        }
        seen.add(line.toString());
        line.setLength(0);
        if (seen.size() == acks) {
          child.toHandle().destroyForcibly(); // SIGKILL: no shutdown hook, no flush
        }
      }
    }
    child.waitFor();
    assertThat(child.exitValue()).as("killed by SIGKILL").isEqualTo(137);
    return seen;
  }
}
