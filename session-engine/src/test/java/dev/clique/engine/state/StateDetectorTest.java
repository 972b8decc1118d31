package dev.clique.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.catalogue.GenericQuestions;
import dev.clique.engine.testing.MutableClock;
import dev.clique.engine.tmux.Foreground;
import dev.clique.engine.tmux.PaneInfo;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The rules of HTTP-API.md, State, on a clock the test moves. */
class StateDetectorTest {
  private static final CliDefinition SHELL = cli("shell", List.of(), List.of());
  private static final CliDefinition AGENT =
      cli("agent", List.of(Pattern.compile("Allow this\\?")), List.of(Pattern.compile("FATAL")));

  private final MutableClock clock = MutableClock.start();
  private final StateDetector detector = new StateDetector(clock);
  private long history;
  private int cursor;
  private long activity;

  private static CliDefinition cli(String id, List<Pattern> waiting, List<Pattern> errors) {
    return cli(id, waiting, errors, List.of());
  }

  private static CliDefinition cli(
      String id, List<Pattern> waiting, List<Pattern> errors, List<Pattern> relaunch) {
    List<Pattern> none = List.of();
    return new CliDefinition(
        id,
        id,
        id,
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        "",
        "",
        waiting,
        none,
        none,
        none,
        none,
        none,
        errors,
        none,
        relaunch,
        none,
        none,
        none,
        List.of(),
        List.of(),
        GenericQuestions.bundled());
  }

  /** The pane as list-panes shows it; every call with {@code printed} moves its output mark. */
  private PaneInfo pane(boolean printed) {
    if (printed) {
      history++;
      cursor = (cursor + 1) % 50;
      activity = clock.millis() / 1000;
    }
    return new PaneInfo(
        "s", "x", activity, 200, 50, false, 42, false, -1, -1, history, 0, cursor, "", "");
  }

  private void print(String id) {
    detector.observe(id, pane(true));
  }

  private void quiet(String id) {
    detector.observe(id, pane(false));
  }

  private void redrawInPlace(String id) {
    // Same cursor, same history: only tmux's activity second moves.
    activity = clock.millis() / 1000;
    detector.observe(id, pane(false));
  }

  private SessionState state(String id) {
    return detector.verdict(id).state();
  }

  private void startAgent() {
    detector.track("a", AGENT);
    clock.advanceMillis(-60_000);
    detector.observe("a", pane(false)); // alive, last output a minute ago
    clock.advanceMillis(60_000);
  }

  @Test
  void anUntrackedOrVanishedSessionIsStopped() {
    assertThat(state("nobody")).isEqualTo(SessionState.STOPPED);
    startAgent();
    detector.observe("a", null);
    assertThat(detector.verdict("a")).isEqualTo(Verdict.STOPPED);
  }

  @Test
  void outputMakesAPaneWorkingForTwoSecondsThenIdle() {
    startAgent();
    assertThat(state("a")).isEqualTo(SessionState.IDLE);
    print("a");
    assertThat(detector.verdict("a").busy()).isTrue();
    clock.advanceMillis(1_900);
    quiet("a");
    assertThat(state("a")).isEqualTo(SessionState.WORKING);
    clock.advanceMillis(200);
    quiet("a");
    assertThat(state("a")).isEqualTo(SessionState.IDLE);
  }

  @Test
  void aPaneThatRedrawsUnchangedTextIsIdleAfterEightPlusFourSeconds() {
    startAgent();
    print("a");
    detector.screen("a", "clock 10:42\nready");
    long start = clock.millis();
    while (clock.millis() - start < 20_000) {
      clock.advanceMillis(250);
      redrawInPlace("a");
      if (detector.needsScreen("a")) {
        detector.screen("a", "clock 10:42\nready");
      }
      long elapsed = clock.millis() - start;
      if (elapsed < PROOF_AFTER_PLUS_STILL) {
        assertThat(state("a")).as("at %d ms", elapsed).isEqualTo(SessionState.WORKING);
      }
      if (elapsed >= PROOF_AFTER_PLUS_STILL + 1_000) {
        assertThat(state("a")).as("at %d ms", elapsed).isEqualTo(SessionState.IDLE);
      }
    }
  }

  private static final long PROOF_AFTER_PLUS_STILL =
      StateDetector.PROOF_AFTER_MILLIS + StateDetector.PROOF_STILL_MILLIS;

  @Test
  void aPaneWhoseTextKeepsChangingStaysWorking() {
    startAgent();
    int step = 0;
    long start = clock.millis();
    while (clock.millis() - start < 30_000) {
      clock.advanceMillis(250);
      print("a");
      if (detector.needsScreen("a")) {
        detector.screen("a", "step " + step++);
      }
      assertThat(state("a")).isEqualTo(SessionState.WORKING);
    }
  }

  @Test
  void aProvenIdleAnimationThatChangesItsTextWorksAgainForAWhile() {
    startAgent();
    print("a");
    String text = "clock 10:42";
    for (int i = 0; i < 60; i++) {
      clock.advanceMillis(250);
      redrawInPlace("a");
      if (detector.needsScreen("a")) {
        detector.screen("a", text);
      }
    }
    assertThat(state("a")).isEqualTo(SessionState.IDLE);
    text = "clock 10:43";
    clock.advanceMillis(1_000);
    redrawInPlace("a");
    assertThat(detector.needsScreen("a")).isTrue();
    detector.screen("a", text);
    assertThat(state("a")).isEqualTo(SessionState.WORKING);
    for (int i = 0; i < 24; i++) {
      clock.advanceMillis(250);
      redrawInPlace("a");
      if (detector.needsScreen("a")) {
        detector.screen("a", text);
      }
    }
    assertThat(state("a")).isEqualTo(SessionState.IDLE);
  }

