package dev.clique.engine.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.catalogue.CliCatalogue;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which processes of a {@code /proc} of the test's own are sessions outside tmux, and what a Claude
 * Code registry file is believed for: every file that is not a live Claude Code's own entry lists
 * nothing and is said once.
 */
class OutsideTmuxTest {
  private static final CliCatalogue CATALOGUE =
      CliCatalogue.load(null, Map.of("PATH", "/usr/bin:/bin", "HOME", "/home/dev"));

  @TempDir Path dir;
  private FakeProc proc;
  private Path home;
  private Path registry;
  private Path project;

  @BeforeEach
  void setUp() throws IOException {
    proc = new FakeProc(dir.resolve("proc"));
    home = Files.createDirectories(dir.resolve("home"));
    registry = Files.createDirectories(home.resolve(".claude/sessions"));
    project = Files.createDirectories(dir.resolve("project"));
    // init, VS Code, its terminal's shell
    proc.process(1, "systemd", 0, 0, 1, List.of("/sbin/init"), Map.of(), null);
    proc.process(100, "code", 1, 0, 500, List.of("/usr/share/code/code"), Map.of(), null);
    proc.process(200, "bash", 100, FakeProc.PTS_3, 900, List.of("bash"), Map.of(), project);
  }

  private OutsideTmux outside(boolean headless) {
    return new OutsideTmux(
        CATALOGUE, proc.processes(), Clock.systemUTC(), headless, List.of(registry));
  }

  private void claude(long pid, long parent, int tty, long ticks, Map<String, String> env)
      throws IOException {
    proc.process(pid, "claude", parent, tty, ticks, List.of("claude"), env, project);
  }

  private Map<String, String> env() {
    return Map.of("HOME", home.toString(), "PATH", "/usr/bin");
  }

  @Test
  void aClaudeInVsCodesTerminalIsFoundWithItsTerminalAndStoppedOnceItEnds() throws Exception {
    claude(300, 200, FakeProc.PTS_3, 1000, env());
    OutsideTmux outside = outside(false);
    outside.scanNow();

    assertThat(outside.found()).hasSize(1);
    Found found = outside.found().get(0);
    assertThat(found.outside()).isTrue();
    assertThat(found.cli()).isEqualTo("claude");
    assertThat(found.cliPid()).isEqualTo(300);
    assertThat(found.terminal()).isEqualTo(new Terminal("/dev/pts/3", "VS Code"));
    assertThat(found.name()).isEqualTo("VS Code pts/3");
    assertThat(found.cwd()).isEqualTo(project.toString());
    assertThat(found.env()).containsEntry("HOME", home.toString()).doesNotContainKey("PATH");
    assertThat(found.own().authority()).isEqualTo("process");
    assertThat(found.ended()).isFalse();

    proc.end(300);
    outside.scanNow();
    assertThat(outside.found()).singleElement().satisfies(f -> assertThat(f.ended()).isTrue());
  }

  @Test
  void aProcessSeenBeforeItHadATerminalAndExecdTheCliIsFoundAtTheNextLook() throws Exception {
    long now = 10; // clock ticks since boot: 100 ms after it, a young process
    proc.process(300, "python3", 200, 0, now, List.of("python3", "term.py"), env(), project);
    OutsideTmux outside =
        new OutsideTmux(
            CATALOGUE,
            proc.processes(),
            java.time.Clock.fixed(
                java.time.Instant.ofEpochMilli(1767160000_000L + 2_000), java.time.ZoneOffset.UTC),
            false,
            List.of(registry));
    outside.scanNow();
    assertThat(outside.found()).isEmpty();
    // The same process (same start) now has its terminal and runs Claude Code; no new pid.
    proc.process(300, "claude", 200, FakeProc.PTS_3, now, List.of("claude"), env(), project);
    proc.sameLastPid();
    outside.scanNow();
    assertThat(outside.found()).extracting(Found::cliPid).containsExactly(300L);
  }

  @Test
  void onlyTheTopmostProcessOfACliIsASession() throws Exception {
    claude(300, 200, FakeProc.PTS_3, 1000, env());
    claude(301, 300, FakeProc.PTS_3, 1001, env()); // a child of its own, as a launcher's is
    OutsideTmux outside = outside(false);
    outside.scanNow();
    assertThat(outside.found()).extracting(Found::cliPid).containsExactly(300L);
  }

