package dev.clique.engine.tmux;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real tmux, on a socket of this test's own; the bugs of this layer only exist for real. */
class TmuxProcessIT {
  @TempDir Path dir;
  private TmuxProcess tmux;

  @BeforeEach
  void ownSocket() {
    tmux = new TmuxProcess("tmux", "clique-test-" + UUID.randomUUID(), Duration.ofSeconds(5));
    assertThat(tmux.installed()).as("tmux must be installed to run this suite").isTrue();
  }

  @AfterEach
  void killOwnServer() {
    tmux.killServer();
  }

  @Test
  void killingTheServerRemovesItsSocketFileToo() throws Exception {
    tmux.newSession("s1", dir, List.of("cat"), Map.of(), HomeMark.NONE);
    Path file = tmux.socketFile();
    assertThat(file).as("where tmux keeps the socket").exists();
    tmux.killServer();
    assertThat(file).doesNotExist();
    assertThat(tmux.listPanes()).isEmpty();
  }

  @Test
  void aSessionCarriesItsHomeFromItsFirstListingAndIsReadBackAsItWasGiven() throws Exception {
    HomeMark home =
        new HomeMark(UUID.randomUUID().toString(), "/home/me/a #{home} 'with' \"quotes\";");
    tmux.newSession("marked", dir, List.of("cat"), Map.of(), home);
    tmux.newSession("plain", dir, List.of("cat"), Map.of(), HomeMark.NONE);
    assertThat(tmux.listPanes())
        .extracting(PaneInfo::session, PaneInfo::home)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("marked", home.id()),
            org.assertj.core.groups.Tuple.tuple("plain", ""));
    assertThat(tmux.home("marked")).isEqualTo(home);
    assertThat(tmux.home("plain")).isEqualTo(HomeMark.NONE);