  @Test
  void aShellRunningASilentCommandIsWorkingUntilItGetsTheTerminalBack() {
    detector.track("sh", SHELL);
    detector.observe("sh", pane(true)); // the first prompt
    detector.foreground("sh", Foreground.SHELL);
    clock.advanceMillis(100);
    quiet("sh");
    assertThat(state("sh")).as("its own prompt is not work").isEqualTo(SessionState.IDLE);

    detector.input("sh"); // "sleep 3; echo done"
    assertThat(state("sh")).isEqualTo(SessionState.WORKING);
    clock.advanceMillis(50);
    detector.foreground("sh", Foreground.COMMAND);
    for (int i = 0; i < 60; i++) {
      clock.advanceMillis(50);
      quiet("sh");
      detector.foreground("sh", Foreground.COMMAND);
      assertThat(state("sh")).as("silent, still running").isEqualTo(SessionState.WORKING);
    }
    // sleep ends; the shell prints "done" and its prompt and holds the terminal.
    clock.advanceMillis(10);
    detector.foreground("sh", Foreground.SHELL);
    assertThat(state("sh")).as("one sighting is not enough").isEqualTo(SessionState.WORKING);
    clock.advanceMillis(50);
    print("sh");
    detector.foreground("sh", Foreground.SHELL);
    detector.screen("sh", "bash-5.2$ sleep 3; echo done\ndone\nbash-5.2$");
    assertThat(state("sh")).isEqualTo(SessionState.IDLE);
    clock.advanceMillis(200);
    print("sh"); // the prompt, seen late by list-panes
    assertThat(state("sh")).isEqualTo(SessionState.IDLE);
  }

  @Test
  void theShellHoldingTheTerminalForAMomentBetweenTwoCommandsIsNotIdle() {
    detector.track("sh", SHELL);
    detector.observe("sh", pane(true));
    detector.foreground("sh", Foreground.SHELL);
    detector.input("sh");
    clock.advanceMillis(50);
    detector.foreground("sh", Foreground.COMMAND);
    clock.advanceMillis(3_000);
    detector.foreground("sh", Foreground.SHELL); // between "sleep 3" and "sleep 1"
    clock.advanceMillis(20);
    detector.foreground("sh", Foreground.COMMAND);
    clock.advanceMillis(50);
    detector.foreground("sh", Foreground.SHELL);
    assertThat(state("sh")).isEqualTo(SessionState.WORKING);
  }

  @Test
  void outputAtAShellPromptLongAfterItGotTheTerminalIsWork() {
    detector.track("sh", SHELL);
    detector.observe("sh", pane(true));
    detector.foreground("sh", Foreground.SHELL);
    clock.advanceMillis(5_000);
    print("sh"); // a background job prints
    assertThat(state("sh")).isEqualTo(SessionState.WORKING);
    clock.advanceMillis(2_100);
    quiet("sh");
    detector.screen("sh", "job output\nbash-5.2$");
    assertThat(state("sh")).isEqualTo(SessionState.IDLE);
  }

  @Test
  void typedInputIsWorkForTwoSecondsWhenNoCommandTakesIt() {
    detector.track("sh", SHELL);
    detector.observe("sh", pane(true));
    detector.foreground("sh", Foreground.SHELL);
    clock.advanceMillis(100);
    detector.input("sh");
    assertThat(state("sh")).isEqualTo(SessionState.WORKING);
    clock.advanceMillis(2_100);
    assertThat(state("sh")).isEqualTo(SessionState.IDLE);
  }

  @Test
  void aQuietPaneNeedsAScreenBeforeItsVerdictAndABusyOneDoesNot() {
    startAgent();
    assertThat(detector.needsScreen("a")).isTrue();
    detector.screen("a", "ready");
    assertThat(detector.needsScreen("a")).isFalse();
    print("a");
    assertThat(detector.needsScreen("a")).as("busy: nothing to read yet").isFalse();
    clock.advanceMillis(2_100);
    assertThat(detector.needsScreen("a")).isTrue();
  }

  @Test
  void aCliWhoseScreenSaidItWorksIsLookedAtOftenerSoItsDoneIsSeenSoon() {
    List<Pattern> none = List.of();
    CliDefinition streaming =
        new CliDefinition(
            "streamer",
            "streamer",
            "streamer",
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            "",
            "",
            none,
            none,
            none,
            none,
            none,
            none,
            none,
            List.of(Pattern.compile("esc to cancel")),
            none,
            none,
            none,
            none,
            List.of(),
            List.of(),
            GenericQuestions.bundled());
    detector.track("g", streaming);
    detector.observe("g", pane(true));
    clock.advanceMillis(10);
    detector.screen("g", "thinking\n(esc to cancel, 3s)\n");
    assertThat(state("g")).isEqualTo(SessionState.WORKING);
    clock.advanceMillis(StateDetector.WORKING_SCREEN_EVERY_MILLIS - 1);
    assertThat(detector.needsScreen("g")).as("its screen was looked at a moment ago").isFalse();
    clock.advanceMillis(1);
    assertThat(detector.needsScreen("g"))
        .as("no new output mark, yet its line may be gone: a redraw in place leaves the mark")
        .isTrue();
    clock.advanceMillis(10);
    detector.screen("g", "the answer\n> Type your message\n");
    assertThat(state("g")).isEqualTo(SessionState.IDLE);
    clock.advanceMillis(10);
    detector.observe("g", pane(true));
    clock.advanceMillis(StateDetector.WORKING_SCREEN_EVERY_MILLIS);
    assertThat(detector.needsScreen("g"))
        .as("its screen no longer says it works: the slower cadence")
        .isFalse();
  }

