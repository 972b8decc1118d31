package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.Engine;
import dev.clique.engine.home.CliqueHome;
import dev.clique.engine.hooks.HookReports;
import dev.clique.engine.hooks.PersonalHooks;
import dev.clique.engine.state.SessionState;
import dev.clique.engine.state.StateSource;
import dev.clique.models.AnthropicModelServer;
import dev.clique.models.ChatCompletionsModelServer;
import dev.clique.models.ScriptedModelServer.Step;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real Claude Code and Qwen Code run as a person runs them in a plain terminal (a pty of the
 * test's own, no tmux), with {@code clique hooks install}'s hooks in the settings of a throwaway
 * HOME and the suites' scripted model servers: a real engine on a throwaway home receives their
 * UserPromptSubmit and Stop over the operator socket, decoded, for the CLI's own process.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class RealCliHooksIT {
  private static final Duration START = Duration.ofSeconds(40);
  private static final Duration TURN = Duration.ofSeconds(30);

  /** A pty of 40 rows and 120 columns: stdin to the program, its screen's bytes to stdout. */
  private static final String PTY =
      """
      import fcntl, os, pty, select, struct, sys, termios
      pid, fd = pty.fork()
      if pid == 0:
          os.execvp(sys.argv[1], sys.argv[1:])
      fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
      while True:
          r, _, _ = select.select([fd, 0], [], [])
          if fd in r:
              try:
                  data = os.read(fd, 65536)
              except OSError:
                  break
              if not data:
                  break
              os.write(1, data)
          if 0 in r:
              data = os.read(0, 65536)
              if not data:
                  break
              os.write(fd, data)
      """;

  @Test
  void claudeCodeInAPlainTerminalReportsItsTurnThroughTheInstalledHooks() throws Exception {
    Path dir = Files.createTempDirectory("clique-it-hooks-");
    try (AnthropicModelServer model = new AnthropicModelServer()) {
      Path user = Files.createDirectories(dir.resolve("user"));
      Path project = Files.createDirectories(dir.resolve("project")).toRealPath();
      Files.writeString(
          user.resolve(".claude.json"),
          RealClaudeCodeIT.claudeConfig(RealClaudeCodeIT.Setup.READY, project));
      Files.createDirectories(user.resolve(".claude"));
      oneTurnReported(
          dir,
          "claude",
          List.of("claude", "--permission-mode", "default"),
          RealClaudeCodeIT.claudeEnv(model, user),
          List.of("for shortcuts", "shift+tab"),
          () -> model.then(new Step.Text("The login test lives in LoginTest.java.")));
    } finally {
      quietlyDelete(dir);
    }
  }

  @Test
  void qwenCodeInAPlainTerminalReportsItsTurnThroughTheInstalledHooks() throws Exception {
    Path dir = Files.createTempDirectory("clique-it-hooks-");
    try (ChatCompletionsModelServer model = new ChatCompletionsModelServer()) {
      Path user = Files.createDirectories(dir.resolve("user"));
      Files.createDirectories(dir.resolve("project"));
      // The person's own settings, which the install goes into.
      Map<String, String> env =
          RealQwenCodeIT.personsHome(user, RealQwenCodeIT.settings(false, true), model);
      oneTurnReported(
          dir,
          "qwen",
          List.of("qwen"),
          env,
          List.of("Type your message"),
          () -> model.then(new Step.Text("The login test lives in LoginTest.java.")));
    } finally {
      quietlyDelete(dir);
    }
  }

  /**
   * Installs {@code cli}'s hooks in the settings under {@code dir/user}, starts an engine on a
   * throwaway home and the CLI ({@code argv}, found among the pinned CLIs) in a plain pty in {@code
   * dir/project}, waits for one of {@code ready} on its screen, scripts the model's answer and
   * types a prompt: the engine hears UserPromptSubmit (working) then Stop (idle), both for the
   * CLI's own process.
   */
  private static void oneTurnReported(
      Path dir,
      String cli,
      List<String> argv,
      Map<String, String> cliEnv,
      List<String> ready,
      Runnable scriptAnswer)
      throws Exception {
    Path user = dir.resolve("user");
    Path project = dir.resolve("project").toRealPath();
    Path cliqueHome = dir.resolve("h");
    PersonalHooks hooks = new PersonalHooks(new CliqueHome(cliqueHome), user, Map.of());
    assertThat(hooks.install(hooks.target(cli).orElseThrow())).contains("added to");

    Map<String, String> engineEnv = new HashMap<>();
    engineEnv.put("CLIQUE_HOME", cliqueHome.toString());
    engineEnv.put("CLIQUE_TMUX_SOCKET", "clique-it-" + UUID.randomUUID());
    // Discovery on, to see the CLI listed outside tmux; no person's tmux servers to look at.
    engineEnv.put("CLIQUE_DISCOVER", "on");
    engineEnv.put("TMUX_TMPDIR", Files.createDirectories(dir.resolve("tmux")).toString());
    engineEnv.put("HOME", user.toString());
    engineEnv.put("PATH", System.getenv("PATH"));
    try (Engine engine = Engine.start(engineEnv, "127.0.0.1", 0, true, "it")) {
      List<HookReports.Entry> heard = new CopyOnWriteArrayList<>();
      engine.hookReports().onChange(heard::add);

      Path driver = Files.writeString(dir.resolve("plain_terminal.py"), PTY);
      List<String> command = new ArrayList<>(List.of("python3", driver.toString()));
      command.add(AgentClis.bin().resolve(argv.get(0)).toString());
      command.addAll(argv.subList(1, argv.size()));
      ProcessBuilder builder =
          new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true);
      builder.environment().clear();
      builder.environment().putAll(cliEnv);
      builder.environment().put("TERM", "xterm-256color");
      Process terminal = builder.start();
      Screen screen = new Screen(terminal.getInputStream());
      try (OutputStream keys = terminal.getOutputStream()) {
        await(() -> ready.stream().anyMatch(screen::shows), START, screen);

        scriptAnswer.run();
        keys.write("Where is the login test?".getBytes(StandardCharsets.UTF_8));
        keys.flush();
        Thread.sleep(500);
        keys.write('\r');
        keys.flush();

        await(
            () -> heard.stream().anyMatch(e -> e.report().evidence().equals("Stop")), TURN, screen);
        HookReports.Entry prompt =
            heard.stream()
                .filter(e -> e.report().evidence().equals("UserPromptSubmit"))
                .findFirst()
                .orElseThrow();
        assertThat(prompt.cli()).isEqualTo(cli);
        assertThat(prompt.report().state()).isEqualTo(SessionState.WORKING);
        long pid = prompt.pid();
        String cmdline =
            new String(
                Files.readAllBytes(Path.of("/proc/" + pid + "/cmdline")), StandardCharsets.UTF_8);
        assertThat(cmdline).as("the report is the CLI's own process").contains(argv.get(0));
        assertThat(terminal.descendants().map(ProcessHandle::pid)).contains(pid);
        assertThat(heard).allSatisfy(e -> assertThat(e.pid()).isEqualTo(pid));
        assertThat(engine.hookReports().latest(pid, prompt.startTicks()).orElseThrow().state())
            .isEqualTo(SessionState.IDLE);
        // The session listed outside tmux takes its state from the hook's report.
        await(
            () ->
                engine.sessions().sessions().stream()
                    .anyMatch(
                        view ->
                            view.cli().equals(cli)
                                && view.state().equals("idle")
                                && view.stateSource() != null
                                && view.stateSource().authority().equals(StateSource.HOOK)
                                && view.stateSource().evidence().equals("Stop")),
            Duration.ofSeconds(5),
            screen);
      } finally {
        terminal.descendants().forEach(ProcessHandle::destroy);
        terminal.destroy();
        terminal.waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /** What the program drew, its escape sequences taken out. */
  private static final class Screen {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    Screen(InputStream in) {
      Thread reader =
          new Thread(
              () -> {
                byte[] buffer = new byte[8192];
                try {
                  for (int n; (n = in.read(buffer)) >= 0; ) {
                    synchronized (bytes) {
                      bytes.write(buffer, 0, n);
                    }
                  }
                } catch (IOException e) {
                  // the terminal closed
                }
              },
              "pty-reader");
      reader.setDaemon(true);
      reader.start();
    }

    String text() {
      String raw;
      synchronized (bytes) {
        raw = bytes.toString(StandardCharsets.UTF_8);
      }
      return raw.replaceAll("\u001B\\[[0-9;?]*[ -/]*[@-~]", " ")
          .replaceAll("\u001B\\][^\u0007\u001B]*(\u0007|\u001B\\\\)", "")
          .replaceAll(" +", " ");
    }

    boolean shows(String text) {
      return text().contains(text);
    }
  }

  private static void await(BooleanSupplier condition, Duration limit, Screen screen)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        String text = screen.text();
        throw new AssertionError(
            "not within "
                + limit
                + "; the screen ends: "
                + text.substring(Math.max(0, text.length() - 2000)));
      }
      Thread.sleep(100);
    }
  }

  private static void quietlyDelete(Path dir) throws IOException, InterruptedException {
    new ProcessBuilder("rm", "-rf", dir.toString()).start().waitFor(30, TimeUnit.SECONDS);
  }
}
