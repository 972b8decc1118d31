package dev.clique.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code clique hooks}: install, status and remove over a throwaway HOME, saying what they change.
 */
class HooksCommandTest {
  @TempDir Path dir;
  private StringWriter out = new StringWriter();
  private StringWriter err = new StringWriter();
  private final Map<String, String> env = new HashMap<>();
  private Path settings;

  @BeforeEach
  void throwawayHomes() throws Exception {
    env.put("CLIQUE_HOME", dir.resolve("clique").toString());
    env.put("HOME", dir.resolve("user").toString());
    Files.createDirectories(dir.resolve("user/.claude"));
    settings = dir.resolve("user/.claude/settings.json");
    Environment.use(env);
  }

  @AfterEach
  void realEnvironmentAgain() {
    Environment.use(System.getenv());
  }

  private int run(String... args) {
    out = new StringWriter();
    err = new StringWriter();
    CommandLine command = CliqueCommand.commandLine();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    return command.execute(args);
  }

  @Test
  void installSaysWhatItAddsAndWhereThenRemoveGivesTheFileBack() throws Exception {
    String theirs = "{\n  // mine\n  \"model\": \"opus\",\n}\n";
    Files.writeString(settings, theirs);

    assertThat(run("hooks")).isZero();
    assertThat(out.toString()).contains("Claude Code: not installed in " + settings);

    assertThat(run("hooks", "install")).as(err.toString()).isZero();
    assertThat(out.toString())
        .contains("Claude Code: added to " + settings)
        .contains("UserPromptSubmit")
        .contains(dir.resolve("clique/engine.sock").toString())
        .as("Qwen Code has no folder here: left alone")
        .doesNotContain("Qwen");
    assertThat(Files.readString(settings)).contains("// mine").contains("/api/hooks/claude");

    assertThat(run("hooks", "install", "claude")).isZero();
    assertThat(out.toString()).contains("nothing changed");

    assertThat(run("hooks", "status")).isZero();
    assertThat(out.toString())
        .contains("Claude Code: installed in " + settings)
        .contains("Qwen Code: not installed");

    assertThat(run("hooks", "remove", "claude")).isZero();
    assertThat(out.toString()).contains("back as it was");
    assertThat(Files.readString(settings)).isEqualTo(theirs);
  }

  @Test
  void aFileItCannotReadIsNamedAndTheExitCodeSaysSo() throws Exception {
    Files.writeString(settings, "{\"model\": ");
    assertThat(run("hooks", "install", "claude")).isEqualTo(ExitCodes.NOT_CONFIGURED);
    assertThat(err.toString()).contains(settings.toString()).contains("left as it is");
    assertThat(Files.readString(settings)).isEqualTo("{\"model\": ");
  }

  @Test
  void aCliWithoutHooksIsAUsageError() {
    assertThat(run("hooks", "install", "aider")).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("no hooks for aider").contains("claude, qwen");
  }
}