  @Test
  void theLastLinesDecideWaitingAndErrorWithTheLineItIsStuckOn() {
    startAgent();
    detector.screen("a", "reading files\n\u2502 Allow this? \u2502\n  1. yes\n  2. no\n");
    assertThat(detector.verdict("a").state()).isEqualTo(SessionState.WAITING);
    assertThat(detector.verdict("a").saying()).isEqualTo("Allow this?");
    detector.screen("a", "Allow this?\nFATAL: out of tokens\n");
    assertThat(detector.verdict("a").state()).as("errors win").isEqualTo(SessionState.ERROR);
    assertThat(detector.verdict("a").saying()).isEqualTo("FATAL: out of tokens");
  }

  @Test
  void anAttentionSignalHoldsUntilThePanePrintsAgain() {
    startAgent();
    detector.screen("a", "thinking done\n> ");
    detector.attention("a", Signal.WAITING);
    Verdict waiting = detector.verdict("a");
    assertThat(waiting.state()).isEqualTo(SessionState.WAITING);
    assertThat(waiting.signal()).isEqualTo(Signal.WAITING);
    assertThat(waiting.saying()).isEqualTo(">");

    clock.advanceMillis(300);
    print("a"); // printed before the signal, seen late: the signal holds
    clock.advanceMillis(2_100);
    quiet("a");
    assertThat(detector.verdict("a").signal()).isEqualTo(Signal.WAITING);

    clock.advanceMillis(1_000);
    print("a"); // prints again
    clock.advanceMillis(2_100);
    quiet("a");
    detector.screen("a", "working on it\n> ");
    assertThat(detector.verdict("a").signal()).isEqualTo(Signal.NONE);
    assertThat(state("a")).isEqualTo(SessionState.IDLE);
  }

  @Test
  void anErrorSignalWinsAndClearEndsIt() {
    startAgent();
    detector.screen("a", "Proceed (y/n)?");
    detector.attention("a", Signal.ERROR);
    assertThat(state("a")).isEqualTo(SessionState.ERROR);
    detector.attention("a", Signal.NONE);
    assertThat(state("a")).isEqualTo(SessionState.WAITING);
  }

  @Test
  void aSignalDoesNotHideWork() {
    startAgent();
    print("a");
    detector.attention("a", Signal.WAITING);
    assertThat(state("a")).isEqualTo(SessionState.WORKING);
    assertThat(detector.verdict("a").signal()).isEqualTo(Signal.WAITING);
  }

  private static Report report(SessionState state, String kind, String detail, String evidence) {
    Attention attention = kind == null ? null : new Attention(kind, detail, 0);
    return new Report(state, attention, StateSource.HOOK, evidence);
  }

  @Test
  void aHookReportHoldsWhileThePaneKeepsPrintingUntilTheNextReport() {
    startAgent();
    detector.report(
        "a", report(SessionState.WAITING, "permission", "Bash: ls", "PermissionRequest Bash"));
    for (int i = 0; i < 40; i++) { // 20 s of a blinking bullet
      clock.advanceMillis(500);
      print("a");
      Verdict verdict = detector.verdict("a");
      assertThat(verdict.state()).as("after %d ms", i * 500).isEqualTo(SessionState.WAITING);
      assertThat(verdict.attention().kind()).isEqualTo("permission");
      assertThat(verdict.attention().detail()).isEqualTo("Bash: ls");
      assertThat(verdict.source()).isEqualTo(new StateSource("hook", "PermissionRequest Bash"));
    }
    detector.report("a", report(SessionState.WORKING, null, null, "PostToolUse Bash"));
    assertThat(detector.verdict("a").state()).isEqualTo(SessionState.WORKING);
    assertThat(detector.verdict("a").attention()).isNull();
    detector.report("a", report(SessionState.IDLE, null, null, "Stop"));
    print("a");
    assertThat(detector.verdict("a").state())
        .as("output proves nothing against Stop")
        .isEqualTo(SessionState.IDLE);
  }

  @Test
  void inputEndsAReportAndThePaneDecidesAgain() {
    startAgent();
    detector.report(
        "a", report(SessionState.WAITING, "permission", "Bash: ls", "PermissionRequest Bash"));
    detector.input("a");
    assertThat(detector.verdict("a").state()).isEqualTo(SessionState.WORKING);
    assertThat(detector.verdict("a").source().authority()).isEqualTo("pane");
    clock.advanceMillis(2_100);
    quiet("a");
    detector.screen("a", "done\n> ");
    assertThat(detector.verdict("a").state()).isEqualTo(SessionState.IDLE);
  }

  @Test
  void theClisOwnQuestionBeatsABulletThatBlinksWhileItWaits() {
    startAgent();
    String[] blink = {
      "● Printing a marker\nAllow this?\n❯ 1. Yes", "  Printing a marker\nAllow this?\n❯ 1. Yes"
    };
    for (int i = 0; i < 8; i++) {
      clock.advanceMillis(250);
      print("a");
      if (detector.needsScreen("a")) {
        detector.screen("a", blink[i % 2]);
      }
    }
    Verdict verdict = detector.verdict("a");
    assertThat(verdict.state()).isEqualTo(SessionState.WAITING);
    assertThat(verdict.attention().kind()).isEqualTo("permission");
    assertThat(verdict.source()).isEqualTo(new StateSource("pane", "Allow this?"));
  }

