package dev.clique.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code clique mcp} typed in a terminal says on stderr what it is and how to use it; started by an
 * MCP client (stdin a pipe) it says nothing of the kind, and stdout carries only the protocol in
 * either case. The terminal is a real one: {@code script} runs the command on a pseudo-terminal.
 */
class McpInATerminalTest {
  private static final String NOTE = "speaks the Model Context Protocol on stdin and stdout";

  @TempDir Path dir;

  @Test
  void typedInATerminalItSaysOnStderrWhatItIsHowToAddItAndHowToQuit() throws Exception {
    Path stderr = dir.resolve("stderr");
    String command = String.join(" ", mcp().stream().map(McpInATerminalTest::quoted).toList());
    ProcessBuilder builder =
        new ProcessBuilder(
            "script", "-q", "-e", "-c", command + " 2>" + quoted(stderr.toString()), "/dev/null");
    builder.environment().putAll(environment());
    builder.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process script = builder.start();
    try {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!(Files.exists(stderr) && Files.readString(stderr).contains("Ctrl-C quits"))) {
        assertThat(script.isAlive()).as("clique mcp still runs").isTrue();
        assertThat(System.nanoTime()).as("the note on stderr").isLessThan(deadline);
        Thread.sleep(100);
      }
      OutputStream keyboard = script.getOutputStream();
      keyboard.write(4); // Ctrl-D: the end of stdin, as a client closing it
      keyboard.flush();
      assertThat(script.waitFor(30, TimeUnit.SECONDS)).as("it ends with its stdin").isTrue();
      assertThat(script.exitValue()).isZero();
      assertThat(new String(script.getInputStream().readAllBytes()))
          .as("stdout, the protocol's, has nothing of it")
          .isBlank();
      assertThat(Files.readString(stderr))
          .contains(NOTE)
          .contains("meant to be started by an MCP client")
          .contains("claude mcp add clique -- ")
          .contains("Ctrl-C quits");
    } finally {
      script.destroyForcibly();
    }
  }

  @Test
  void startedWithAPipeForStdinItSaysNothingOfIt() throws Exception {
    ProcessBuilder builder = new ProcessBuilder(mcp());
    builder.environment().putAll(environment());
    Process mcp = builder.start();
    try {
      mcp.getOutputStream().close();
      assertThat(mcp.waitFor(30, TimeUnit.SECONDS)).as("it ends with its stdin").isTrue();
      assertThat(mcp.exitValue()).isZero();
      assertThat(new String(mcp.getInputStream().readAllBytes())).isEmpty();
      assertThat(new String(mcp.getErrorStream().readAllBytes())).doesNotContain(NOTE);
    } finally {
      mcp.destroyForcibly();
    }
  }

  /** {@code clique mcp} on this build's classes, against an engine that is never reached. */
  private static List<String> mcp() {
    return List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp",
        System.getProperty("java.class.path"),
        CliqueCommand.class.getName(),
        "mcp");
  }

  private Map<String, String> environment() {
    return Map.of(
        "CLIQUE_HOME", dir.resolve("home").toString(),
        "CLIQUE_TOKEN", "mxp_AAAApQ9rT7vW2xY5aB8cD1eF4gH6iJ0kL3mN5oP7qR9s",
        "CLIQUE_URL", "http://127.0.0.1:9");
  }

  private static String quoted(String word) {
    return "'" + word.replace("'", "'\\''") + "'";
  }
}
