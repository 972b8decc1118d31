package dev.clique.engine.session;

import static dev.clique.engine.testing.EngineSandbox.await;
import static dev.clique.engine.testing.EngineSandbox.pane;
import static dev.clique.engine.testing.EngineSandbox.view;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.testing.EngineSandbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One test per state, on real tmux (a throwaway socket) with real programs: the fixtures of {@code
 * src/test/resources/fixtures} and a plain bash.
 */
class SessionStatesIT {
  @TempDir Path dir;
  private EngineSandbox sandbox;
  private SessionService service;

  @BeforeEach
  void sandbox() throws Exception {
    sandbox = new EngineSandbox(dir);
    service = sandbox.service();
  }

  @AfterEach
  void cleanUp() {
    sandbox.close();
  }

  private String shell() throws Exception {
    String id = sandbox.create(service, "shell").id();
    await(service, id, Duration.ofSeconds(10), "idle");
    return id;
  }

  @Test
  void aSessionSaysTheVersionOfTheProgramInItsPaneAndNoneOnceItStopped() throws Exception {
    String id = shell();
    Process asked = new ProcessBuilder("bash", "--version").redirectErrorStream(true).start();
    String said = new String(asked.getInputStream().readAllBytes());
    assertThat(asked.waitFor()).isZero();
    String version = said.replaceAll("(?s)^.*?version (\\d+\\.\\d+\\.\\d+).*$", "$1");

    service.gatherFactsNow();
    assertThat(view(service, id).cliVersion()).as(said).isEqualTo(version);

    sandbox.tmux().outside("kill-session", "-t", "=" + id);
    await(service, id, Duration.ofSeconds(10), "stopped");
    assertThat(view(service, id).cliVersion()).isNull();
  }

  @Test
  void aSilentSleepIsWorkingWhileItRunsAndIdleOnlyAfterItPrintsDone() throws Exception {
    String id = shell();
    service.send(id, "sleep 3; echo done-$((6*7))", true, null);
    CompletableFuture<WaitOutcome> idle =
        service.await(id, java.util.Set.of("idle"), Duration.ofSeconds(20).toMillis());
    List<String> seen = new ArrayList<>();
    long start = System.nanoTime();
    while (System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(2_500)) {
      seen.add(view(service, id).state());
      Thread.sleep(100);
    }
    assertThat(seen).as("states while sleep runs").containsOnly("working");
    assertThat(view(service, id).busy()).isTrue();

    WaitOutcome outcome = idle.get(20, TimeUnit.SECONDS);
    assertThat(outcome.matched()).isTrue();
    assertThat(service.peek(id, 5).lines())
        .as("idle is never reported before the command printed its last line")
        .anySatisfy(line -> assertThat(line).isEqualTo("done-42"));
    assertThat(outcome.waited()).isBetween(2.5, 6.0);
  }

  @Test
  void aYesNoPromptIsWaitingAndSaysTheQuestion() throws Exception {
    String id = sandbox.create(service, "prompter").id();
    await(service, id, Duration.ofSeconds(10), "waiting");
    SessionView view = view(service, id);
    assertThat(view.saying()).isEqualTo("Overwrite existing files (y/n)?");
    assertThat(view.busy()).isFalse();
    assertThat(view.signal()).isEmpty();

    service.send(id, "y", true, null);
    assertThat(view(service, id).state()).isEqualTo("working");
    await(service, id, Duration.ofSeconds(10), "idle");
    assertThat(view(service, id).saying()).isEmpty();
  }

  @Test
  void aPythonTracebackIsAnErrorThatSaysTheException() throws Exception {
    String id = shell();
    service.send(id, "python3 " + EngineSandbox.fixture("crash.py"), true, null);
    await(service, id, Duration.ofSeconds(15), "error");
    assertThat(view(service, id).saying()).isEqualTo("ZeroDivisionError: division by zero");
  }

  @Test
  void aCommandThatIsNotThereIsAnError() throws Exception {
    String id = shell();
    service.send(id, "definitely-not-a-command-9x", true, null);
    await(service, id, Duration.ofSeconds(10), "error");
    assertThat(view(service, id).saying())
        .endsWith("definitely-not-a-command-9x: command not found");
  }