  @Test
  void theClisOwnQuestionBeatsAHookThatSaidWorking() {
    startAgent();
    detector.report("a", report(SessionState.WORKING, null, null, "PreToolUse Bash"));
    clock.advanceMillis(100);
    detector.screen("a", "Allow this?\n❯ 1. Yes");
    assertThat(detector.verdict("a").state()).isEqualTo(SessionState.WAITING);
  }

  @Test
  void aWorkingReportFollowedByNothingForHalfAMinuteIsNoLongerTrusted() {
    startAgent();
    detector.report("a", report(SessionState.WORKING, null, null, "UserPromptSubmit"));
    detector.screen("a", "> ");
    clock.advanceMillis(29_000);
    quiet("a");
    assertThat(detector.verdict("a").state()).isEqualTo(SessionState.WORKING);
    clock.advanceMillis(2_000);
    quiet("a");
    Verdict verdict = detector.verdict("a");
    assertThat(verdict.state()).isEqualTo(SessionState.IDLE);
    assertThat(verdict.source().authority()).isEqualTo("pane");
    assertThat(verdict.source().evidence()).contains("UserPromptSubmit").contains("30 s");
  }

  @Test
  void aPaneQuestionSaysWhyAndSinceWhen() {
    startAgent();
    long shown = clock.millis();
    detector.screen("a", "Proceed (y/n)?");
    clock.advanceMillis(5_000);
    detector.screen("a", "Proceed (y/n)?");
    Verdict verdict = detector.verdict("a");
    assertThat(verdict.attention()).isEqualTo(new Attention("question", "Proceed (y/n)?", shown));
    assertThat(verdict.source())
        .isEqualTo(new StateSource("pane", "generic question yes-no: Proceed (y/n)?"));
  }

  @Test
  void aLateVaguerReportOfTheSameQuestionKeepsTheFirstsDetail() {
    startAgent();
    detector.report(
        "a", report(SessionState.WAITING, "permission", "Bash: ls", "PermissionRequest Bash"));
    clock.advanceMillis(6_000);
    detector.report(
        "a",
        report(
            SessionState.WAITING,
            "permission",
            "Claude needs your permission",
            "Notification permission_prompt"));
    assertThat(detector.verdict("a").attention().detail()).isEqualTo("Bash: ls");
  }

  @Test
  void theScreenAnEnterLeadsToIsReadAsSoonAsTheInputHasSettled() {
    startAgent();
    detector.screen("a", "Press Enter to continue");
    detector.input("a");
    long enter = clock.millis();
    long waitingAt = -1;
    // The watcher's ticks, 50 ms apart, while the CLI draws its next screen (it prints throughout).
    while (clock.millis() - enter < 2_000 && waitingAt < 0) {
      clock.advanceMillis(50);
      print("a");
      if (detector.needsScreen("a")) {
        detector.screen("a", "Is this a folder you trust?\nAllow this?\n❯ 1. Yes");
      }
      if (state("a") == SessionState.WAITING) {
        waitingAt = clock.millis() - enter;
      }
    }
    assertThat(waitingAt)
        .as("ms from the Enter to the next question read as waiting")
        .isBetween(StateDetector.INPUT_SETTLE_MILLIS, StateDetector.INPUT_SETTLE_MILLIS + 100);
  }

  @Test
  void aWorkingReportOnAScreenThatOnlyBlinksForHalfAMinuteSaysSoInItsSource() {
    startAgent();
    detector.report("a", report(SessionState.WORKING, null, null, "PreToolUse Bash"));
    String[] blink = {"● Printing a marker\n> ", "  Printing a marker\n> "};
    for (int i = 0; i < 62; i++) { // 31 s of a blinking bullet, a screen every half second
      clock.advanceMillis(500);
      print("a");
      detector.screen("a", blink[i % 2]);
      if (i == 50) {
        assertThat(state("a"))
            .as("25 s on, the report still holds")
            .isEqualTo(SessionState.WORKING);
      }
    }
    Verdict verdict = detector.verdict("a");
    assertThat(verdict.source().authority()).isEqualTo("pane");
    assertThat(verdict.source().evidence())
        .startsWith(
            "the CLI said working (PreToolUse Bash), then neither a report nor a new screen")
        .contains("30 s");
  }

  @Test
  void aWorkingReportHoldsWhileTheScreenKeepsChanging() {
    startAgent();
    detector.report("a", report(SessionState.WORKING, null, null, "UserPromptSubmit"));
    for (int i = 0; i < 62; i++) { // 31 s of an answer that grows
      clock.advanceMillis(500);
      print("a");
      detector.screen("a", "answer line " + i + "\n> ");
    }
    assertThat(detector.verdict("a").state()).isEqualTo(SessionState.WORKING);
    assertThat(detector.verdict("a").source())
        .isEqualTo(new StateSource("hook", "UserPromptSubmit"));
  }

  // A shell's questions: the last line, the cursor on it (rows of 50, as pane() has them).

  /** Output on a shell's pane that leaves its cursor on {@code cursorRow}. */
  private void printedTo(String id, int cursorRow) {
    history++;
    cursor = cursorRow;
    activity = clock.millis() / 1000;
    detector.observe(id, pane(false));
  }

