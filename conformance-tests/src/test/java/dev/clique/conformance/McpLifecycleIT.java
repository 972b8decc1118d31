package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.fake.FakeEngine;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How a spawned {@code clique mcp} ends: stdin closed is exit 0 within a second even while a wait
 * is held open by the engine; SIGINT and SIGTERM are a prompt exit (128 + the signal) with nothing
 * but whole protocol frames on stdout and no stack trace anywhere, with or without an engine of its
 * own. How prompt is measured in BENCHMARKS.md ({@code signal-exit}); here only that it exits.
 */
class McpLifecycleIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The session whose waits {@link #engineHoldingWaits} holds until the client lets go. */
  private static final String HOLD = "hold";

  /** An engine answering the contract's reads, but a wait on {@link #HOLD}. */
  private static FakeEngine engineHoldingWaits() throws IOException {
    FakeEngine engine = FakeEngine.start().servingTheContract(FakeEngine.ANY);
    return engine.on(
        "/api/sessions/" + HOLD + "/wait", engine.hang(FakeEngine.contract("wait-matched.json")));
  }

  private static Map<String, String> envFor(ThrowawayEngine home, FakeEngine fake) {
    Map<String, String> env = home.env();
    env.put("CLIQUE_URL", fake.url());
    env.put("CLIQUE_TOKEN", "mxp_" + "d".repeat(43));
    return env;
  }

  private static List<String> mcpCommand() {
    return List.of(Launcher.script().toString(), "mcp");
  }

  private static void startAWait(Spawned mcp, FakeEngine fake) throws Exception {
    mcp.send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"held\",\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"wait\",\"arguments\":{\"id\":\""
            + HOLD
            + "\",\"timeout\":300}}}");
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (fake.holding.get() < 1 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(fake.holding.get()).as("the wait is held by the engine").isEqualTo(1);
  }

  private static void assertNoStackTrace(String text) {
    assertThat(text).doesNotContain("Exception", "\tat ", "Caused by");
  }

  @Test
  void stdinClosedWhileAWaitIsInFlightExitsZeroWithinASecond() throws Exception {
    try (FakeEngine fake = engineHoldingWaits();
        ThrowawayEngine home = ThrowawayEngine.prepare();
        Spawned mcp = Spawned.start(mcpCommand(), envFor(home, fake), home.workdir)) {
      new McpDialogue(mcp).initialize("2025-11-25");
      startAWait(mcp, fake);
      long closed = System.nanoTime();
      mcp.closeStdin();
      int code = mcp.waitFor(Duration.ofSeconds(5));
      Duration took = Duration.ofNanos(System.nanoTime() - closed);
      assertThat(code).isZero();
      assertThat(took).isLessThan(Duration.ofSeconds(1));
      assertNoStackTrace(mcp.stderr());
    }
  }

  @Test
  void sigtermWhileAWaitIsInFlightExitsPromptlyWithOnlyProtocolOnStdout() throws Exception {
    try (FakeEngine fake = engineHoldingWaits();
        ThrowawayEngine home = ThrowawayEngine.prepare();
        Spawned mcp = Spawned.start(mcpCommand(), envFor(home, fake), home.workdir)) {
      new McpDialogue(mcp).initialize("2025-11-25");
      startAWait(mcp, fake);
      long sent = System.nanoTime();
      mcp.terminate();
      int code = mcp.waitFor(Duration.ofSeconds(5));
      Duration took = Duration.ofNanos(System.nanoTime() - sent);
      assertThat(code).as("exit code after SIGTERM").isIn(0, 143);
      assertThat(took).isLessThan(Duration.ofSeconds(2));
      for (String line : mcp.stdout().split("\n")) {
        if (!line.isEmpty()) {
          JsonNode frame = JSON.readTree(line);
          assertThat(frame.path("jsonrpc").asText()).isEqualTo("2.0");
        }
      }
      assertThat(mcp.stdout()).doesNotContain("\"held\"");
      assertNoStackTrace(mcp.stdout());
      assertNoStackTrace(mcp.stderr());
    }
  }

