package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * An engine killed with {@code kill -9} leaves nothing of its own in tmux: its control-mode client
 * ends, so the tmux server runs exactly as long as a session does.
 *
 * <p>Each engine dies the hard way for tmux: stalled first (stopped, as a long pause or a busy
 * machine leaves it) while tmux writes it more than a pipe holds, then killed. tmux then still has
 * output for a client whose reader is gone, which is what an engine killed while tmux answers it
 * leaves too, only by chance.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class EngineDeathIT {
  /** How long the engine's tmux client may outlive it: tmux ends it at the end of its stdin. */
  private static final Duration CLIENT_GONE = Duration.ofSeconds(3);

  @Test
  void aKilledEngineLeavesItsSessionRunningAndNoClientAndTheNextEngineListsIt() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      String admin = engine.mintToken("death-admin", false);
      String session = engine.createShell(admin, "survivor");
      long server = serverPid(engine.socket);
      long pane = Tmux.panePid(engine.socket, session);

      List<ProcessHandle> started = killWhileTmuxWrites(engine, session);

      assertGone(started, engine.socket, server);
      assertThat(ProcessHandle.of(server).map(ProcessHandle::isAlive))
          .as("the tmux server of a running session")
          .contains(true);
      assertThat(ProcessHandle.of(pane).map(ProcessHandle::isAlive))
          .as("the session's shell")
          .contains(true);

      engine.start();
      // The record is read at the start; the pane once the engine first looked at tmux.
      JsonNode listed = null;
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      do {
        listed = null;
        for (JsonNode row :
            ThrowawayEngine.json(engine.get("/api/state", admin).body()).path("sessions")) {
          if (row.path("id").asText().equals(session)) {
            listed = row;
          }
        }
        if (listed != null && listed.path("alive").asBoolean()) {
          break;
        }
        Thread.sleep(100);
      } while (System.nanoTime() < deadline);
      assertThat(listed).as("the session, listed by the next engine").isNotNull();
      assertThat(listed.path("alive").asBoolean()).as("alive, in " + listed).isTrue();
    }
  }

  @Test
  void aKilledEngineLeavesNoServerOnceItsLastSessionEnds() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      String admin = engine.mintToken("death-admin", false);
      String session = engine.createShell(admin, "last");
      long server = serverPid(engine.socket);

      List<ProcessHandle> started = killWhileTmuxWrites(engine, session);
      assertGone(started, engine.socket, server);

      // The person closes the last session: nothing of the engine's keeps the server up.
      Tmux.run(engine.socket, "kill-session", "-t", "=" + session);
      awaitTrue(() -> ProcessHandle.of(server).map(p -> !p.isAlive()).orElse(true), CLIENT_GONE);
      assertThat(ProcessHandle.of(server).map(ProcessHandle::isAlive))
          .as("the tmux server with no session left")
          .isNotEqualTo(java.util.Optional.of(true));
      assertThat(Tmux.sessions(engine.socket)).isEmpty();
    }
  }

  /**
   * Stops the engine, has tmux write its control client more than a pipe holds (a window renamed
   * over and over), then kills the engine with SIGKILL. Returns every process the engine had
   * started that was still running.
   */
  private static List<ProcessHandle> killWhileTmuxWrites(ThrowawayEngine engine, String session)
      throws Exception {
    ProcessHandle serve = ProcessHandle.of(engine.pid()).orElseThrow();
    awaitTrue(
        () -> serve.descendants().anyMatch(p -> commandLine(p).contains("attach-session")),
        Duration.ofSeconds(10));
    List<ProcessHandle> started = serve.descendants().toList();
    assertThat(started).as("the engine's control client").isNotEmpty();

    signal(engine.pid(), "STOP");
    Path renames = engine.workdir.resolve("renames.tmux");
    Files.writeString(
        renames,
        IntStream.range(0, 2_000)
            .mapToObj(
                i -> "rename-window -t '=" + session + ":' renamed-" + i + "-" + "x".repeat(40))
            .collect(Collectors.joining("\n", "", "\n")));
    Tmux.run(engine.socket, "source-file", renames.toString());
    engine.crash();
    return started;
  }

  /** Every process the engine started has ended, and no client of its socket is left. */
  private static void assertGone(List<ProcessHandle> started, String socket, long server)
      throws InterruptedException {
    long begun = System.nanoTime();
    awaitTrue(() -> started.stream().noneMatch(ProcessHandle::isAlive), CLIENT_GONE);
    System.out.printf(
        "EngineDeathIT: the engine's processes ended %d ms after its death%n",
        (System.nanoTime() - begun) / 1_000_000);
    assertThat(started.stream().filter(ProcessHandle::isAlive).map(EngineDeathIT::commandLine))
        .as("processes of the killed engine still running")
        .isEmpty();
    assertThat(
            ProcessHandle.allProcesses()
                .filter(p -> p.pid() != server)
                .map(EngineDeathIT::commandLine)
                .filter(line -> line.contains("-L " + socket + " ")))
        .as("tmux clients on the engine's socket")
        .isEmpty();
  }

  private static long serverPid(String socket) throws Exception {
    return Long.parseLong(Tmux.run(socket, "display-message", "-p", "#{pid}").strip());
  }

  private static String commandLine(ProcessHandle process) {
    return process.info().commandLine().orElse("");
  }

  private static void signal(long pid, String name) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start();
    assertThat(kill.waitFor()).as("kill -" + name + " " + pid).isZero();
  }

  private static void awaitTrue(BooleanSupplier condition, Duration timeout)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
  }
}