  /** A capture of 50 rows: {@code lines} from the top, blank rows under them. */
  private static String rows(String... lines) {
    StringBuilder screen = new StringBuilder();
    for (int i = 0; i < 50; i++) {
      screen.append(i < lines.length ? lines[i] : "").append('\n');
    }
    return screen.toString();
  }

  /** A shell at its first prompt {@code prompt}, seen and captured. */
  private void startShell(String prompt) {
    detector.track("sh", SHELL);
    printedTo("sh", 0);
    detector.foreground("sh", Foreground.SHELL);
    clock.advanceMillis(100);
    quiet("sh");
    detector.screen("sh", rows(prompt));
  }

  /** Something typed runs as a command of its own, that prints and holds the terminal. */
  private void runs(String id, int cursorRow) {
    detector.input(id);
    clock.advanceMillis(50);
    detector.foreground(id, Foreground.COMMAND);
    printedTo(id, cursorRow);
  }

  /** The command ends: the shell takes the terminal back and prints its prompt. */
  private void commandEnds(String id, int promptRow, String... screen) {
    detector.foreground(id, Foreground.SHELL);
    clock.advanceMillis(50);
    detector.foreground(id, Foreground.SHELL);
    printedTo(id, promptRow);
    detector.screen(id, rows(screen));
  }

  /** {@code millis} pass with no output, the command still in the foreground. */
  private void silentCommand(String id, long millis) {
    for (long t = 0; t < millis; t += 100) {
      clock.advanceMillis(100);
      quiet(id);
      detector.foreground(id, Foreground.COMMAND);
    }
  }

  @Test
  void aCommandThatAsksAtTheCursorWaitsOnceQuietThoughItHoldsTheTerminal() {
    startShell("bash-5.2$ ");
    runs("sh", 1); // python3 ask.py: input("Name? ")
    clock.advanceMillis(1_000);
    quiet("sh");
    assertThat(state("sh")).as("just printed").isEqualTo(SessionState.WORKING);
    silentCommand("sh", 1_100);
    assertThat(detector.needsScreen("sh")).as("a silent command may be asking").isTrue();
    detector.screen("sh", rows("bash-5.2$ python3 ask.py", "Name? "));

    Verdict verdict = detector.verdict("sh");
    assertThat(verdict.state()).isEqualTo(SessionState.WAITING);
    assertThat(verdict.attention().kind()).isEqualTo("question");
    assertThat(verdict.attention().detail()).isEqualTo("Name?");
    assertThat(verdict.source())
        .isEqualTo(new StateSource("pane", "generic question short-question: Name?"));

    detector.input("sh"); // "bob" and Enter
    assertThat(state("sh")).as("answered").isEqualTo(SessionState.WORKING);
    clock.advanceMillis(300);
    commandEnds("sh", 2, "bash-5.2$ python3 ask.py", "Name? bob", "bash-5.2$ ");
    clock.advanceMillis(2_100);
    assertThat(state("sh")).isEqualTo(SessionState.IDLE);
  }

  @Test
  void aShellInReadWaitsAndIsIdleAgainOnceAnswered() {
    startShell("bash-5.2$ ");
    detector.input("sh"); // read -p "Continue? " x: a builtin, the shell keeps the terminal
    clock.advanceMillis(50);
    printedTo("sh", 1);
    clock.advanceMillis(2_100);
    quiet("sh");
    detector.foreground("sh", Foreground.SHELL);
    assertThat(detector.needsScreen("sh")).isTrue();
    detector.screen("sh", rows("bash-5.2$ read -p \"Continue? \" x", "Continue? "));
    Verdict verdict = detector.verdict("sh");
    assertThat(verdict.state()).isEqualTo(SessionState.WAITING);
    assertThat(verdict.attention().detail()).isEqualTo("Continue?");

    detector.input("sh"); // y
    clock.advanceMillis(50);
    printedTo("sh", 2);
    detector.screen("sh", rows("bash-5.2$ read -p \"Continue? \" x", "Continue? y", "bash-5.2$ "));
    clock.advanceMillis(2_100);
    assertThat(state("sh")).isEqualTo(SessionState.IDLE);
  }

  @Test
  void aQuestionACommandPrintedAndWentOnFromIsWorkThenIdleAtThePrompt() {
    startShell("bash-5.2$ ");
    runs("sh", 2); // echo "Ready?"; sleep 30: the cursor under "Ready?"
    silentCommand("sh", 5_000);
    detector.screen("sh", rows("bash-5.2$ echo \"Ready?\"; sleep 30", "Ready?"));
    assertThat(state("sh")).isEqualTo(SessionState.WORKING);
    assertThat(detector.verdict("sh").source().evidence()).isEqualTo("a command in the foreground");

    commandEnds("sh", 2, "bash-5.2$ echo \"Ready?\"; sleep 30", "Ready?", "bash-5.2$ ");
    assertThat(state("sh")).isEqualTo(SessionState.IDLE);
  }

  @Test
  void aSilentCommandWhoseLastWordsAreAQuestionAtTheCursorIsTakenToAsk() {
    // printf "Ready? "; sleep 30: what a program that asks shows, so it reads as one (the rule).
    startShell("bash-5.2$ ");
    runs("sh", 1);
    silentCommand("sh", 2_100);
    detector.screen("sh", rows("bash-5.2$ printf \"Ready? \"; sleep 30", "Ready? "));
    assertThat(state("sh")).isEqualTo(SessionState.WAITING);
  }

