package dev.clique.engine.hooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.state.SessionState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The latest report per CLI process, over a /proc of the test's own. */
class HookReportsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path proc;

  private void process(long pid, String comm, long ppid, long startTicks) throws Exception {
    StringBuilder stat = new StringBuilder(pid + " (" + comm + ") S " + ppid);
    for (int field = 5; field <= 21; field++) {
      stat.append(" 0");
    }
    stat.append(' ').append(startTicks).append(" 0 0\n");
    Files.createDirectories(proc.resolve(String.valueOf(pid)));
    Files.writeString(proc.resolve(pid + "/stat"), stat.toString());
  }

  private static JsonNode event(String json) throws Exception {
    return JSON.readTree(json);
  }

  @Test
  void aReportIsKeptForTheCliProcessAndItsStartTime() throws Exception {
    process(4242, "claude", 1000, 777);
    HookReports reports = new HookReports(proc);
    List<HookReports.Entry> heard = new ArrayList<>();
    reports.onChange(heard::add);

    reports.report(
        "claude",
        4242,
        event(
            "{\"hook_event_name\":\"PermissionRequest\",\"tool_name\":\"Bash\","
                + "\"tool_input\":{\"command\":\"rm -rf build\"}}"),
        1000);

    var report = reports.latest(4242, 777).orElseThrow();
    assertThat(report.state()).isEqualTo(SessionState.WAITING);
    assertThat(report.attention().kind()).isEqualTo("permission");
    assertThat(report.attention().detail()).isEqualTo("Bash: rm -rf build");
    assertThat(report.authority()).isEqualTo("hook");
    assertThat(reports.latest(4242, 778)).as("a reused pid inherits nothing").isEmpty();
    assertThat(heard).extracting(HookReports.Entry::pid).containsExactly(4242L);

    reports.report("claude", 4242, event("{\"hook_event_name\":\"Stop\"}"), 2000);
    assertThat(reports.latest(4242, 777).orElseThrow().state()).isEqualTo(SessionState.IDLE);
  }

  @Test
  void theShellAHookRunsUnderIsNotTheCli() throws Exception {
    process(500, "node", 1, 10);
    process(501, "sh", 500, 11);
    process(502, "bash", 501, 12);
    HookReports reports = new HookReports(proc);
    reports.report("qwen", 502, event("{\"hook_event_name\":\"UserPromptSubmit\"}"), 0);
    assertThat(reports.latest(500, 10).orElseThrow().state()).isEqualTo(SessionState.WORKING);
    assertThat(reports.latest(502, 12)).isEmpty();
  }

  @Test
  void anEventThatSaysNothingKeepsNothing() throws Exception {
    process(600, "claude", 1, 5);
    HookReports reports = new HookReports(proc);
    assertThat(reports.report("claude", 600, event("{\"hook_event_name\":\"SessionStart\"}"), 0))
        .isEmpty();
    assertThat(reports.latest(600, 5)).isEmpty();
  }

  @Test
  void badReportsAreRefusedWithTheirCause() throws Exception {
    process(700, "claude", 1, 5);
    HookReports reports = new HookReports(proc);
    assertThatThrownBy(() -> reports.report("aider", 700, event("{}"), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("aider");
    assertThatThrownBy(() -> reports.report("claude", 700, event("{\"x\":1}"), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hook_event_name");
    assertThatThrownBy(
            () -> reports.report("claude", 9999, event("{\"hook_event_name\":\"Stop\"}"), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("9999");
  }

  @Test
  void endedProcessesAreDroppedAndTheRegistryStaysBounded() throws Exception {
    HookReports reports = new HookReports(proc);
    JsonNode stop = event("{\"hook_event_name\":\"Stop\"}");
    for (int pid = 1000; pid < 1000 + HookReports.MAX_PROCESSES + 50; pid++) {
      process(pid, "claude", 1, pid);
      reports.report("claude", pid, stop, 0);
    }
    assertThat(reports.size()).isEqualTo(HookReports.MAX_PROCESSES);
    assertThat(reports.latest(1000, 1000)).as("the oldest went").isEmpty();
    int last = 1000 + HookReports.MAX_PROCESSES + 49;
    assertThat(reports.latest(last, last)).isPresent();

    process(last, "claude", 1, 1); // the pid now runs another process
    Files.delete(proc.resolve((last - 1) + "/stat")); // and this one ended
    reports.forgetEnded();
    assertThat(reports.size()).isEqualTo(HookReports.MAX_PROCESSES - 2);
  }
}
