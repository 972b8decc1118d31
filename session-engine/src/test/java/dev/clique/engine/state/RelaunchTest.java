package dev.clique.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.testing.MutableClock;
import dev.clique.engine.tmux.PaneInfo;
import dev.clique.engine.tmux.PaneProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A CLI that starts itself anew once its folder is trusted (Gemini CLI 0.61.0, with the bundled
 * catalogue's patterns): its old screen takes keys and loses them, so until the new process drew
 * its own the session is working and a send waits.
 */
class RelaunchTest {
  private static final CliDefinition GEMINI =
      CliCatalogue.load(null, Map.of("PATH", "/usr/bin:/bin", "HOME", "/home/dev"))
          .find("gemini")
          .orElseThrow();

  /** Captured from the real program; the old prompt put together from them (see its file). */
  private static final String TRUST = screen("gemini_trust_0_61.txt");

  private static final String RESTARTING = screen("gemini_restarting_0_61.txt");
  private static final String OLD_PROMPT = screen("gemini_old_prompt_after_trust_0_61.txt");
  private static final String NEW_PROMPT = screen("gemini_relaunched_first_screen_0_61.txt");
  private static final String NEW_PROMPT_WITH_BANNER = screen("gemini_relaunched_0_61.txt");

  private final MutableClock clock = MutableClock.start();
  private final StateDetector detector = new StateDetector(clock);
  private long history;

  @BeforeEach
  void onTheTrustScreen() {
    detector.track("g", GEMINI);
    print();
    detector.processes("g", running("100"));
    detector.screen("g", TRUST);
    clock.advanceMillis(3_000);
    quiet();
    assertThat(state()).isEqualTo(SessionState.WAITING);
  }

  @Test
  void fromTheTrustAnswerUntilTheNewProcessDrewItsScreenItWorks() {
    detector.input("g", true);
    assertThat(detector.relaunching("g")).isTrue();
    step(300, RESTARTING, "100");
    assertThat(state()).isEqualTo(SessionState.WORKING);
    assertThat(detector.verdict("g").source().evidence())
        .isEqualTo("it starts itself anew: Gemini CLI is restarting to apply the trust changes...");

    // Its dialog closes and the old prompt shows: it takes keys, and loses them.
    step(400, OLD_PROMPT, "100");
    assertThat(state()).isEqualTo(SessionState.WORKING);
    assertThat(detector.relaunching("g")).isTrue();

    // The old process exits and a new child starts; its screen is not drawn yet.
    step(200, OLD_PROMPT, "200");
    step(1_500, OLD_PROMPT, "200");
    assertThat(state()).isEqualTo(SessionState.WORKING);

    step(300, NEW_PROMPT, "200");
    assertThat(detector.relaunching("g")).isFalse();
    step(700, NEW_PROMPT_WITH_BANNER, "200");
    clock.advanceMillis(2_100);
    quiet();
    assertThat(state()).isEqualTo(SessionState.IDLE);
  }

  @Test
  void aLineDrawnLateOnALoadedMachineFindsTheAnswerStillHeld() {
    detector.input("g", true);
    for (int i = 0; i < 20; i++) {
      step(100, TRUST, "100"); // the question drawn as it was, 2 s on
      assertThat(state()).as("look %d", i).isEqualTo(SessionState.WORKING);
    }
    step(100, RESTARTING, "100");
    step(400, RESTARTING, "200");
    assertThat(detector.relaunching("g")).isTrue();
    step(900, NEW_PROMPT, "200");
    assertThat(detector.relaunching("g")).isFalse();
  }

  @Test
  void notTrustingAnnouncesNothingAndHoldsFiveSecondsAtMost() {
    detector.input("g", true);
    step(300, OLD_PROMPT, "100");
    assertThat(state()).isEqualTo(SessionState.WORKING);
    step(StateDetector.RELAUNCH_LOOK_MILLIS - 299, OLD_PROMPT, "100");
    assertThat(detector.relaunching("g")).isFalse();
  }

  @Test
  void aToolTheOldProcessRunsIsNotItsSuccessor() {
    detector.input("g", true);
    step(100, TRUST, "100 150+ps");
    step(200, RESTARTING, "100 150+ps");
    step(100, RESTARTING, "100 151"); // a twin of its own, run and gone while it still runs
    step(100, RESTARTING, "100");
    step(100, RESTARTING, "100 152+git-rev-parse");
    step(200, OLD_PROMPT, "100 152+git-rev-parse");
    step(100, OLD_PROMPT, "153+ps"); // it ended: a tool that ran before is not its successor
    step(100, OLD_PROMPT, "154+ps");
    assertThat(detector.relaunching("g")).as("no successor yet").isTrue();
    step(300, OLD_PROMPT, "200");
    step(300, OLD_PROMPT, "200");
    step(300, NEW_PROMPT, "200");
    assertThat(detector.relaunching("g")).isFalse();
  }

  @Test
  void theLineStillOnTheNewScreenAnnouncesNoSecondRelaunch() {
    detector.input("g", true);
    step(300, RESTARTING, "100");
    step(400, RESTARTING, "200");
    step(900, NEW_PROMPT, "200");
    assertThat(detector.relaunching("g")).isFalse();
    for (int i = 0; i < 10; i++) {
      step(500, NEW_PROMPT, "200");
      assertThat(detector.relaunching("g")).as("look %d", i).isFalse();
    }
  }

  @Test
  void aRelaunchThatNeverComesHoldsForFiveSecondsAtMost() {
    detector.input("g", true);
    step(300, RESTARTING, "100");
    step(300, OLD_PROMPT, "100"); // the dialog closed before its timer: no relaunch will come
    long until = clock.millis() - 300 + StateDetector.RELAUNCH_WAIT_MILLIS;
    while (clock.millis() < until) {
      assertThat(state()).as("at %d ms", clock.millis() - until).isEqualTo(SessionState.WORKING);
      step(500, OLD_PROMPT, "100");
    }
    step(500, OLD_PROMPT, "100");
    clock.advanceMillis(2_100);
    quiet();
    assertThat(state()).isEqualTo(SessionState.IDLE);
    assertThat(detector.relaunching("g")).isFalse();
  }

  @Test
  void aKeyThatOnlyMovesTheTrustChoiceLeavesItWaiting() {
    detector.input("g", false); // the Down arrow: the question is still asked
    assertThat(detector.relaunching("g")).isFalse();
    String moved = TRUST.replace("│ ● 1.", "│   1.").replace("│   2.", "│ ● 2.");
    step(100, moved, "100");
    step(StateDetector.INPUT_SETTLE_MILLIS, moved, "100");
    clock.advanceMillis(2_100);
    quiet();
    assertThat(state()).isEqualTo(SessionState.WAITING);
  }

  @Test
  void aCliThatNeverRelaunchesIsNotHeldByATrustAnswer() {
    detector.track(
        "c",
        CliCatalogue.load(null, Map.of("PATH", "/usr/bin:/bin", "HOME", "/h"))
            .find("claude")
            .orElseThrow());
    detector.observe("c", pane(true));
    detector.screen("c", TRUST);
    detector.input("c", true);
    assertThat(detector.relaunching("c")).isFalse();
    assertThat(detector.wantsProcesses("c")).isFalse();
  }

  /** Time passes, the pane prints {@code screen}, and the watcher's looks go as they would. */
  private void step(long millis, String screen, String process) {
    clock.advanceMillis(millis);
    print();
    if (detector.wantsProcesses("g")) {
      detector.processes("g", running(process));
    }
    if (detector.needsScreen("g")) {
      detector.screen("g", screen);
    }
  }

  /**
   * What runs under the pane: the CLI's process of pid {@code pids}'s first (a pid under 150 has
   * run a minute, one from 150 on has just started: its new one, a twin or a tool), and a tool it
   * runs (a pid of the form {@code 150+git}).
   */
  private static Map<Long, PaneProcess> running(String pids) {
    Map<Long, PaneProcess> running = new LinkedHashMap<>();
    for (String pid : pids.split(" ")) {
      String[] tool = pid.split("\\+");
      long id = Long.parseLong(tool[0]);
      running.put(
          id,
          new PaneProcess(
              tool.length > 1 ? tool[1] : "node --max-old-space-size=8192 /usr/bin/gemini",
              id < 150 ? 60_000 : 50));
    }
    return running;
  }

  private SessionState state() {
    return detector.verdict("g").state();
  }

  private void print() {
    history++;
    detector.observe("g", pane(true));
  }

  private void quiet() {
    detector.observe("g", pane(false));
  }

  private static String screen(String name) {
    try (var in = RelaunchTest.class.getResourceAsStream("/relaunch/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException | NullPointerException e) {
      throw new IllegalStateException("no test screen " + name, e);
    }
  }

  private PaneInfo pane(boolean printed) {
    long activity = clock.millis() / 1000;
    return new PaneInfo(
        "s",
        "node",
        activity,
        200,
        50,
        false,
        42,
        false,
        -1,
        -1,
        history,
        0,
        (int) history % 50,
        "",
        "");
  }
}