  @Test
  void aQuestionAboveAShellsLastLineIsNotAsked() {
    startShell("bash-5.2$ ");
    runs("sh", 3);
    silentCommand("sh", 2_100);
    detector.screen(
        "sh", rows("bash-5.2$ ./release.sh", "Proceed (y/n)? y", "uploading 3 files..."));
    assertThat(state("sh")).isEqualTo(SessionState.WORKING);
  }

  @Test
  void aPromptThatLooksLikeAQuestionIsTheShellsPromptNotAQuestion() {
    startShell("ready? ");
    clock.advanceMillis(2_100);
    assertThat(state("sh")).isEqualTo(SessionState.IDLE);

    detector.input("sh"); // read -p "Deploy? " x
    clock.advanceMillis(50);
    printedTo("sh", 1);
    clock.advanceMillis(2_100);
    quiet("sh");
    detector.screen("sh", rows("ready? read -p \"Deploy? \" x", "Deploy? "));
    assertThat(state("sh")).isEqualTo(SessionState.WAITING);

    detector.input("sh");
    clock.advanceMillis(50);
    printedTo("sh", 2);
    detector.screen("sh", rows("ready? read -p \"Deploy? \" x", "Deploy? y", "ready? "));
    clock.advanceMillis(2_100);
    assertThat(state("sh")).isEqualTo(SessionState.IDLE);
  }

  /** Keys a person typed at the pane's terminal: the engine sees only their echo. */
  private void typedByAPerson(String id, int cursorRow) {
    clock.advanceMillis(1_500);
    printedTo(id, cursorRow);
  }

  @Test
  void aReadAPersonTypedWaitsThoughNothingWasSentAndThePromptStaysIdle() {
    startShell("bash-5.2$ ");
    clock.advanceMillis(2_100);
    assertThat(state("sh")).isEqualTo(SessionState.IDLE);

    typedByAPerson("sh", 1); // read -p "Proceed? (y/n) " a: a builtin, the shell keeps it
    clock.advanceMillis(2_100);
    quiet("sh");
    detector.foreground("sh", Foreground.SHELL); // in the terminal's own read
    assertThat(detector.needsScreen("sh")).isTrue();
    detector.screen("sh", rows("bash-5.2$ read -p \"Proceed? (y/n) \" a", "Proceed? (y/n) "));
    Verdict verdict = detector.verdict("sh");
    assertThat(verdict.state()).isEqualTo(SessionState.WAITING);
    assertThat(verdict.attention().detail()).isEqualTo("Proceed? (y/n)");
    assertThat(verdict.source())
        .isEqualTo(new StateSource("pane", "generic question yes-no: Proceed? (y/n)"));

    typedByAPerson("sh", 2); // y
    clock.advanceMillis(2_100);
    quiet("sh");
    detector.foreground("sh", Foreground.SHELL); // a shell whose editor reads plainly (zsh)
    detector.screen(
        "sh", rows("bash-5.2$ read -p \"Proceed? (y/n) \" a", "Proceed? (y/n) y", "bash-5.2$ "));
    assertThat(state("sh")).as("its prompt, as first seen").isEqualTo(SessionState.IDLE);

    // Then python3 -c 'input("Proceed? (y/n) ")', typed too: the same words, asked by a command.
    typedByAPerson("sh", 3);
    detector.foreground("sh", Foreground.COMMAND);
    silentCommand("sh", 2_100);
    assertThat(detector.needsScreen("sh")).isTrue();
    detector.screen(
        "sh",
        rows(
            "bash-5.2$ read -p \"Proceed? (y/n) \" a",
            "Proceed? (y/n) y",
            "bash-5.2$ python3 -c 'input(\"Proceed? (y/n) \")'",
            "Proceed? (y/n) "));
    assertThat(state("sh")).isEqualTo(SessionState.WAITING);
  }

  @Test
  void aPromptChangedInPlaceIsTheShellsOwnWhileItsLineEditorWaits() {
    startShell("bash-5.2$ ");
    typedByAPerson("sh", 1); // PS1='Proceed? (y/n) ': a builtin, the prompt changes in place
    clock.advanceMillis(2_100);
    quiet("sh");
    detector.foreground("sh", Foreground.PROMPT); // readline waits for a key
    detector.screen("sh", rows("bash-5.2$ PS1='Proceed? (y/n) '", "Proceed? (y/n) "));
    Verdict verdict = detector.verdict("sh");
    assertThat(verdict.state()).isEqualTo(SessionState.IDLE);
    assertThat(verdict.source().evidence()).isEqualTo("quiet at: Proceed? (y/n)");

    typedByAPerson("sh", 1); // "ls", not yet Enter: its editor still waits
    clock.advanceMillis(2_100);
    quiet("sh");
    detector.foreground("sh", Foreground.PROMPT);
    detector.screen("sh", rows("bash-5.2$ PS1='Proceed? (y/n) '", "Proceed? (y/n) ls"));
    assertThat(state("sh")).isEqualTo(SessionState.IDLE);
  }