  @Test
  void aClaudeInATmuxPaneIsLeftToDiscoveryInTmux() throws Exception {
    proc.process(400, "tmux: server", 1, 0, 600, List.of("tmux", "new", "-s", "w"), Map.of(), null);
    proc.process(401, "bash", 400, FakeProc.PTS_3 + 1, 700, List.of("bash"), Map.of(), project);
    claude(402, 401, FakeProc.PTS_3 + 1, 1000, env());
    OutsideTmux outside = outside(false);
    outside.scanNow();
    assertThat(outside.found()).isEmpty();
  }

  @Test
  void aClaudeInATerminalOfItsOwnStartedFromAPaneIsOutsideTmux() throws Exception {
    proc.process(400, "tmux: server", 1, 0, 600, List.of("tmux"), Map.of(), null);
    proc.process(401, "bash", 400, FakeProc.PTS_3 + 1, 700, List.of("bash"), Map.of(), project);
    proc.process(402, "kitty", 401, FakeProc.PTS_3 + 1, 800, List.of("kitty"), Map.of(), project);
    proc.process(403, "bash", 402, FakeProc.PTS_3 + 2, 900, List.of("bash"), Map.of(), project);
    claude(404, 403, FakeProc.PTS_3 + 2, 1000, env());
    OutsideTmux outside = outside(false);
    outside.scanNow();
    assertThat(outside.found())
        .singleElement()
        .satisfies(f -> assertThat(f.terminal()).isEqualTo(new Terminal("/dev/pts/5", "kitty")));
  }

  @Test
  void aClaudeAnEngineStartedIsLeftToThatEngine() throws Exception {
    claude(300, 200, FakeProc.PTS_3, 1000, Map.of("HOME", home.toString(), "CLIQUE_SESSION", "s1"));
    OutsideTmux outside = outside(false);
    outside.scanNow();
    assertThat(outside.found()).isEmpty();
    assertThat(outside.causes())
        .containsValue("pid 300 is session s1 of a clique engine: left to it");
  }