    tmux.markHome("plain", home);
    assertThat(tmux.home("plain")).isEqualTo(home);
    assertThat(tmux.listPanes()).extracting(PaneInfo::home).containsOnly(home.id());
  }

  @Test
  void aServerItsControlClientJoinsIsWatchedByEvents() throws Exception {
    assertThat(tmux.watch().by()).as("before any server runs").isEqualTo(ServerWatch.NO_SERVER);
    tmux.newSession("s1", dir, List.of("cat"), Map.of(), HomeMark.NONE);
    assertThat(tmux.activity()).isNotNull();
    assertThat(tmux.watch())
        .isEqualTo(
            new ServerWatch(
                tmux.socket(), ServerWatch.EVENTS, "control client and /proc activity stamp"));
  }

  @Test
  void aServerKilledUnderItIsNoticedAndTheNextServerIsJoinedAgain() throws Exception {
    tmux.newSession("s1", dir, List.of("cat"), Map.of(), HomeMark.NONE);
    assertThat(tmux.activity()).isNotNull();
    long first = controlClients().size();
    assertThat(first).as("the control client on the first server").isEqualTo(1);

    // Killed by someone else: the engine's client hears of it only from tmux.
    Process kill = new ProcessBuilder("tmux", "-L", tmux.socket(), "kill-server").start();
    assertThat(kill.waitFor()).isZero();
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (!controlClients().isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(controlClients()).as("the client of the killed server").isEmpty();
    assertThat(tmux.activity()).isEqualTo(tmux.activity());
    assertThat(tmux.watch().by()).isEqualTo(ServerWatch.NO_SERVER);

    tmux.newSession("s2", dir, List.of("cat"), Map.of(), HomeMark.NONE);
    assertThat(tmux.activity()).isNotNull();
    assertThat(tmux.watch().by()).isEqualTo(ServerWatch.EVENTS);
    assertThat(controlClients()).as("a control client on the new server").isNotEmpty();
    assertThat(tmux.listPanes()).extracting(PaneInfo::session).containsExactly("s2");
  }

  /** The control-mode clients on this test's socket that are running. */
  private List<ProcessHandle> controlClients() {
    return ProcessHandle.allProcesses()
        .filter(
            p -> {
              String line = p.info().commandLine().orElse("");
              // the tmux client itself, not the shell of its relay, whose words name it too
              return p.info().command().orElse("").endsWith("/tmux")
                  && line.contains(" -L " + tmux.socket() + " ")
                  && line.contains(" -C attach-session");
            })
        .toList();
  }

  @Test
  void onceItsControlClientJoinedListingAndReadingPanesStartNoProcess() throws Exception {
    // tmux as the engine starts it, every start written down.
    Path started = dir.resolve("started.log");
    Path counted = dir.resolve("tmux-counted");
    Files.writeString(counted, "#!/bin/sh\necho \"$*\" >> '" + started + "'\nexec tmux \"$@\"\n");
    assertThat(counted.toFile().setExecutable(true)).isTrue();
    TmuxProcess watched = new TmuxProcess(counted.toString(), tmux.socket(), Duration.ofSeconds(5));
    watched.newSession(
        "s1", dir, List.of("sh", "-c", "echo \"it's here\"; exec cat"), Map.of(), HomeMark.NONE);
    assertThat(watched.activity()).as("the control client joined").isNotNull();
    assertThat(eventually(() -> watched.captureScreen("s1").startsWith("it's here\n"))).isTrue();
    List<PaneInfo> first = watched.listPanes();
    Files.writeString(started, "");

    for (int i = 0; i < 3; i++) {
      assertThat(watched.listPanes()).isEqualTo(first);
      assertThat(watched.captureScreen("s1")).startsWith("it's here\n");
      assertThat(watched.capturePane("s1", 10)).startsWith("it's here\n");
      assertThat(watched.activity()).isNotNull();
    }
    assertThat(Files.readString(started)).as("tmux processes started").isEmpty();
    assertThat(first).extracting(PaneInfo::session).containsExactly("s1");
    assertThat(first.get(0).pid()).isPositive();
  }

  @Test
  void aServerNoControlClientCanJoinIsWatchedByPollingAndSaysWhy() throws Exception {
    // A tmux without control mode: everything else it does as tmux does.
    Path lacking = dir.resolve("tmux-without-control-mode");
    Files.writeString(
        lacking,
        "#!/bin/sh\n"
            + "for word in \"$@\"; do\n"
            + "  [ \"$word\" = -C ] && { echo 'unknown option -- C' >&2; exit 1; }\n"
            + "done\n"
            + "exec tmux \"$@\"\n");
    assertThat(lacking.toFile().setExecutable(true)).isTrue();
    TmuxProcess polled = new TmuxProcess(lacking.toString(), tmux.socket(), Duration.ofSeconds(5));
    polled.newSession("s1", dir, List.of("cat"), Map.of(), HomeMark.NONE);

    assertThat(polled.activity()).as("only listing tells what the server did").isNull();
    assertThat(polled.watch().by()).isEqualTo(ServerWatch.POLLING);
    assertThat(polled.watch().why())
        .isEqualTo("the control client could not attach: tmux control client: unknown option -- C");
    assertThat(polled.listPanes()).extracting(PaneInfo::session).containsExactly("s1");
  }

  @Test
  void textIsTypedLiterallyNeverAsKeyNamesOrCommandSeparators() throws Exception {
    tmux.newSession("s1", dir, List.of("cat"), Map.of(), HomeMark.NONE);
    String hostile = "Enter C-c -x ; ls; echo $HOME \\; end;";
    tmux.sendText("s1", hostile);
    tmux.sendKey("s1", "Enter");
    assertThat(waitForPane("s1", hostile)).contains(hostile);
  }

  @Test
  void aTargetNamesExactlyOneSessionNeverAPrefix() throws Exception {
    tmux.newSession("abcd", dir, List.of("cat"), Map.of(), HomeMark.NONE);
    tmux.newSession("abc", dir, List.of("cat"), Map.of(), HomeMark.NONE);
    tmux.killSession("abc");
    assertThat(tmux.listPanes()).extracting(PaneInfo::session).containsExactly("abcd");
  }

  @Test
  void aSessionGetsItsEnvironmentAndSizeAndTheLargeHistory() throws Exception {
    Path out = dir.resolve("env.txt");
    tmux.newSession(
        "env",
        dir,
        List.of("sh", "-c", "echo \"$CLIQUE_SESSION\" > " + out + "; exec cat"),
        Map.of("CLIQUE_SESSION", "abc-123"),
        HomeMark.NONE);
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (!Files.exists(out) || Files.readString(out).isBlank()) {
      assertThat(System.nanoTime()).isLessThan(deadline);
      Thread.sleep(50);
    }
    assertThat(Files.readString(out).strip()).isEqualTo("abc-123");
    PaneInfo pane = tmux.listPanes().get(0);
    assertThat(pane.cols()).isEqualTo(TmuxProcess.COLS);
    assertThat(pane.rows()).isEqualTo(TmuxProcess.ROWS);
  }

  @Test
  void aPaneGetsTheEnginesEnvironmentButNotABuildServersMarks() throws Exception {
    assertThat(System.getenv("CI"))
        .as("the build runs these suites with CI=true (session-engine/pom.xml)")
        .isEqualTo("true");
    Path out = dir.resolve("marks.txt");
    tmux.newSession(
        "marks",
        dir,
        List.of(
            "sh",
            "-c",
            "echo \"${CI-unset} ${GITHUB_ACTIONS-unset} ${HOME-unset}\" > " + out + "; exec cat"),
        Map.of(),
        HomeMark.NONE);
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (!Files.exists(out) || Files.readString(out).isBlank()) {
      assertThat(System.nanoTime()).isLessThan(deadline);
      Thread.sleep(50);
    }
    assertThat(Files.readString(out).strip()).isEqualTo("unset unset " + System.getenv("HOME"));
  }

  @Test
  void aPaneWhoseProcessEndsAsItsTerminalClosesSaysHowItEnded() throws Exception {
    // Exiting right after letting go of the terminal lands the SIGCHLD in the moment tmux hands
    // SIGCHLD to libutempter (about 1 time in 3 here, before listings made tmux reap): one pane at
    // a time, so no later death reaps it by chance. The closed terminal hangs up on its leader.
    String ends = "trap '' HUP; echo ending; exec </dev/null >/dev/null 2>&1; sleep 0; exit 3";
    for (int i = 0; i < 10; i++) {
      String name = "ends-" + i;
      tmux.newSession(name, dir, List.of("sh", "-c", ends), Map.of(), HomeMark.NONE);
      PaneInfo pane = null;
      long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
      while (pane == null || pane.exitStatus() < 0) {
        assertThat(System.nanoTime())
            .as("the exit status of pane %d, last seen %s", i, pane)
            .isLessThan(deadline);
        Thread.sleep(20);
        pane = tmux.listPanes().stream().filter(p -> p.session().equals(name)).findFirst().get();
      }
      assertThat(pane.dead()).isTrue();
      assertThat(pane.exitStatus()).isEqualTo(3);
      tmux.killSession(name);
    }
  }

  @Test
  void aPaneASignalEndedSaysWhichSignal() throws Exception {
    tmux.newSession("killed", dir, List.of("sleep", "100"), Map.of(), HomeMark.NONE);
    long pid = tmux.listPanes().get(0).pid();
    assertThat(ProcessHandle.of(pid).orElseThrow().destroy()).as("SIGTERM sent").isTrue();
    assertThat(eventually(() -> tmux.listPanes().get(0).exitSignal() == 15))
        .as("the signal of %s", tmux.listPanes())
        .isTrue();
    PaneInfo pane = tmux.listPanes().get(0);
    assertThat(pane.dead()).isTrue();
    assertThat(pane.exitStatus()).isEqualTo(-1);
  }

  @Test
  void noServerMeansNoPanesNotAnError() throws Exception {
    assertThat(tmux.listPanes()).isEmpty();
  }

  @Test
  void textEndingInABackslashAndASemicolonStaysExactlyThat() throws Exception {
    tmux.newSession("s1", dir, List.of("cat"), Map.of(), HomeMark.NONE);
    tmux.sendText("s1", "tail \\;");
    tmux.sendKey("s1", "Enter");
    assertThat(waitForPane("s1", "tail \\;")).contains("tail \\;");
  }

  @Test
  void theShellHoldsTheTerminalAtItsPromptAndACommandWhileItRuns() throws Exception {
    tmux.newSession("sh", dir, List.of("bash", "--norc", "--noprofile"), Map.of(), HomeMark.NONE);
    PaneInfo pane = tmux.listPanes().get(0);
    assertThat(eventually(() -> tmux.foreground(pane) == Foreground.PROMPT)).isTrue();
    tmux.sendText("sh", "sleep 2");
    tmux.sendKey("sh", "Enter");
    assertThat(eventually(() -> tmux.foreground(pane) == Foreground.COMMAND)).isTrue();
    assertThat(eventually(() -> tmux.currentCommand(tmux.listPanes().get(0)).equals("sleep")))
        .isTrue();
    assertThat(eventually(() -> tmux.foreground(pane) == Foreground.PROMPT)).isTrue();
    // A builtin that asks: the shell keeps the terminal, and reads it without its line editor.
    tmux.sendText("sh", "read -p 'Name? ' name");
    tmux.sendKey("sh", "Enter");
    assertThat(eventually(() -> tmux.foreground(pane) == Foreground.SHELL)).isTrue();
    tmux.sendText("sh", "bob");
    tmux.sendKey("sh", "Enter");
    assertThat(eventually(() -> tmux.foreground(pane) == Foreground.PROMPT)).isTrue();
    assertThat(tmux.foreground(PaneInfo.of("gone", "x", 0, 999_999_999)))
        .isEqualTo(Foreground.UNKNOWN);
  }

  @Test
  void theOutputMarkMovesWhenThePanePrintsAndStaysWhenItIsQuiet() throws Exception {
    tmux.newSession("sh", dir, List.of("bash", "--norc", "--noprofile"), Map.of(), HomeMark.NONE);
    assertThat(eventually(() -> !tmux.captureScreen("sh").isBlank())).isTrue();
    Thread.sleep(300);
    PaneInfo.OutputMark quiet = tmux.listPanes().get(0).mark();
    Thread.sleep(300);
    assertThat(tmux.listPanes().get(0).mark()).isEqualTo(quiet);
    tmux.sendText("sh", "echo hi");
    tmux.sendKey("sh", "Enter");
    assertThat(eventually(() -> !tmux.listPanes().get(0).mark().equals(quiet))).isTrue();
  }

  @Test
  void theScreenCaptureIsTheVisibleScreenAndThePaneCaptureReachesIntoHistory() throws Exception {
    tmux.newSession("sh", dir, List.of("bash", "--norc", "--noprofile"), Map.of(), HomeMark.NONE);
    tmux.sendText("sh", "seq -f 'line-%g' 1 120");
    tmux.sendKey("sh", "Enter");
    assertThat(eventually(() -> tmux.captureScreen("sh").contains("line-120"))).isTrue();
    String screen = tmux.captureScreen("sh");
    assertThat(screen.split("\n", -1).length).isLessThanOrEqualTo(TmuxProcess.ROWS + 1);
    assertThat(screen).doesNotContain("line-1\n");
    assertThat(tmux.capturePane("sh", 200)).contains("line-1\n", "line-120");
    assertThat(tmux.listPanes().get(0).historySize()).isPositive();
  }

  @Test
  void thePaneTreeMemoryCountsItsChildren() throws Exception {
    tmux.newSession(
        "mem",
        dir,
        List.of("sh", "-c", "python3 -c 'b = bytearray(64 << 20); import time; time.sleep(30)'"),
        Map.of(),
        HomeMark.NONE);
    long pid = tmux.listPanes().get(0).pid();
    assertThat(eventually(() -> tmux.residentBytes(List.of(pid)).get(pid) > (64L << 20))).isTrue();
  }

  private static boolean eventually(Check check) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (System.nanoTime() < deadline) {
      if (check.holds()) {
        return true;
      }
      Thread.sleep(20);
    }
    return false;
  }

  @FunctionalInterface
  private interface Check {
    boolean holds() throws Exception;
  }

  private String waitForPane(String name, String expected) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    String captured = "";
    while (System.nanoTime() < deadline) {
      captured = tmux.capturePane(name, 50);
      if (captured.contains(expected)) {
        return captured;
      }
      Thread.sleep(50);
    }
    return captured;
  }
}
