package dev.clique.engine.tmux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcFsTest {

  private static final Set<String> NAMES = Set.of("HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME");

  @TempDir Path root;

  @Test
  void aShellThatHoldsItsTerminalIsAtItsPromptWhenItWaitsInSelectOrPoll() throws IOException {
    // pid 50: its own group 50, the terminal's foreground group (tpgid) 50.
    stat(50, "50 (bash) S 1 50 50 34816 50 4194560");
    for (String[] waits :
        new String[][] {
          {"poll_schedule_timeout.constprop.0", "PROMPT"}, // readline's pselect
          {"do_select", "PROMPT"},
          {"do_sys_poll", "PROMPT"},
          {"ep_poll", "PROMPT"},
          {"wait_woken", "SHELL"}, // read -p: the terminal's own read
          {"n_tty_read", "SHELL"},
          {"0", "SHELL"} // running, or not shown
        }) {
      Files.writeString(root.resolve("50/wchan"), waits[0]);
      assertThat(new ProcFs(root).foreground(50)).as(waits[0]).hasToString(waits[1]);
    }
    Files.delete(root.resolve("50/wchan"));
    assertThat(new ProcFs(root).foreground(50)).as("unreadable").isEqualTo(Foreground.SHELL);

    stat(60, "60 (bash) S 1 60 60 34817 61 4194560"); // its command's group 61 holds it
    Files.writeString(root.resolve("60/wchan"), "do_wait");
    assertThat(new ProcFs(root).foreground(60)).isEqualTo(Foreground.COMMAND);
  }

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
  void theProcessesMarkedAreFoundByTheValueOfTheirMarkerAndTmuxNeverIs() throws IOException {
    process(100, "bash", "HOME=/home/dev\0CLIQUE_SESSION=s1\0");
    process(101, "tmux: server", "CLIQUE_SESSION=s1\0"); // started for s1, serves every session
    process(102, "node", "CLIQUE_SESSION=s2\0PATH=/usr/bin\0");
    process(103, "sleep", "CLIQUE_SESSION=s1"); // the last entry, without its NUL
    process(104, "sh", "CLIQUE_SESSIONS=s1\0XCLIQUE_SESSION=s1\0"); // other names
    process(105, "sh", "HOME=/home/dev\0");
    Files.createDirectories(root.resolve("106")); // another user's: nothing readable

    Map<String, List<Long>> marked = new ProcFs(root).processesMarked("CLIQUE_SESSION");

    assertThat(marked).containsOnlyKeys("s1", "s2");
    assertThat(marked.get("s1")).containsExactlyInAnyOrder(100L, 103L);
    assertThat(marked.get("s2")).containsExactly(102L);
  }

  @Test
  void theProcessesUnderAPaneAreItsChildrenAndTheirsWhateverIsGone() throws IOException {
    children(10, "11 12 ");
    children(11, "13");
    children(13, ""); // 12 is gone: its children cannot be read
    Files.write(
        root.resolve("11/cmdline"), "node\0/usr/bin/gemini\0".getBytes(StandardCharsets.UTF_8));
    Files.writeString(root.resolve("uptime"), "1000.50 1900.00\n");
    // starttime, field 22, in ticks since boot: 999.50 s
    Files.writeString(
        root.resolve("11/stat"), "11 (node) S 10 11 11 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 99950 0\n");
    assertThat(new ProcFs(root).descendants(10))
        .containsExactly(
            entry(11L, new PaneProcess("node /usr/bin/gemini", 1_000)),
            entry(12L, new PaneProcess("", -1)),
            entry(13L, new PaneProcess("", -1)));
    assertThat(new ProcFs(root).descendants(99)).isEmpty();
  }

  private void children(long pid, String pids) throws IOException {
    Path task = Files.createDirectories(root.resolve(pid + "/task/" + pid));
    Files.writeString(task.resolve("children"), pids);
  }

  private void process(long pid, String comm, String environ) throws IOException {
    Path dir = Files.createDirectories(root.resolve(Long.toString(pid)));
    Files.writeString(dir.resolve("comm"), comm + "\n");
    Files.write(dir.resolve("environ"), environ.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aZombieIsAProcessInStateZ() throws IOException {
    stat(200, "200 (sh) Z 1 200 200 0 -1 4194316");
    stat(201, "201 (a (Z) b) S 1 201 201 34817 201 4194560"); // a name may hold ") Z"
    assertThat(new ProcFs(root).zombie(200)).isTrue();
    assertThat(new ProcFs(root).zombie(201)).isFalse();
    assertThat(new ProcFs(root).zombie(202)).as("gone").isFalse();
    assertThat(new ProcFs(root).zombie(0)).isFalse();
  }

  private void stat(long pid, String line) throws IOException {
    Path dir = Files.createDirectories(root.resolve(Long.toString(pid)));
    Files.writeString(dir.resolve("stat"), line + "\n");
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
