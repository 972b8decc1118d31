package dev.clique.engine.tmux;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcFsTest {

  private static final Set<String> NAMES = Set.of("HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME");

  @TempDir Path root;

  @Test
  void theStartEnvironmentOfAProcessGivesTheNamesAskedFor() throws IOException {
    Files.createDirectories(root.resolve("42"));
    Files.write(
        root.resolve("42/environ"),
        "HOME=/home/dev\0CLAUDE_CONFIG_DIR=/home/dev/cfg=odd\0SECRET=token\0CODEX_HOME\0\0"
            .getBytes(StandardCharsets.UTF_8));

    Map<String, String> env = new ProcFs(root).environment(42, NAMES);

    // Only what was asked for is kept, a value may hold '=', a name without '=' is no variable.
    assertThat(env)
        .isEqualTo(Map.of("HOME", "/home/dev", "CLAUDE_CONFIG_DIR", "/home/dev/cfg=odd"));
  }

  @Test
  void aProcessThatIsGoneHasNoEnvironment() {
    assertThat(new ProcFs(root).environment(43, NAMES)).isNull();
    assertThat(new ProcFs(root).environment(0, NAMES)).isNull();
  }

  @Test
  void thisVeryProcessCanBeRead() {
    Map<String, String> env =
        ProcFs.system().environment(ProcessHandle.current().pid(), Set.of("PATH"));

    assertThat(env).containsEntry("PATH", System.getenv("PATH"));
  }
}