  @Test
  void aSessionKilledFromOutsideIsStoppedAndKeepsItsRecord() throws Exception {
    String id = shell();
    CompletableFuture<WaitOutcome> stopped =
        service.await(id, java.util.Set.of("stopped"), Duration.ofSeconds(10).toMillis());
    sandbox.tmux().outside("kill-session", "-t", "=" + id);
    WaitOutcome outcome = stopped.get(10, TimeUnit.SECONDS);
    assertThat(outcome.matched()).isTrue();
    assertThat(outcome.waited()).isLessThan(2.0);
    SessionView view = view(service, id);
    assertThat(view.alive()).isFalse();
    assertThat(view.state()).isEqualTo("stopped");
    assertThat(service.record(id)).isPresent();

    service.restart(id);
    await(service, id, Duration.ofSeconds(10), "idle");
    assertThat(view(service, id).id()).isEqualTo(id);
  }

  @Test
  void aKillEndsTheSessionsProcessesAlsoTheOnesThatLeftItsTreeAndNothingElse() throws Exception {
    // The first session: the tmux server started for it keeps its environment, marker and all.
    String id = shell();
    String other = shell();
    Path pidFile = dir.resolve("escaped.pid");
    // A job that forks twice and leaves the terminal's session: its parent is init now, not the
    // pane's shell, and tmux's hangup never reaches it. It ignores SIGHUP besides.
    service.send(
        id,
        "(setsid bash -c 'trap \"\" HUP; echo $$ > "
            + pidFile
            + "; exec sleep 600' &); echo started",
        true,
        null);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!(Files.exists(pidFile) && Files.size(pidFile) > 0) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    long pid = Long.parseLong(Files.readString(pidFile).strip());
    ProcessHandle escaped = ProcessHandle.of(pid).orElseThrow();
    long panePid =
        service.tmux().listPanes().stream()
            .filter(p -> p.session().equals(id))
            .findFirst()
            .orElseThrow()
            .pid();
    assertThat(ProcessHandle.of(panePid).orElseThrow().descendants())
        .as("the job left the pane's process tree")
        .doesNotContain(escaped);

    try {
      // Named in the session's record, its memory counted (the stats come every few seconds).
      long named = System.nanoTime() + TimeUnit.SECONDS.toNanos(12);
      while (view(service, id).detached().isEmpty() && System.nanoTime() < named) {
        Thread.sleep(200);
      }
      assertThat(view(service, id).detached())
          .as("the process that left the tree, named")
          .containsExactly(new SessionView.DetachedView(pid, "sleep"));
      assertThat(view(service, other).detached())
          .as("nothing of it in the other session")
          .isEmpty();
      service.kill(id);
      assertThat(escaped.onExit().get(5, TimeUnit.SECONDS).isAlive())
          .as("the job that left the tree ended with the session")
          .isFalse();
      assertThat(service.tmux().listPanes())
          .as("the tmux server and the other session live on")
          .anySatisfy(pane -> assertThat(pane.session()).isEqualTo(other));
      assertThat(view(service, other).state()).isEqualTo("idle");
    } finally {
      escaped.destroyForcibly(); // left by a failed kill: the test stops what it started
    }
  }

  /**
   * The slow one (about 15 s): a TUI that redraws an unchanged clock four times a second ticks
   * tmux's activity clock forever, and must be proven idle after 8 + 4 s; a program printing new
   * lines all the while stays working.
   */
  @Test
  void aClockRedrawnWhileIdleEndsIdleAndAFastLoopStaysWorking() throws Exception {
    String clock = sandbox.create(service, "clock").id();
    String loop = sandbox.create(service, "looper").id();
    long start = System.nanoTime();
    List<String> clockSeen = new ArrayList<>();
    while (System.nanoTime() - start < TimeUnit.SECONDS.toNanos(7)) {
      Thread.sleep(500);
      clockSeen.add(view(service, clock).state());
      assertThat(view(service, loop).state()).as("the loop").isEqualTo("working");
    }
    assertThat(clockSeen).as("the clock before its proof").containsOnly("working");

    WaitOutcome idle = await(service, clock, Duration.ofSeconds(20), "idle");
    double sinceStart = (System.nanoTime() - start) / 1e9;
    assertThat(sinceStart).as("seconds until the clock was idle").isBetween(11.0, 21.0);
    assertThat(idle.state()).isEqualTo("idle");
    assertThat(view(service, clock).activity())
        .as("it still prints")
        .isGreaterThan(System.currentTimeMillis() / 1000.0 - 3);
    assertThat(view(service, loop).state())
        .as("the loop, %s s in", sinceStart)
        .isEqualTo("working");
    assertThat(pane(service, loop)).contains("compiling module_");
  }
}
