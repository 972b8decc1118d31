package dev.clique.engine.state;

import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.tmux.Foreground;
import dev.clique.engine.tmux.PaneInfo;
import dev.clique.engine.tmux.PaneProcess;
import java.time.Clock;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides each session's state from what is observed of its pane (HTTP-API.md, State):
 *
 * <ol>
 *   <li>{@code stopped}: no tmux session;
 *   <li>{@code working}: output within the last {@value #BUSY_MILLIS} ms, unless the stretch of
 *       output is older than {@value #PROOF_AFTER_MILLIS} ms and the visible text has not changed
 *       for {@value #PROOF_STILL_MILLIS} ms (an animation while idle is not work). For a {@code
 *       shell} session, a command holding the terminal is working even when silent, and the prompt
 *       the shell prints when it gets the terminal back is not work;
 *   <li>{@code waiting}/{@code error}: a fresh attention signal or what the last lines say. On a
 *       shell's screen a generic question counts only as its last line with the cursor on it, not
 *       the shell's own prompt (at its line editor, or as it showed it), and then also while the
 *       command that asks it holds the terminal, once it is quiet, whoever typed that command;
 *   <li>{@code idle}.
 * </ol>
 *
 * <p>Time comes from the injected clock only. Callers feed observations ({@link #observe}, {@link
 * #foreground}, {@link #screen}, {@link #input}, {@link #attention}) and ask for {@link #verdict}.
 * {@link #needsScreen} says when a screen capture is due: when a pane falls quiet (its last lines
 * may hold a question) and once a second while a long stretch of output has to prove itself.
 * Thread-safe.
 */
public final class StateDetector {
  public static final long BUSY_MILLIS = 2_000;
  public static final long PROOF_AFTER_MILLIS = 8_000;
  public static final long PROOF_STILL_MILLIS = 4_000;

  /** How often the screen is compared while a stretch proves itself. */
  static final long PROOF_EVERY_MILLIS = 1_000;

  /** Output this soon after a shell gets its terminal back is its prompt, not work. */
  static final long PROMPT_GRACE_MILLIS = 1_000;

  /**
   * Between two commands of a list ({@code sleep 1; sleep 1}) the shell holds the terminal for a
   * moment; only a shell seen holding it on two probes this far apart is back at its prompt.
   */
  static final long SHELL_CONFIRM_MILLIS = 40;

  /** Output seen this soon after a signal was printed before it (seen late), and keeps it. */
  static final long SIGNAL_GRACE_MILLIS = 1_000;

  /**
   * How often a busy pane of a CLI with screens of its own is captured: its question may come up
   * while it still animates, and it beats the animation.
   */
  static final long BUSY_SCREEN_EVERY_MILLIS = 500;

  /**
   * How often, instead, while its last screen said it works: the first screen whose status line is
   * gone ends the work (Gemini CLI's answer is done when its line goes). Output is not waited for:
   * a redraw in place within the second of the last output leaves the output mark as it was.
   */
  static final long WORKING_SCREEN_EVERY_MILLIS = 200;

  /**
   * A CLI's own "working" that is followed by neither a report nor a change of its screen for this
   * long is not trusted any more (a hook that never fired, a CLI that hung while its bullet
   * blinks): the pane decides again, and {@code state_source} says so.
   */
  static final long REPORT_QUIET_MILLIS = 30_000;

  /**
   * After input, how long a CLI that says when it works may take to say so (Codex retitles in ~0.1
   * s), and to take down a question it was answered (Gemini CLI: ~0.4 s): input is work meanwhile.
   */
  static final long INPUT_SETTLE_MILLIS = 600;

  /**
   * How long a CLI that said it starts itself anew may take to do so (Gemini CLI: 250 ms, then its
   * clean-up; or never, when its dialog closed first): until a new process runs under the pane or
   * this passed, what it shows takes no input.
   */
  static final long RELAUNCH_WAIT_MILLIS = 5_000;

  /**
   * After its trust question was answered, how long a CLI that starts itself anew then may take to
   * say so (2 s seen under load; a choice of not trusting says nothing, and is held as long); the
   * line may show for only a quarter of a second, so its screen is looked at often meanwhile.
   */
  static final long RELAUNCH_LOOK_MILLIS = 5_000;

  /** How often meanwhile, and until the new process drew its first screen. */
  static final long RELAUNCH_LOOK_EVERY_MILLIS = 100;

  /**
   * A process under the pane that has run this long when the CLI says it starts anew is one of its
   * own; the tools it runs ({@code ps}, {@code git}) end within moments.
   */
  static final long OWN_PROCESS_MILLIS = 1_000;

  /** How long the new process may take to draw its first screen once it replaced the old one. */
  static final long SUCCESSOR_WAIT_MILLIS = 30_000;

  private final Clock clock;

  /** The zone the CLIs show their times in (when a usage limit lifts): the machine's. */
  private final ZoneId zone;

  private final Map<String, Pane> panes = new HashMap<>();

  public StateDetector(Clock clock) {
    this(clock, ZoneId.systemDefault());
  }

  public StateDetector(Clock clock, ZoneId zone) {
    this.clock = clock;
    this.zone = zone;
  }

  /** Starts tracking a session ({@code cli} null when the catalogue no longer knows it). */
  public synchronized void track(String id, CliDefinition cli) {
    panes.computeIfAbsent(id, k -> new Pane(cli));
  }

  public synchronized void forget(String id) {
    panes.remove(id);
  }

  /** The session's pane as {@code list-panes} shows it now; null when it has no tmux session. */
  public synchronized void observe(String id, PaneInfo pane) {
    Pane p = panes.get(id);
    if (p == null) {
      return;
    }
    long now = clock.millis();
    if (pane == null || pane.dead()) {
      if (p.alive) {
        p.stop();
      }
      return;
    }
    p.retitled(pane.title(), now);
    p.rows = pane.rows();
    if (!p.alive) {
      p.alive = true;
      p.mark = pane.mark();
      if (pane.activity() > 0) {
        // tmux keeps whole seconds: the output may have come up to a second later.
        p.output(Math.min(now, pane.activity() * 1000 + 999));
      }
      return;
    }
    PaneInfo.OutputMark mark = pane.mark();
    if (!mark.equals(p.mark)) {
      p.mark = mark;
      p.output(now);
    }
  }

  /** Who holds the pane's terminal; only {@code shell} sessions use it. */
  public synchronized void foreground(String id, Foreground foreground) {
    Pane p = panes.get(id);
    if (p == null || !p.shell || !p.alive) {
      return;
    }
    long now = clock.millis();
    if (foreground != Foreground.UNKNOWN) {
      p.atLineEditor = foreground == Foreground.PROMPT;
      p.lineEditorShows |= p.atLineEditor;
    }
    switch (foreground) {
      case COMMAND -> {
        p.commandRunning = true;
        p.shellSeenAt = -1;
      }
      case PROMPT, SHELL -> {
        if (p.commandRunning) {
          if (p.shellSeenAt < 0) {
            p.shellSeenAt = now;
          } else if (now - p.shellSeenAt >= SHELL_CONFIRM_MILLIS) {
            p.commandRunning = false;
            p.shellSince = p.shellSeenAt;
            p.shellSeenAt = -1;
          }
        } else if (p.shellSince < 0) {
          p.shellSince = now;
        }
      }
      case UNKNOWN -> {
        // nothing learned
      }
    }
  }

  /**
   * The processes under the pane's now, asked while {@link #wantsProcesses} says so: a CLI that
   * said it starts itself anew has done so once a process of the same command line as one of its
   * own that ended runs under a new pid (the tools it runs come and go beside it).
   */
  public synchronized void processes(String id, Map<Long, PaneProcess> running) {
    Pane p = panes.get(id);
    if (p != null && p.alive) {
      p.relaunch.processes(Map.copyOf(running), clock.millis());
    }
  }

  /**
   * Whether the processes under the session's pane should be watched: its CLI said it starts itself
   * anew, or it may be about to (its trust question was answered), and those before are what the
   * new ones are told from.
   */
  public synchronized boolean wantsProcesses(String id) {
    Pane p = panes.get(id);
    long now = clock.millis();
    return p != null && p.alive && p.relaunch.holds(now);
  }

  /** Whether the session's CLI is one that starts itself anew once its folder is trusted. */
  public synchronized boolean canRelaunch(String id) {
    Pane p = panes.get(id);
    return p != null && p.alive && p.cli != null && !p.cli.relaunch().isEmpty();
  }

  /**
   * Whether the session's CLI is starting itself anew: what it shows meanwhile takes no input, so a
   * send waits for the new one (see {@link #RELAUNCH_WAIT_MILLIS}).
   */
  public synchronized boolean relaunching(String id) {
    Pane p = panes.get(id);
    return p != null && p.alive && p.relaunch.holds(clock.millis());
  }

  /** Something was typed into the pane: it will echo, and a command may start. */
  public synchronized void input(String id) {
    input(id, false);
  }

  /**
   * As {@link #input(String)}; {@code submits}: the keys answer what the screen asks (Enter, a
   * choice's digit), so an answered trust question may make the CLI start itself anew.
   */
  public synchronized void input(String id, boolean submits) {
    Pane p = panes.get(id);
    if (p == null) {
      return;
    }
    long now = clock.millis();
    p.inputAt = now;
    p.report = null; // what the CLI said held until now: the person answered it
    if (submits
        && p.cli != null
        && !p.cli.relaunch().isEmpty()
        && p.reading != null
        && "trust".equals(p.reading.attention())) {
      p.relaunch.answered(now); // trusting the folder is what makes such a CLI start anew
    }
    if (!p.shell) {
      p.output(now);
    }
  }

  /** What the CLI's own signal says (a hook, a record); it holds until the next one or input. */
  public synchronized void report(String id, Report report) {
    Pane p = panes.get(id);
    if (p == null) {
      return;
    }
    Report held = p.report;
    if (held != null
        && held.state() == SessionState.WAITING
        && report.state() == SessionState.WAITING
        && held.attention() != null
        && report.attention() != null
        && held.attention().kind().equals(report.attention().kind())) {
      return; // the same question again, in vaguer words (a late notification): the first holds
    }
    p.report = report;
    p.reportAt = clock.millis();
  }

  /** The visible screen, as captured now. */
  public synchronized void screen(String id, String captured) {
    Pane p = panes.get(id);
    if (p == null) {
      return;
    }
    long now = clock.millis();
    List<String> lines = ScreenLines.meaningful(captured);
    int hash = ScreenLines.steady(lines).hashCode();
    if (p.inProof(now)) {
      if (p.proofStretch != p.busySince) {
        p.proofStretch = p.busySince;
        p.stillSince = now;
      } else if (hash != p.screenHash) {
        p.stillSince = now;
      }
    }
    if (p.screenAt < 0 || hash != p.screenHash) {
      p.screenChangedAt = now;
    }
    p.screenHash = hash;
    p.screenAt = now;
    Reading reading = ScreenReader.read(lines, p.cli);
    p.relaunch.screen(ScreenReader.relaunch(lines, p.cli), now, p.screenChangedAt);
    if (p.shell) {
      p.asksAtCursor(captured, reading);
    }
    if (p.reading == null
        || p.reading.kind() != reading.kind()
        || !p.reading.line().equals(reading.line())) {
      p.readingSince = now;
    }
    p.reading = reading;
  }

  /** An attention signal from the session's hooks; {@link Signal#NONE} clears it. */
  public synchronized void attention(String id, Signal signal) {
    Pane p = panes.get(id);
    if (p == null) {
      return;
    }
    p.signal = signal;
    p.signalAt = clock.millis();
  }

  /** Whether a screen capture is due before the verdict can be trusted. */
  public synchronized boolean needsScreen(String id) {
    return needsScreen(panes.get(id), clock.millis());
  }

  /**
   * The sessions of {@code ids} whose screen is due ({@link #needsScreen}), asked at once: the
   * watcher's every tick asks it of every session.
   */
  public synchronized List<String> needingScreen(List<String> ids) {
    long now = clock.millis();
    List<String> due = List.of();
    for (String id : ids) {
      if (needsScreen(panes.get(id), now)) {
        if (due.isEmpty()) {
          due = new ArrayList<>();
        }
        due.add(id);
      }
    }
    return due;
  }

  private static boolean needsScreen(Pane p, long now) {
    if (p == null || !p.alive) {
      return false;
    }
    if (p.relaunch.holds(now)
        && (p.screenAt < 0 || now - p.screenAt >= RELAUNCH_LOOK_EVERY_MILLIS)) {
      return true; // the line that says it starts anew, then the new process's first screen
    }
    if (p.report != null && p.reportAt >= p.screenAt) {
      // The CLI just told of itself (a hook): its screen may have turned with it (Copilot's last
      // failed retry draws its error as it fires its hook), so the screen counts at once.
      return true;
    }
    if (p.inProof(now)) {
      return p.screenAt < 0 || now - p.screenAt >= PROOF_EVERY_MILLIS;
    }
    if (p.screenAt < p.titleTurnedAt) {
      return true; // it stopped working, or began to ask: what the screen says now counts at once
    }
    if (p.inputAt >= 0
        && now - p.inputAt > INPUT_SETTLE_MILLIS
        && p.screenAt <= p.inputAt + INPUT_SETTLE_MILLIS) {
      return true; // the screen the input led to (the next first-run question) counts from now
    }
    if (p.cli != null && p.cli.hasOwnScreens() && p.busy(now)) {
      boolean saidWork = p.reading != null && p.reading.kind() == Reading.Kind.WORKING;
      long every = saidWork ? WORKING_SCREEN_EVERY_MILLIS : BUSY_SCREEN_EVERY_MILLIS;
      return p.screenAt < 0 || now - p.screenAt >= every;
    }
    // A capture in the same millisecond as the output may have missed it: take another. A shell's
    // command that fell silent is looked at too: it may be asking.
    boolean stale = p.screenAt < 0 || p.screenAt <= p.lastOutput || p.screenAt < p.shellSince;
    return stale && !p.active(now);
  }

  /**
   * Whether the session is about to change in a way that a slow look would see late: a shell
   * running a command or just given one, or a pane busy now.
   */
  public synchronized boolean settling(String id) {
    return settling(panes.get(id), clock.millis());
  }

  private static boolean settling(Pane p, long now) {
    if (p == null || !p.alive) {
      return false;
    }
    return p.commandRunning
        || (p.inputAt >= 0 && now - p.inputAt <= BUSY_MILLIS)
        || p.busy(now)
        || p.relaunch.holds(now);
  }

  /**
   * Whether the verdict may turn with time alone, nothing new seen: a CLI's own "working" is not
   * trusted once the pane has been still for long ({@value #REPORT_QUIET_MILLIS} ms).
   */
  public synchronized boolean timed(String id) {
    return timed(panes.get(id));
  }

  private static boolean timed(Pane p) {
    return p != null && p.alive && p.report != null && p.report.state() == SessionState.WORKING;
  }

  /**
   * How soon the watcher should look again at sessions {@code ids}, asked at once (one lock for all
   * of them, on every tick).
   *
   * @param settling whether one of them {@link #settling settles}
   * @param timed whether one's verdict may turn with time alone ({@link #timed})
   */
  public record Pace(boolean settling, boolean timed) {}

  public synchronized Pace pace(List<String> ids) {
    long now = clock.millis();
    boolean settling = false;
    boolean timed = false;
    for (String id : ids) {
      Pane p = panes.get(id);
      settling = settling || settling(p, now);
      timed = timed || timed(p);
    }
    return new Pace(settling, timed);
  }

  /** Whether the session's foreground should be probed: it is a shell. */
  public synchronized boolean wantsForeground(String id) {
    Pane p = panes.get(id);
    return p != null && p.shell && p.alive;
  }

  /**
   * What session {@code id} is doing now, and why: the first of the {@linkplain #RULES rules} that
   * decides, asked in their order.
   */
  public synchronized Verdict verdict(String id) {
    Pane p = panes.get(id);
    if (p == null || !p.alive) {
      return Verdict.STOPPED;
    }
    Look look = new Look(p, clock.millis());
    for (Rule rule : rules) {
      Verdict verdict = rule.decide(look);
      if (verdict != null) {
        return verdict;
      }
    }
    throw new IllegalStateException("no rule decided: the last one always does");
  }

  /** One rule of {@link #verdict}: its verdict, or null when it leaves the pane to the next. */
  @FunctionalInterface
  private interface Rule {
    Verdict decide(Look look);
  }

  /**
   * The rules, in the order they are asked (ARCHITECTURE.md, "How a state is decided"): a CLI
   * starting itself anew; the CLI's own signal (its hook's report); its terminal title; work (its
   * screen says so, or output and input prove it); a question or an error (its screen's own
   * patterns, the questions any program asks, an attention signal); else quiet.
   */
  private final List<Rule> rules =
      List.of(
          this::relaunching,
          this::ownReport,
          this::title,
          this::working,
          this::asking,
          this::quiet);

  /** What every rule reads of one pane at one moment, worked out once. */
  private static final class Look {
    final Pane p;
    final long now;
    final long lastOutput;
    final Signal signal;

    /** What the screen says that is current: a question answered a moment ago is not. */
    final Reading reading;

    /** The CLI's own question or error, on a screen taken since the last input settled. */
    final boolean ownScreen;

    /** The CLI's own "working", on a screen taken since the last input. */
    final boolean ownWork;

    /** A shell's screen asks a question the cursor sits on. */
    final boolean shellAsks;

    /** Why a "working" report is distrusted (said before what is believed instead), or null. */
    final String staleReport;

    Look(Pane p, long now) {
      this.p = p;
      this.now = now;
      this.lastOutput = Math.max(0, p.lastOutput);
      this.signal = p.freshSignal();
      Reading reading = p.reading == null ? Reading.nothing("") : p.reading;
      // The CLI's own question, on a screen taken since the last input: it beats output that only
      // looks like work (a bullet that blinks while it waits) and a hook that said "working".
      boolean fresh = reading.own() && p.screenAt > p.inputAt;
      // A question answered a moment ago may still be drawn: only a later screen asks it again.
      this.ownScreen =
          fresh
              && (p.inputAt < 0 || p.screenAt > p.inputAt + INPUT_SETTLE_MILLIS)
              && (reading.kind() == Reading.Kind.WAITING || reading.kind() == Reading.Kind.ERROR);
      this.ownWork = fresh && reading.kind() == Reading.Kind.WORKING;
      if (reading.own() && !ownScreen && !ownWork) {
        reading = Reading.nothing(reading.last()); // its own words, but not (or no longer) current
      }
      this.shellAsks =
          p.shell && !reading.generic().isEmpty() && p.questionAtCursor && p.screenAt > p.inputAt;
      if (p.shell && !reading.generic().isEmpty() && !shellAsks) {
        reading = Reading.nothing(reading.last()); // output the shell went on from, or its prompt
      }
      this.reading = reading;
      Report report = p.report;
      this.staleReport =
          report != null && report.state() == SessionState.WORKING && p.reportQuiet(now)
              ? "the CLI said working ("
                  + report.evidence()
                  + "), then neither a report nor a new screen for over 30 s: "
              : null;
    }

    /** What a verdict from the pane says first: why a report is not believed, if it is not. */
    String prefix() {
      return staleReport == null ? "" : staleReport;
    }
  }

  /** A CLI starting itself anew works until its new process drew a screen. */
  private Verdict relaunching(Look look) {
    Pane p = look.p;
    return p.relaunch.holds(look.now)
        ? Verdict.working(
            look.signal, look.lastOutput, new StateSource(StateSource.PANE, p.relaunch.why()))
        : null;
  }

  /**
   * The CLI's own report holds until the next one, unless it said "working" and then its screen
   * asks, or it fell still for too long.
   */
  private Verdict ownReport(Look look) {
    Report report = look.p.report;
    if (report == null
        || look.staleReport != null
        || (report.state() == SessionState.WORKING && look.ownScreen)) {
      return null;
    }
    return fromReport(report, look.p.reportAt, look.reading, look.lastOutput);
  }

  /**
   * A CLI whose title says it asks or works. A usage limit on its screen is what it waits for,
   * whatever its title says of the menu under it.
   */
  private Verdict title(Look look) {
    Pane p = look.p;
    boolean limited = look.ownScreen && Attention.USAGE_LIMIT.equals(look.reading.attention());
    if (p.cli == null || !p.cli.hasTitleStates() || look.staleReport != null || limited) {
      return null;
    }
    return fromTitle(p, look.now, look.reading, look.ownScreen, look.signal, look.lastOutput);
  }

  /**
   * Work, unless the CLI's own question is on its screen. A CLI that says it works (its title, or a
   * status line of its own) is believed: its output alone (a redraw, a blink, a clock) is not work.
   * The others prove work by output; a shell's command that asks holds the terminal while it waits,
   * so only output or input is work then.
   */
  private Verdict working(Look look) {
    Pane p = look.p;
    boolean saysWhenItWorks =
        p.cli != null && (p.cli.hasTitleStates() || !p.cli.working().isEmpty());
    boolean busy =
        saysWhenItWorks
            ? p.typedRecently(look.now)
            : look.shellAsks ? p.active(look.now) : p.busy(look.now);
    if (!(busy || look.ownWork) || look.ownScreen) {
      return null;
    }
    String evidence =
        look.ownWork
            ? "the screen says it works"
            : p.shell && p.commandRunning ? "a command in the foreground" : "output";
    return Verdict.working(
        look.signal, look.lastOutput, new StateSource(StateSource.PANE, look.prefix() + evidence));
  }

  /**
   * A question or an error: on the screen (the CLI's own patterns, or the questions any program
   * asks), or said by an attention signal.
   */
  private Verdict asking(Look look) {
    Pane p = look.p;
    Reading reading = look.reading;
    Signal signal = look.signal;
    boolean error = signal == Signal.ERROR || reading.kind() == Reading.Kind.ERROR;
    boolean waiting = signal == Signal.WAITING || reading.kind() == Reading.Kind.WAITING;
    if (!error && !waiting) {
      return null;
    }
    String saying = reading.kind() == Reading.Kind.NOTHING ? reading.last() : reading.line();
    boolean fromSignal = reading.kind() == Reading.Kind.NOTHING || signal == Signal.ERROR;
    String kind =
        error ? "error" : reading.attention().isEmpty() ? "question" : reading.attention();
    long since = fromSignal ? p.signalAt : p.readingSince;
    String matched =
        reading.generic().isEmpty() || error
            ? saying
            : "generic question " + reading.generic() + ": " + saying;
    StateSource source =
        fromSignal && signal != Signal.NONE
            ? new StateSource(StateSource.HOOK, "attention " + signal.wireName())
            : new StateSource(StateSource.PANE, look.prefix() + matched);
    return new Verdict(
        error ? SessionState.ERROR : SessionState.WAITING,
        false,
        signal,
        saying,
        look.lastOutput,
        new Attention(
            kind,
            fromSignal ? saying : reading.why(),
            Math.max(0, since),
            fromSignal ? null : ResetTime.parse(reading.resets(), clock.instant(), zone)),
        source);
  }

  /** Nothing above decided: the pane is quiet. */
  private Verdict quiet(Look look) {
    String last = look.reading.last();
    String quiet = last.isEmpty() ? "quiet" : "quiet at: " + last;
    return new Verdict(
        SessionState.IDLE,
        false,
        look.signal,
        "",
        look.lastOutput,
        null,
        new StateSource(StateSource.PANE, look.prefix() + quiet));
  }

  /**
   * What the CLI's terminal title says: a person is asked, or it works. Null when it says neither,
   * and the screen decides (with the title's ticking not taken for work).
   */
  private static Verdict fromTitle(
      Pane p, long now, Reading reading, boolean ownScreen, Signal signal, long lastOutput) {
    String title = p.title == null ? "" : p.title;
    String asked = match(p.cli.titleWaiting(), title);
    if (asked != null) {
      String detail =
          ownScreen && reading.kind() == Reading.Kind.WAITING ? reading.why() : title.strip();
      return new Verdict(
          SessionState.WAITING,
          false,
          signal,
          detail,
          lastOutput,
          new Attention("permission", detail, p.titleSince(now, asked)),
          new StateSource(StateSource.PANE, "title: " + asked));
    }
    if (match(p.cli.titleWorking(), title) != null && !ownScreen) {
      return Verdict.working(
          signal, lastOutput, new StateSource(StateSource.PANE, "title: working"));
    }
    return null;
  }

  private static String match(List<Pattern> patterns, String text) {
    for (Pattern pattern : patterns) {
      Matcher matcher = pattern.matcher(text);
      if (matcher.find()) {
        return matcher.group();
      }
    }
    return null;
  }

  private static Verdict fromReport(
      Report report, long reportAt, Reading reading, long lastOutput) {
    SessionState state = report.state();
    Attention attention = report.attention();
    boolean needsPerson = state == SessionState.WAITING || state == SessionState.ERROR;
    if (needsPerson && attention == null) {
      attention =
          new Attention(
              state == SessionState.ERROR ? "error" : "question", reading.line(), reportAt);
    }
    Signal signal =
        switch (state) {
          case WAITING -> Signal.WAITING;
          case ERROR -> Signal.ERROR;
          default -> Signal.NONE;
        };
    String saying = needsPerson ? attention.detail() : "";
    return new Verdict(
        state,
        state == SessionState.WORKING,
        signal,
        saying,
        lastOutput,
        needsPerson ? attention : null,
        report.source());
  }

  /** What is remembered of one pane between observations. */
  private static final class Pane {
    final CliDefinition cli;
    final boolean shell;

    boolean alive;
    PaneInfo.OutputMark mark;
    long lastOutput = -1;
    long busySince = -1;
    long inputAt = -1;

    boolean commandRunning;
    long shellSince = -1;
    long shellSeenAt = -1;

    /** The pane's height: the cursor's row is found from the bottom of a capture. */
    int rows;

    /** The last screen's last line is a question the cursor sits on, and not the prompt. */
    boolean questionAtCursor;

    /** At the last probe the shell held the terminal and waited for a key in its line editor. */
    boolean atLineEditor;

    /**
     * The shell was seen waiting in its line editor once: its editor shows itself (bash's readline,
     * fish), so holding the terminal without it is not being at its prompt.
     */
    boolean lineEditorShows;

    /**
     * What the shell showed at the cursor when it last got the terminal back (or was first seen),
     * before anything else was printed: its prompt.
     */
    String prompt;

    long screenAt = -1;
    long screenChangedAt = -1;
    int screenHash;
    Reading reading;
    long proofStretch = -1;
    long stillSince = -1;

    Signal signal = Signal.NONE;
    long signalAt = -1;

    Report report;
    long reportAt = -1;
    long readingSince = -1;
    String title = "";
    String titleAsked;
    long titleAskedSince = -1;

    long titleTurnedAt = -1;

    final Relaunch relaunch = new Relaunch();

    /** A new title; when it turns from one kind to another (working, asking, neither), noted. */
    void retitled(String next, long now) {
      String before = title;
      title = next == null ? "" : next;
      if (cli == null || !cli.hasTitleStates() || title.equals(before)) {
        return;
      }
      if (titleKind(before) != titleKind(title)) {
        titleTurnedAt = now;
      }
    }

    private int titleKind(String text) {
      if (match(cli.titleWaiting(), text) != null) {
        return 2;
      }
      return match(cli.titleWorking(), text) != null ? 1 : 0;
    }

    /** Since when the title has asked {@code asked}, as first seen. */
    long titleSince(long now, String asked) {
      if (!asked.equals(titleAsked)) {
        titleAsked = asked;
        titleAskedSince = now;
      }
      return titleAskedSince;
    }

    /** Something was typed a moment ago, and the CLI may not have retitled yet. */
    boolean typedRecently(long now) {
      return inputAt >= 0 && now - inputAt <= INPUT_SETTLE_MILLIS;
    }

    Pane(CliDefinition cli) {
      this.cli = cli;
      this.shell = cli != null && cli.isShell();
    }

    /**
     * Notes whether a shell's screen asks: a program that asks waits right after its question (the
     * cursor on that line), while a line a command printed and went on from has the cursor under
     * it. The line at the cursor is the shell's own, never a question, when
     *
     * <ul>
     *   <li>the shell holds the terminal and waits for a key in its line editor: bash's readline
     *       and fish wait in {@code select}/{@code poll}, while a builtin that asks ({@code read
     *       -p}) waits in a plain read of the terminal; or
     *   <li>it begins with the shell's prompt (with what is being typed after it): what the shell
     *       showed at the cursor when it got the terminal back, or was first seen, before anything
     *       else was printed or sent, and, for a shell whose editor shows itself, while it waited
     *       there. This is what tells the prompt of a shell whose editor reads plainly (zsh, dash),
     *       and that of a shell started inside it, from a question.
     * </ul>
     *
     * Who typed the command does not matter: a person's keys echo as output like any, and a
     * question a person typed at the keyboard asks as one sent through clique does.
     */
    void asksAtCursor(String captured, Reading reading) {
      boolean atCursor =
          ScreenLines.cursorOnLastText(captured, mark == null ? -1 : mark.cursorY(), rows);
      String line = reading.last();
      boolean atItsEditor = !commandRunning && atLineEditor;
      boolean onlyItsPromptSince = lastOutput <= shellSince + PROMPT_GRACE_MILLIS;
      if (atCursor
          && !commandRunning
          && shellSince >= 0
          && inputAt < shellSince
          && onlyItsPromptSince
          && (atItsEditor || !lineEditorShows)) {
        prompt = line;
      }
      questionAtCursor = atCursor && !atItsEditor && !beginsWithPrompt(line);
    }

    private boolean beginsWithPrompt(String line) {
      return prompt != null
          && (line.equals(prompt) || !prompt.isEmpty() && line.startsWith(prompt));
    }

    void output(long at) {
      if (lastOutput < 0 || at - lastOutput > BUSY_MILLIS) {
        busySince = at;
      }
      lastOutput = Math.max(lastOutput, at);
    }

    void stop() {
      alive = false;
      mark = null;
      inputAt = -1;
      commandRunning = false;
      shellSince = -1;
      shellSeenAt = -1;
      screenAt = -1;
      reading = null;
      questionAtCursor = false;
      atLineEditor = false;
      lineEditorShows = false;
      prompt = null;
      proofStretch = -1;
      signal = Signal.NONE;
      report = null;
      relaunch.clear();
    }

    /**
     * A "working" report followed by neither another report nor a change of the screen (its
     * animations aside; output, before any screen was taken) for a long time.
     */
    boolean reportQuiet(long now) {
      long changed = screenAt < 0 ? lastOutput : screenChangedAt;
      return now - Math.max(reportAt, changed) > REPORT_QUIET_MILLIS;
    }

    /** Output recent enough to be work, before any proof; a shell's prompt does not count. */
    boolean recentOutput(long now) {
      if (lastOutput < 0 || now - lastOutput > BUSY_MILLIS) {
        return false;
      }
      return !shell || shellSince < 0 || lastOutput > shellSince + PROMPT_GRACE_MILLIS;
    }

    boolean inProof(long now) {
      return alive && !commandRunning && recentOutput(now) && now - busySince >= PROOF_AFTER_MILLIS;
    }

    boolean provenStill(long now) {
      return inProof(now) && proofStretch == busySince && now - stillSince >= PROOF_STILL_MILLIS;
    }

    boolean busy(long now) {
      return alive && ((shell && commandRunning) || active(now));
    }

    /** Output or input now, whoever holds the terminal. */
    boolean active(long now) {
      if (!alive) {
        return false;
      }
      boolean input =
          inputAt >= 0 && now - inputAt <= BUSY_MILLIS && (!shell || inputAt >= shellSince);
      return input || (recentOutput(now) && !provenStill(now));
    }

    Signal freshSignal() {
      if (signal == Signal.NONE) {
        return Signal.NONE;
      }
      return lastOutput > signalAt + SIGNAL_GRACE_MILLIS ? Signal.NONE : signal;
    }
  }

  /**
   * A CLI that starts itself anew once its trust question is answered (Gemini CLI, Qwen Code: it
   * exits and its parent starts a new process): from the answer until the line that says so, and
   * from that line until a new process runs under the pane and the new one drew a screen (or
   * plainly it did not happen), the screen is the old process's, and what is typed into it is lost.
   */
  private static final class Relaunch {
    /** When input answered its trust question (-1: none lately). */
    long answeredAt = -1;

    /** When the line was first seen (-1: no relaunch announced), and the line. */
    long since = -1;

    String line = "";

    /** The processes at the last look before the line, and when (-1: never). */
    Map<Long, PaneProcess> known;

    long knownAt = -1;

    /**
     * The CLI's own processes before the line: those that had run a while by then, not the tools it
     * runs and ends ({@code ps}, {@code git}: again and again with the same command line). Null:
     * not known yet; the next look gives them.
     */
    Map<Long, String> before;

    /** A process that may be one of them started anew, and when it was first seen (-1: none). */
    long candidate = -1;

    long candidateAt = -1;

    /** When one of them was first seen started anew, once it was still there a look later. */
    long replacedAt = -1;

    /** When a screen unlike the one before was last captured. */
    long screenChangedAt = -1;

    /** Off once a relaunch was noted, until a screen without the line: one line, one relaunch. */
    boolean armed = true;

    void answered(long now) {
      answeredAt = now;
    }

    void screen(String saying, long now, long changedAt) {
      screenChangedAt = changedAt;
      if (saying == null) {
        armed = armed || since < 0;
      } else if (armed && since < 0) {
        armed = false;
        since = now;
        line = saying;
        // Processes looked at a moment ago are those that drew the line; older ones may not be.
        boolean fresh = knownAt >= 0 && now - knownAt <= RELAUNCH_LOOK_EVERY_MILLIS;
        before = fresh ? own(known) : null;
        answeredAt = -1;
        candidate = -1;
        replacedAt = -1;
      }
      if (since >= 0 && !pending(now)) {
        clear();
      }
    }

    /** The command lines of those of {@code running} that have run a while. */
    private static Map<Long, String> own(Map<Long, PaneProcess> running) {
      Map<Long, String> own = new HashMap<>();
      running.forEach(
          (pid, process) -> {
            if (process.ageMillis() >= OWN_PROCESS_MILLIS && !process.commandLine().isEmpty()) {
              own.put(pid, process.commandLine());
            }
          });
      return own;
    }

    void processes(Map<Long, PaneProcess> running, long now) {
      if (since < 0) {
        known = running;
        knownAt = now;
      } else if (before == null) {
        before = own(running);
      } else if (replacedAt < 0) {
        if (candidate >= 0 && running.containsKey(candidate)) {
          if (now - candidateAt >= RELAUNCH_LOOK_EVERY_MILLIS) {
            replacedAt = candidateAt; // it stayed: a successor, not a tool run and gone
          }
        } else {
          candidate = startedAnew(running);
          candidateAt = now;
        }
      }
    }

    /**
     * A process of the same command line as one of the CLI's own that has ended, under a new pid;
     * -1 when none.
     */
    private long startedAnew(Map<Long, PaneProcess> running) {
      for (Map.Entry<Long, PaneProcess> now : running.entrySet()) {
        if (before.containsKey(now.getKey())) {
          continue;
        }
        for (Map.Entry<Long, String> was : before.entrySet()) {
          if (!running.containsKey(was.getKey())
              && was.getValue().equals(now.getValue().commandLine())) {
            return now.getKey();
          }
        }
      }
      return -1;
    }

    /** Whether what the screen shows is the old process's, about to be replaced. */
    boolean holds(long now) {
      return pending(now)
          || (since < 0 && answeredAt >= 0 && now - answeredAt <= RELAUNCH_LOOK_MILLIS);
    }

    private boolean pending(long now) {
      if (since < 0) {
        return false;
      }
      if (replacedAt < 0) {
        return now - since <= RELAUNCH_WAIT_MILLIS;
      }
      return screenChangedAt <= replacedAt && now - replacedAt <= SUCCESSOR_WAIT_MILLIS;
    }

    String why() {
      return since >= 0
          ? "it starts itself anew: " + line
          : "its trust question was answered: it may start itself anew";
    }

    void clear() {
      since = -1;
      line = "";
      before = null;
      candidate = -1;
      replacedAt = -1;
      answeredAt = -1;
    }
  }
}