  @Test
  void sigtermBeforeAnyRequestLeavesStdoutEmpty() throws Exception {
    try (FakeEngine fake = engineHoldingWaits();
        ThrowawayEngine home = ThrowawayEngine.prepare();
        Spawned mcp = Spawned.start(mcpCommand(), envFor(home, fake), home.workdir)) {
      Thread.sleep(1500);
      mcp.terminate();
      assertThat(mcp.waitFor(Duration.ofSeconds(2))).isIn(0, 143);
      assertThat(mcp.stdout()).isEmpty();
      assertNoStackTrace(mcp.stderr());
    }
  }

  /** Every line on stdout is a whole JSON-RPC frame, and stdout ends at a frame's end. */
  private static void assertOnlyWholeFrames(String stdout) throws Exception {
    assertThat(stdout.isEmpty() || stdout.endsWith("\n")).as("no partial frame").isTrue();
    for (String line : stdout.split("\n")) {
      if (!line.isEmpty()) {
        assertThat(JSON.readTree(line).path("jsonrpc").asText()).isEqualTo("2.0");
      }
    }
  }

  private static void signalledWhileAWaitIsInFlight(String signal, int expectedCode)
      throws Exception {
    try (FakeEngine fake = engineHoldingWaits();
        ThrowawayEngine home = ThrowawayEngine.prepare();
        Spawned mcp = Spawned.start(mcpCommand(), envFor(home, fake), home.workdir)) {
      new McpDialogue(mcp).initialize("2025-11-25");
      startAWait(mcp, fake);
      long sent = System.nanoTime();
      mcp.signal(signal);
      int code = mcp.waitFor(Duration.ofSeconds(5));
      Duration took = Duration.ofNanos(System.nanoTime() - sent);
      assertThat(code).as("exit code after SIG" + signal).isEqualTo(expectedCode);
      assertThat(took)
          .as("exits (a generous bound; the figure is a benchmark)")
          .isLessThan(Duration.ofSeconds(1));
      assertOnlyWholeFrames(mcp.stdout());
      assertThat(mcp.stdout()).as("the wait is abandoned, not answered").doesNotContain("\"held\"");
      assertNoStackTrace(mcp.stderr());
    }
  }

  @Test
  void sigintWhileAWaitIsInFlightExits130WithOnlyWholeFramesOnStdout() throws Exception {
    signalledWhileAWaitIsInFlight("INT", 130);
  }

  @Test
  void sigtermWhileAWaitIsInFlightExits143WithOnlyWholeFramesOnStdout() throws Exception {
    signalledWhileAWaitIsInFlight("TERM", 143);
  }

  @Test
  void sigintAndSigtermStopAnEmbeddedEngineToo() throws Exception {
    for (Map.Entry<String, Integer> signal : Map.of("INT", 130, "TERM", 143).entrySet()) {
      try (ThrowawayEngine home = ThrowawayEngine.prepare();
          Spawned mcp =
              Spawned.start(
                  List.of(Launcher.script().toString(), "mcp", "--embedded"),
                  home.env(),
                  home.workdir)) {
        McpDialogue dialogue = new McpDialogue(mcp);
        dialogue.initialize("2025-11-25");
        JsonNode listed = dialogue.callTool("list_sessions", Map.of());
        assertThat(listed.at("/result/isError").asBoolean(true)).as(listed.toString()).isFalse();
        long sent = System.nanoTime();
        mcp.signal(signal.getKey());
        int code = mcp.waitFor(Duration.ofSeconds(5));
        Duration took = Duration.ofNanos(System.nanoTime() - sent);
        assertThat(code).as("exit code after SIG" + signal.getKey()).isEqualTo(signal.getValue());
        assertThat(took).isLessThan(Duration.ofSeconds(1));
        assertOnlyWholeFrames(mcp.stdout());
        assertNoStackTrace(mcp.stderr());
      }
    }
  }
}
