package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/clique}'s build on first use, in a clone without its jar: a line on stderr for each
 * module Maven builds, no colour codes anywhere, Maven's whole output in a log, its errors shown
 * when it fails, and stdout left to the command. Maven is a stand-in that talks as Maven 3.8 does
 * (escape codes included, even in batch mode) and lays down the real jar; the launcher is the real
 * one.
 */
@org.junit.jupiter.api.extension.ExtendWith(LeavesRealThingsUntouched.class)
class LauncherBuildIT {
  @TempDir Path dir;
  private Path clone;
  private Path mavenArgs;
  private Map<String, String> env;

  @BeforeEach
  void aCloneWithoutItsJar() throws Exception {
    clone = Files.createDirectories(dir.resolve("clone"));
    Files.createDirectories(clone.resolve("bin"));
    Path launcher = Files.copy(Launcher.script(), clone.resolve("bin/clique"));
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(clone.resolve("pom.xml"), "<project/>\n");
    mavenArgs = dir.resolve("maven-args");
    env =
        Map.of(
            "PATH", Files.createDirectories(dir.resolve("fake-bin")) + ":/usr/bin:/bin",
            "JAVA_HOME", System.getProperty("java.home"),
            "HOME", dir.toString(),
            "CLIQUE_HOME", dir.resolve("home").toString(),
            "TMPDIR", dir.toString());
  }

  private void maven(String script) throws Exception {
    Path mvn =
        Files.writeString(
            dir.resolve("fake-bin/mvn"),
            "#!/bin/sh\necho \"$@\" > '" + mavenArgs + "'\n" + script,
            java.nio.charset.StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @Test
  void theFirstBuildSaysEachModuleWithoutColourCodesAndStdoutIsTheCommandsAlone() throws Exception {
    maven(
        "printf '\\033[1m[INFO] Scanning for projects...\\033[m\\n'\n"
            + "printf '[INFO] Building clique client 0.1.0-SNAPSHOT                    [1/2]\\n'\n"
            + "printf '[\\033[1;34mINFO\\033[m] Compiling 40 source files\\n'\n"
            + "printf '[INFO] Building clique command line 0.1.0-SNAPSHOT              [2/2]\\n'\n"
            + "mkdir -p cli/target && cp '"
            + Launcher.jar()
            + "' cli/target/clique.jar\n"
            + "printf '\\033[0m\\033[0m'\n");

    try (Spawned clique =
        Spawned.start(List.of(clone.resolve("bin/clique").toString(), "--version"), env, dir)) {
      clique.closeStdin();
      assertThat(clique.waitFor(Duration.ofSeconds(60))).as(clique.stderr()).isZero();
      assertThat(clique.stdout()).startsWith("clique ").doesNotContain("\u001b").hasLineCount(1);
      assertThat(clique.stderr().lines().toList())
          .as("a line a step, and no escape codes")
          .containsExactly(
              "clique: building "
                  + clone.resolve("cli/target/clique.jar")
                  + " with Maven (first use, or the sources changed): a minute or two; its"
                  + " output goes to "
                  + clone.resolve("cli/target/build.log"),
              "clique: building clique client (1 of 2)",
              "clique: building clique command line (2 of 2)",
              "clique: built " + clone.resolve("cli/target/clique.jar"));
    }
    assertThat(Files.readString(mavenArgs))
        .contains("-B ")
        .contains("--no-transfer-progress")
        .contains("-Dstyle.color=never");
    assertThat(Files.readString(clone.resolve("cli/target/build.log")))
        .contains("[INFO] Compiling 40 source files")
        .doesNotContain("\u001b");
  }

  @Test
  void aFailedBuildShowsMavensErrorsWithoutColourCodesAndExitsOne() throws Exception {
    maven(
        "printf '[INFO] Building clique client 0.1.0-SNAPSHOT                    [1/2]\\n'\n"
            + "printf '[\\033[1;31mERROR\\033[m] Foo.java:[3,1] class, interface, or enum expected\\n'\n"
            + "exit 1\n");

    try (Spawned clique =
        Spawned.start(List.of(clone.resolve("bin/clique").toString(), "--version"), env, dir)) {
      clique.closeStdin();
      assertThat(clique.waitFor(Duration.ofSeconds(60))).isEqualTo(1);
      assertThat(clique.stdout()).isEmpty();
      assertThat(clique.stderr())
          .contains("clique: building clique client (1 of 2)\n")
          .contains("clique: the build failed; what Maven said (all of it in ")
          .contains("[ERROR] Foo.java:[3,1] class, interface, or enum expected\n")
          .doesNotContain("\u001b");
    }
  }
}
