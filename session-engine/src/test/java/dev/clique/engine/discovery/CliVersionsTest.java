package dev.clique.engine.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.catalogue.CliCatalogue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliVersionsTest {
  @TempDir Path dir;
  private Process pane;

  @AfterEach
  void stopThePane() throws InterruptedException {
    if (pane != null) {
      pane.destroyForcibly();
      pane.waitFor(5, TimeUnit.SECONDS);
    }
  }

  @Test
  void aPathInsideAPackageHasThatPackagesVersion() throws IOException {
    Path pkg = packageAt("node_modules/@openai/codex", "0.169.0");
    Path platform = packageAt("node_modules/@openai/codex-linux-x64", "0.169.0-linux-x64");

    assertThat(CliVersions.packageVersion(pkg + "/bin/codex.js", List.of("@openai/codex")))
        .contains("0.169.0");
    // A platform package's own version carries the platform: the CLI's version is without it.
    assertThat(
            CliVersions.packageVersion(
                platform + "/vendor/x86_64-unknown-linux-musl/codex/codex",
                List.of("@openai/codex")))
        .contains("0.169.0");
    assertThat(CliVersions.packageVersion(pkg + "/bin/codex.js", List.of("@openai/codex-cli")))
        .isEmpty();
    assertThat(CliVersions.packageVersion("/usr/bin/node", List.of("@openai/codex"))).isEmpty();
  }

  @Test
  void aPackageWithoutAReadableVersionHasNone() throws IOException {
    Path pkg = Files.createDirectories(dir.resolve("node_modules/broken"));
    Files.writeString(pkg.resolve("package.json"), "{\"version\": ");
    assertThat(CliVersions.packageVersion(pkg + "/cli.js", List.of("broken"))).isEmpty();
    Files.writeString(pkg.resolve("package.json"), "{\"version\": 3}");
    assertThat(CliVersions.packageVersion(pkg + "/cli.js", List.of("broken"))).isEmpty();
  }

  @Test
  void theFirstVersionAProgramPrintsIsItsVersion() {
    assertThat(CliVersions.versionIn("2.1.328 (Claude Code)\n")).contains("2.1.328");
    assertThat(CliVersions.versionIn("GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)"))
        .contains("5.2.15");
    assertThat(CliVersions.versionIn("GitHub Copilot CLI 1.0.102.\nRun 'copilot update'"))
        .contains("1.0.102");
    assertThat(CliVersions.versionIn("codex-cli 0.171.0-alpha.2")).contains("0.171.0-alpha.2");
    assertThat(CliVersions.versionIn("usage: agent [options]")).isEmpty();
  }

  @Test
  void aProgramThatNeverAnswersHasNoVersionOnceItsTimeIsUp() throws IOException {
    Path silent = executable("silent", "#!/bin/sh\nsleep 30\n");
    long started = System.nanoTime();
    assertThat(CliVersions.asked(silent)).isEmpty();
    assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)).isLessThan(10);
  }

  @Test
  void theVersionOfTheCliRunningInAPaneIsReadFromItsPackageAndRemembered() throws Exception {
    Path pkg = packageAt("node_modules/@acme/agent", "3.4.5");
    Path script =
        executable(
            "node_modules/@acme/agent/cli.py",
            "#!/usr/bin/env python3\nimport time\ntime.sleep(30)\n");
    CliCatalogue catalogue =
        catalogue("[cli.agent]\ncommand = \"agent\"\npackages = [\"@acme/agent\"]\n");
    // The pane runs a shell that runs the CLI: the CLI is found in the pane's tree.
    pane = new ProcessBuilder("/bin/sh", "-c", script + "; true").start();
    CliVersions versions = CliVersions.system(catalogue);

    assertThat(eventually(() -> versions.running("agent", pane.pid()))).contains("3.4.5");
    Files.writeString(pkg.resolve("package.json"), "{\"version\": \"9.9.9\"}");
    assertThat(versions.running("agent", pane.pid()))
        .as("one process runs one version: read once")
        .contains("3.4.5");
    assertThat(versions.running("nosuchcli", pane.pid())).isEmpty();
    assertThat(versions.running("agent", -1)).isEmpty();
  }

  @Test
  void aScriptRunByItsLinkHasItsPackagesVersionAndTheInterpreterIsNeverAsked() throws Exception {
    packageAt("node_modules/@acme/agent", "3.4.5");
    Path script =
        executable(
            "node_modules/@acme/agent/cli.py",
            "#!/usr/bin/env python3\nimport time\ntime.sleep(30)\n");
    Path bin = Files.createDirectories(dir.resolve("node_modules/.bin"));
    Files.createSymbolicLink(bin.resolve("agent"), script);
    CliCatalogue catalogue =
        catalogue("[cli.agent]\ncommand = \"agent\"\npackages = [\"@acme/agent\"]\n");
    pane = new ProcessBuilder("python3", bin.resolve("agent").toString()).start();

    assertThat(eventually(() -> CliVersions.system(catalogue).running("agent", pane.pid())))
        .contains("3.4.5");

    // Not in its package: python3 runs it, and python3's own version is not the CLI's.
    Path loose = executable("agent", "#!/usr/bin/env python3\nimport time\ntime.sleep(30)\n");
    Process other = new ProcessBuilder("python3", loose.toString()).start();
    try {
      Thread.sleep(300);
      assertThat(CliVersions.system(catalogue).running("agent", other.pid())).isEmpty();
    } finally {
      other.destroyForcibly();
    }
  }

  @Test
  void aCliThatRenamedItselfHasTheVersionItsOwnPathFinds() throws Exception {
    packageAt("node_modules/@acme/agent", "3.4.5");
    Path script =
        executable(
            "node_modules/@acme/agent/cli.js",
            "#!/usr/bin/env node\nsetTimeout(() => {}, 30000)\n");
    Path bin = Files.createDirectories(dir.resolve("node_modules/.bin"));
    Files.createSymbolicLink(bin.resolve("agent"), script);
    // The engine's own PATH has no agent: only the process's PATH leads to its package.
    CliCatalogue catalogue =
        catalogue("[cli.agent]\ncommand = \"agent\"\npackages = [\"@acme/agent\"]\n");
    assertThat(catalogue.resolve(catalogue.find("agent").orElseThrow())).isEmpty();
    // As pi leaves its process: named after its command, its arguments hidden.
    ProcessBuilder renamed = new ProcessBuilder("bash", "-c", "exec -a agent sleep 30");
    renamed.environment().put("PATH", bin + ":/usr/bin:/bin");
    pane = renamed.start();

    assertThat(eventually(() -> CliVersions.system(catalogue).running("agent", pane.pid())))
        .contains("3.4.5");
  }

  @Test
  void aShellsVersionIsWhatItSaysWhenAsked() throws Exception {
    CliCatalogue catalogue = catalogue("");
    pane = new ProcessBuilder("bash", "-c", "sleep 30; true").start();
    Optional<String> said = CliVersions.asked(Path.of("/bin/bash"));
    assertThat(said).isPresent();
    assertThat(eventually(() -> CliVersions.system(catalogue).running("shell", pane.pid())))
        .isEqualTo(said);
  }

  private CliCatalogue catalogue(String toml) throws IOException {
    Path override = Files.writeString(dir.resolve("clis.toml"), toml);
    return CliCatalogue.load(override, "/usr/bin:/bin", dir);
  }

  private Path packageAt(String where, String version) throws IOException {
    Path pkg = Files.createDirectories(dir.resolve(where));
    Files.writeString(pkg.resolve("package.json"), "{\"version\": \"" + version + "\"}");
    return pkg;
  }

  private Path executable(String where, String text) throws IOException {
    Path file = dir.resolve(where);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }

  /** A process just started may not have run its program yet: asked again for a moment. */
  private static Optional<String> eventually(java.util.function.Supplier<Optional<String>> ask)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    Optional<String> answer = ask.get();
    while (answer.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
      answer = ask.get();
    }
    return answer;
  }
}
