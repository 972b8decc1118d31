package dev.clique.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Against a real git repository in a temp directory. */
class GitStatusIT {
  @TempDir Path dir;

  private void git(String... args) throws Exception {
    List<String> command = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    process.getInputStream().readAllBytes();
    assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(String.join(" ", args)).isZero();
  }

  @Test
  void aWorkTreeGivesItsBranchAndItsChangedPathsFromASubfolderToo() throws Exception {
    git("init", "-q", "-b", "trunk");
    Files.writeString(dir.resolve("a.txt"), "a");
    git("add", "a.txt");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "a");
    Files.writeString(dir.resolve("a.txt"), "changed");
    Files.writeString(dir.resolve("b.txt"), "new");
    Path sub = Files.createDirectories(dir.resolve("sub"));
    assertThat(GitStatus.of(sub, Duration.ofSeconds(10))).isEqualTo(new GitStatus("trunk", 2));
  }
}
