package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code bin/clique} as a user runs it: from any directory, through a symlink, passing exit codes
 * through, rebuilding a stale jar, and never printing anything on stdout itself.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class LauncherIT {
  private static Spawned run(ThrowawayEngine home, Path launcher, String... args) throws Exception {
    List<String> command = new java.util.ArrayList<>();
    command.add(launcher.toString());
    command.addAll(List.of(args));
    Spawned process = Spawned.start(command, home.env(), home.workdir);
    process.closeStdin();
    assertThat(process.waitFor(Duration.ofSeconds(300))).as(process.stderr()).isNotEqualTo(-1);
    return process;
  }

  @Test
  void throughASymlinkFromAnotherDirectoryExitCodesPassThrough() throws Exception {
    try (ThrowawayEngine home = ThrowawayEngine.prepare()) {
      Path link = home.workdir.resolve("clique");
      Files.createSymbolicLink(link, Launcher.script());
      try (Spawned version = run(home, link, "--version")) {
        assertThat(version.waitFor(Duration.ofSeconds(1))).isZero();
        assertThat(version.stdout())
            .matches("clique \\S+ \\(commit [0-9a-f]{12}(, modified)?\\)\\n");
      }
      try (Spawned noToken = run(home, link, "mcp")) {
        assertThat(noToken.waitFor(Duration.ofSeconds(1))).isEqualTo(1);
        assertThat(noToken.stdout()).isEmpty();
      }
      try (Spawned unknown = run(home, link, "token", "revoke", "tk_00000000")) {
        assertThat(unknown.waitFor(Duration.ofSeconds(1))).isEqualTo(3);
        assertThat(unknown.stderr()).contains("no token with id tk_00000000");
      }
      try (Spawned usage = run(home, link, "--no-such-option")) {
        assertThat(usage.waitFor(Duration.ofSeconds(1))).isEqualTo(2);
        assertThat(usage.stdout()).isEmpty();
      }
    }
  }

  @Test
  void aSourceNewerThanTheJarIsRebuiltWithNothingOnStdout() throws Exception {
    Path source =
        Path.of("..", "cli", "src", "main", "java", "dev", "clique", "cli", "ExitCodes.java");
    Path jar = Launcher.jar();
    FileTime built = Files.getLastModifiedTime(jar);
    Files.setLastModifiedTime(source, FileTime.from(Instant.now().plusSeconds(2)));
    try (ThrowawayEngine home = ThrowawayEngine.prepare();
        Spawned version = run(home, Launcher.script(), "--version")) {
      assertThat(version.waitFor(Duration.ofSeconds(1))).as(version.stderr()).isZero();
      assertThat(version.stdout()).matches("clique \\S+ \\(commit [0-9a-f]{12}(, modified)?\\)\\n");
      assertThat(version.stderr()).contains("building");
      assertThat(Files.getLastModifiedTime(jar)).isGreaterThan(built);
    } finally {
      Files.setLastModifiedTime(source, built);
    }
  }
}