  @Test
  void aReadTypedTheMomentThePromptCameAsksWhereTheLineEditorShowsItself() {
    detector.track("sh", SHELL);
    printedTo("sh", 0);
    detector.foreground("sh", Foreground.PROMPT); // readline waits for a key
    clock.advanceMillis(300);
    printedTo("sh", 1); // read -p "Proceed? (y/n) " a, typed at once: no capture in between
    clock.advanceMillis(2_100);
    quiet("sh");
    detector.foreground("sh", Foreground.SHELL); // in the terminal's own read
    detector.screen("sh", rows("bash-5.2$ read -p \"Proceed? (y/n) \" a", "Proceed? (y/n) "));
    assertThat(state("sh")).isEqualTo(SessionState.WAITING);

    printedTo("sh", 2); // y
    clock.advanceMillis(2_100);
    quiet("sh");
    detector.foreground("sh", Foreground.PROMPT);
    detector.screen(
        "sh", rows("bash-5.2$ read -p \"Proceed? (y/n) \" a", "Proceed? (y/n) y", "bash-5.2$ "));
    assertThat(state("sh")).isEqualTo(SessionState.IDLE);
  }

  @Test
  void whatAPersonTypesAtThePromptIsNeverTakenForIt() {
    startShell("bash-5.2$ ");
    // read -p "Deploy? " x typed, and it asks before any capture: the prompt was learned first.
    typedByAPerson("sh", 0);
    clock.advanceMillis(100);
    printedTo("sh", 1);
    clock.advanceMillis(2_100);
    quiet("sh");
    detector.foreground("sh", Foreground.SHELL);
    detector.screen("sh", rows("bash-5.2$ read -p \"Deploy? \" x", "Deploy? "));
    assertThat(state("sh")).isEqualTo(SessionState.WAITING);
    // Captured again, nothing new: still its question, not a prompt learned from it.
    clock.advanceMillis(1_000);
    detector.screen("sh", rows("bash-5.2$ read -p \"Deploy? \" x", "Deploy? "));
    assertThat(state("sh")).isEqualTo(SessionState.WAITING);
  }

  @Test
  void anErrorOnAShellsScreenWinsOverItsQuestion() {
    startShell("bash-5.2$ ");
    detector.input("sh");
    clock.advanceMillis(50);
    printedTo("sh", 3);
    clock.advanceMillis(2_100);
    quiet("sh");
    detector.screen(
        "sh",
        rows(
            "bash-5.2$ gti status; read -p \"Continue? \" x",
            "bash: gti: command not found",
            "Continue? "));
    assertThat(state("sh")).isEqualTo(SessionState.ERROR);
  }

  @Test
  void aCliWithNoPatternsOfItsOwnWaitsOnEachGenericQuestionOnceQuiet() {
    startAgent(); // its own patterns ask "Allow this?" only
    for (String[] asked :
        List.of(
            new String[] {"Do you want to continue? [Y/n]", "yes-no"},
            new String[] {"Do you want to keep them? (keep)", "do-you-want"},
            new String[] {"Would you like to install the plugins? [all]", "would-you-like"},
            new String[] {"Press Enter to continue", "press-enter"},
            new String[] {"Allow command rm -rf build/", "allow"},
            new String[] {"Deploy where?\n❯ 1. staging\n  2. production", "menu"},
            new String[] {"What is the project name?", "short-question"})) {
      print("a");
      detector.screen("a", asked[0]);
      assertThat(state("a")).as("printing: %s", asked[1]).isEqualTo(SessionState.WORKING);
      clock.advanceMillis(2_100);
      Verdict verdict = detector.verdict("a");
      assertThat(verdict.state()).as(asked[1]).isEqualTo(SessionState.WAITING);
      assertThat(verdict.attention().kind()).isEqualTo("question");
      assertThat(verdict.source().evidence()).startsWith("generic question " + asked[1] + ": ");
    }
  }

  @Test
  void aSessionOfACliTheCatalogueNoLongerKnowsStillSeesTheBundledQuestions() {
    detector.track("gone", null);
    detector.observe("gone", pane(true));
    clock.advanceMillis(2_100);
    quiet("gone");
    detector.screen("gone", "Overwrite? (y/n)");
    assertThat(state("gone")).isEqualTo(SessionState.WAITING);
  }

  @Test
  void theClisOwnSignalsBeatAGenericQuestion() {
    startAgent();
    detector.report("a", report(SessionState.WORKING, null, null, "UserPromptSubmit"));
    detector.screen("a", "Would you like a summary?\n> ");
    clock.advanceMillis(2_100);
    assertThat(detector.verdict("a").source())
        .isEqualTo(new StateSource("hook", "UserPromptSubmit"));

    detector.input("a"); // the report ends; its own pattern names the screen
    clock.advanceMillis(700);
    detector.screen("a", "Do you want to proceed? (y/n)\nAllow this?");
    clock.advanceMillis(2_100);
    Verdict verdict = detector.verdict("a");
    assertThat(verdict.state()).isEqualTo(SessionState.WAITING);
    assertThat(verdict.attention().kind()).isEqualTo("permission");
    assertThat(verdict.source().evidence()).doesNotContain("generic");
  }