  @Test
  void aProcessWithoutATerminalIsListedOnlyWhenHeadlessOnesAreAskedFor() throws Exception {
    claude(300, 1, 0, 1000, env());
    OutsideTmux plain = outside(false);
    plain.scanNow();
    assertThat(plain.found()).isEmpty();

    OutsideTmux headless = outside(true);
    headless.scanNow();
    assertThat(headless.found())
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.terminal().tty()).isNull();
              assertThat(f.name()).isEqualTo("pid 300");
            });
  }

  @Test
  void anotherUsersProcessIsNeverListed() throws Exception {
    if (Discovery.currentUid() == 0) {
      Path other =
          proc.process(300, "claude", 200, FakeProc.PTS_3, 1000, List.of("claude"), env(), project);
      Files.setAttribute(other, "unix:uid", 65534);
    } else {
      // Not root: the folder stands for init's, which root owns.
      Files.createSymbolicLink(proc.root.resolve("300"), Path.of("/proc/1"));
    }
    OutsideTmux outside = outside(true);
    outside.scanNow();
    assertThat(outside.found()).isEmpty();
  }

  @Test
  void theRegistrysStatusIsTheState() throws Exception {
    claude(300, 200, FakeProc.PTS_3, 1000, env());
    OutsideTmux outside = outside(false);
    Files.writeString(
        registry.resolve("300.json"),
        "{\"pid\":300,\"procStart\":\"1000\",\"status\":\"busy\",\"statusUpdatedAt\":1767171000000}");
    outside.scanNow();
    OwnState busy = outside.found().get(0).own();
    assertThat(busy.state()).isEqualTo("working");
    assertThat(busy.authority()).isEqualTo("registry");
    assertThat(busy.evidence()).isEqualTo("sessions/300.json status busy");
    assertThat(busy.sinceMillis()).isEqualTo(1767171000000L);

    Files.writeString(
        registry.resolve("300.json"),
        "{\"pid\":300,\"procStart\":\"1000\",\"status\":\"waiting\","
            + "\"waitingFor\":\"permission prompt\"}");
    outside.scanNow();
    OwnState waiting = outside.found().get(0).own();
    assertThat(waiting.state()).isEqualTo("waiting");
    assertThat(waiting.attentionKind()).isEqualTo("permission");
    assertThat(waiting.attentionDetail()).isEqualTo("permission prompt");

    Files.writeString(
        registry.resolve("300.json"), "{\"pid\":300,\"procStart\":\"1000\",\"status\":\"idle\"}");
    outside.scanNow();
    assertThat(outside.found().get(0).own().state()).isEqualTo("idle");
  }

  @Test
  void aRegistryFileOfAnotherProcessThatHadThePidSaysNothingOfTheState() throws Exception {
    claude(300, 200, FakeProc.PTS_3, 1000, env());
    Files.writeString(
        registry.resolve("300.json"), "{\"pid\":300,\"procStart\":\"77\",\"status\":\"busy\"}");
    OutsideTmux outside = outside(false);
    outside.scanNow();
    assertThat(outside.found().get(0).own().authority()).isEqualTo("process");
    assertThat(outside.causes().get(registry.resolve("300.json").toString()))
        .contains("a reused pid");
  }

  @Test
  void aRegistryFileThatIsNoLiveClaudeCodesEntryListsNothingAndIsSaidOnce() throws Exception {
    proc.process(
        500, "python3", 200, FakeProc.PTS_3, 1000, List.of("python3", "app.py"), env(), project);
    claude(600, 200, FakeProc.PTS_3, 2000, env());
    Files.writeString(registry.resolve("11.json"), "not json at all");
    Files.writeString(registry.resolve("12.json"), "{\"pid\":12,\"sessionId\":\"ab");
    Files.writeString(
        registry.resolve("13.json"), "{\"pid\":13,\"pad\":\"" + "x".repeat(70_000) + "\"}");
    Path elsewhere = Files.writeString(dir.resolve("elsewhere.json"), "{\"pid\":14}");
    Files.createSymbolicLink(registry.resolve("14.json"), elsewhere);
    Files.writeString(registry.resolve("15.json"), "{\"pid\":15,\"procStart\":\"5\"}"); // dead
    Files.writeString(registry.resolve("500.json"), "{\"pid\":500,\"procStart\":\"1000\"}");
    Files.writeString(registry.resolve("600.json"), "{\"pid\":600,\"procStart\":\"1999\"}");
    Files.writeString(registry.resolve("16.json"), "[1, 2]");
    Files.writeString(registry.resolve("17.json"), "{\"pid\":18}");

    OutsideTmux outside = outside(false);
    for (int round = 0; round < 2; round++) {
      for (long pid : List.of(11L, 12L, 13L, 14L, 15L, 16L, 17L, 500L, 600L)) {
        outside.registered(registry, pid); // what the watch hands over
      }
    }
    Map<String, String> causes = outside.causes();
    assertThat(causes.get(file(11))).contains("is not JSON");
    assertThat(causes.get(file(12))).contains("is cut short");
    assertThat(causes.get(file(13))).contains("over 65536 bytes");
    assertThat(causes.get(file(14))).contains("symbolic link");
    assertThat(causes.get(file(15))).contains("names pid 15, which is not running");
    assertThat(causes.get(file(16))).contains("not a JSON object");
    assertThat(causes.get(file(17))).contains("names pid 18, not 17");
    assertThat(causes.get(file(500))).contains("does not run Claude Code");
    assertThat(causes.get(file(600))).contains("(a reused pid)");
    assertThat(Files.readString(elsewhere)).isEqualTo("{\"pid\":14}"); // never written to

    // Nothing of them is listed: the one Claude Code is found from /proc, by its process alone.
    outside.scanNow();
    assertThat(outside.found()).extracting(Found::cliPid).containsExactly(600L);
    assertThat(outside.found().get(0).own().authority()).isEqualTo("process");
  }

  private String file(long pid) {
    return registry.resolve(pid + ".json").toString();
  }

  @Test
  void theTerminalIsNamedFromItsTtyNumber() {
    assertThat(OutsideTmux.ttyName(0)).isNull();
    assertThat(OutsideTmux.ttyName(FakeProc.PTS_3)).isEqualTo("/dev/pts/3");
    assertThat(OutsideTmux.ttyName((137 << 8) | 4)).isEqualTo("/dev/pts/260");
    assertThat(OutsideTmux.ttyName((4 << 8) | 2)).isEqualTo("/dev/tty2");
    assertThat(OutsideTmux.ttyName((4 << 8) | 65)).isEqualTo("/dev/ttyS1");
  }
}