  @Test
  void aUsageLimitOnTheScreenIsWaitingWithItsResetUntilTheNextAnswer() {
    CliDefinition codex =
        CliCatalogue.load(null, java.util.Map.of("PATH", "")).find("codex").orElseThrow();
    StateDetector utc = new StateDetector(clock, ZoneOffset.UTC);
    utc.track("c", codex);
    clock.advanceMillis(-60_000);
    utc.observe("c", pane(false));
    clock.advanceMillis(60_000);
    String limited =
        "› Say hello\n"
            + "■ You’ve hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro),"
            + " visit https://chatgpt.com/settings/\n"
            + "usage to purchase more credits or try again at 7:52 PM.\n"
            + "› Ask Codex to do anything\n"
            + "  ← for agents · ? for shortcuts\n";
    utc.screen("c", limited);

    Verdict waiting = utc.verdict("c");
    assertThat(waiting.state()).isEqualTo(SessionState.WAITING);
    assertThat(waiting.attention().kind()).isEqualTo("usage_limit");
    assertThat(waiting.attention().detail()).startsWith("■ You’ve hit your usage limit.");
    assertThat(waiting.attention().resetsAt().atZone(ZoneOffset.UTC).toLocalTime())
        .isEqualTo(LocalTime.of(19, 52));
    assertThat(waiting.attention().resetsAt())
        .isAfter(clock.instant())
        .isBefore(clock.instant().plusSeconds(24 * 3600));

    utc.input("c");
    clock.advanceMillis(1_000);
    utc.observe("c", pane(true));
    utc.screen("c", limited.replace("› Ask", "› Try again\n• The README has one heading.\n› Ask"));
    clock.advanceMillis(StateDetector.BUSY_MILLIS + 100);
    utc.observe("c", pane(false));
    Verdict answered = utc.verdict("c");
    assertThat(answered.state())
        .as("the limit above a later answer is history: %s", answered.source())
        .isEqualTo(SessionState.IDLE);
    assertThat(answered.attention()).isNull();

    // Lifting on another day, Codex names the day with its ordinal.
    StateDetector later = new StateDetector(clock, ZoneOffset.UTC);
    later.track("c", codex);
    clock.advanceMillis(-60_000);
    later.observe("c", pane(false));
    clock.advanceMillis(60_000);
    later.screen("c", limited.replace("7:52 PM", "Dec 4th, 2026 12:13 AM"));
    assertThat(later.verdict("c").attention().resetsAt()).isEqualTo("2026-12-04T00:13:00Z");
  }

  @Test
  void opencodesRetryAfterARateLimitIsAUsageLimitAndAnyOtherRetryAnError() {
    quietForAMinute("o", "opencode");
    // opencode 1.18.33 on a provider's 429, as the real program drew it.
    String retrying =
        "┃  Summarise the log\n"
            + "■⬝⬝⬝⬝⬝⬝⬝ Rate limit reached: this organization's rate limit of 50 requests per"
            + " minute was… [retrying in 1m 48s attempt #1] esc interrupt • OpenCode 1.18.33\n";
    detector.screen("o", retrying);
    Verdict limited = detector.verdict("o");
    assertThat(limited.state()).isEqualTo(SessionState.WAITING);
    assertThat(limited.attention().kind()).isEqualTo("usage_limit");

    detector.screen(
        "o", retrying.replaceAll("Rate limit reached: .*was…", "Bad gateway: the upstream failed"));
    Verdict failing = detector.verdict("o");
    assertThat(failing.state()).isEqualTo(SessionState.ERROR);
  }

  @Test
  void pisLastErrorOnItsVendorsRateLimitIsAUsageLimitAndAnyOtherAnError() {
    quietForAMinute("p", "pi");
    // pi 1.6.0's last words once its retries of an Anthropic 429 are spent.
    String limited =
        "Error: Retry failed after 3 attempts: 429 {\"type\":\"error\",\"error\":{\"type\":"
            + "\"rate_limit_error\",\"message\":\"Rate limit reached: this organization's rate"
            + " limit of 50 requests per minute was exceeded.\"}}\n";
    detector.screen("p", limited);
    Verdict waiting = detector.verdict("p");
    assertThat(waiting.state()).isEqualTo(SessionState.WAITING);
    assertThat(waiting.attention().kind()).isEqualTo("usage_limit");

    detector.screen(
        "p",
        "Error: Retry failed after 3 attempts: 500 {\"type\":\"error\",\"error\":{\"type\":"
            + "\"api_error\",\"message\":\"The scripted server failed on purpose.\"}}\n");
    assertThat(detector.verdict("p").state()).isEqualTo(SessionState.ERROR);
  }

  @Test
  void copilotsSpentRetriesOfA429AreAUsageLimitAndAnEarlierFailureIsHistory() {
    quietForAMinute("g", "copilot");
    // GitHub Copilot CLI 1.0.102, as the real program drew it (the 500 above is history).
    String limited =
        "❯ Summarise the README\n"
            + "✗ Failed to get response from the AI model; retried 5 times (total retry wait time:"
            + " 15.38 seconds) Last error: 500 The scripted model failed.\n"
            + "❯ Summarise the changelog\n"
            + "✗ Failed to get response from the AI model; retried 5 times (total retry wait time:"
            + " 50.47 seconds)\n"
            + "Last error: 429 You've hit your usage limit.\n";
    detector.screen("g", limited);
    Verdict waiting = detector.verdict("g");
    assertThat(waiting.state()).isEqualTo(SessionState.WAITING);
    assertThat(waiting.attention().kind()).isEqualTo("usage_limit");

    detector.screen("g", limited.substring(0, limited.indexOf("❯ Summarise the changelog")));
    assertThat(detector.verdict("g").state()).isEqualTo(SessionState.ERROR);
  }

  /** Session {@code id} of the bundled catalogue's {@code cli}, its pane quiet for a minute. */
  private void quietForAMinute(String id, String cli) {
    detector.track(
        id, CliCatalogue.load(null, java.util.Map.of("PATH", "")).find(cli).orElseThrow());
    clock.advanceMillis(-60_000);
    detector.observe(id, pane(false));
    clock.advanceMillis(60_000);
  }
}
