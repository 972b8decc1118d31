package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.clique.engine.tmux.TmuxException;
import dev.clique.engine.tmux.TmuxProcess;
import dev.clique.models.ScriptedModelServer;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.assertj.core.api.SoftAssertions;

/**
 * Watches one session of a real CLI as a person would: its pane through tmux and, in the same look,
 * the state the engine reports for it. A suite brings up each screen on purpose, waits for it
 * ({@link #awaitScreen}) and holds the engine to the state that screen calls for ({@link
 * #expectState}, {@link #holds}, {@link #holdsUntil}); every check goes into the suite's soft
 * assertions and prints one line of a table on stderr: screen, expected, reported, delay, source.
 *
 * <p>It creates the session it watches, and remembers the session's processes it saw, so that a
 * suite can stop those that outlive it.
 *
 * <pre>{@code
 * watch = ScreenWatch.ofNewSession("gemini-real", engine, admin, request, model, softly);
 * Look ready = watch.awaitScreen("ready prompt", RealGeminiCliIT::started, STARTUP);
 * watch.expectState("ready prompt", ready, "idle");
 * watch.holds("ready prompt, 3 s on", "idle", Duration.ofSeconds(3));
 * }</pre>
 */
final class ScreenWatch implements AutoCloseable {
  /** How soon after a screen the engine must report its state. */
  static final Duration SOON = Duration.ofSeconds(1);

  /** How long a state is looked for after its screen, to tell "late" from "never". */
  static final Duration PATIENCE = Duration.ofSeconds(8);

  /** Between two looks. */
  static final long TICK_MILLIS = 100;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String label;
  private final ThrowawayEngine engine;
  private final String admin;
  private final String id;
  private final TmuxProcess tmux;
  private final WaitProbe probe;
  private final ScriptedModelServer model;
  private final SoftAssertions softly;
  private final Duration soon;
  private final Set<ProcessHandle> processesSeen;
  private String lastScreen = "";

  /**
   * Creates a session with {@code POST /api/sessions} {@code request}, as {@code admin}, and
   * watches it: {@code model}'s requests are named when a screen never shows, {@code softly} takes
   * the checks, and {@code label} begins each line of the table.
   */
  static ScreenWatch ofNewSession(
      String label,
      ThrowawayEngine engine,
      String admin,
      Map<String, ?> request,
      ScriptedModelServer model,
      SoftAssertions softly)
      throws IOException, InterruptedException {
    HttpResponse<String> created =
        engine.post("/api/sessions", admin, JSON.writeValueAsString(request));
    assertThat(created.statusCode()).as("creating the session: %s", created.body()).isEqualTo(201);
    String id = ThrowawayEngine.json(created.body()).path("id").asText();
    return new ScreenWatch(
        label,
        engine,
        admin,
        id,
        new TmuxProcess("tmux", engine.socket, Duration.ofSeconds(10)),
        WaitProbe.start(engine, admin, id),
        model,
        softly,
        SOON,
        new LinkedHashSet<>());
  }

  private ScreenWatch(
      String label,
      ThrowawayEngine engine,
      String admin,
      String id,
      TmuxProcess tmux,
      WaitProbe probe,
      ScriptedModelServer model,
      SoftAssertions softly,
      Duration soon,
      Set<ProcessHandle> processesSeen) {
    this.label = label;
    this.engine = engine;
    this.admin = admin;
    this.id = id;
    this.tmux = tmux;
    this.probe = probe;
    this.model = model;
    this.softly = softly;
    this.soon = soon;
    this.processesSeen = processesSeen;
  }

  /** The same watch, holding the engine to report each state within {@code soon} of its screen. */
  ScreenWatch withSoon(Duration soon) {
    return new ScreenWatch(
        label, engine, admin, id, tmux, probe, model, softly, soon, processesSeen);
  }

  /** The id of the session watched. */
  String id() {
    return id;
  }

  /** The session's processes now, remembered among those seen. */
  List<ProcessHandle> processes() throws TmuxException {
    List<ProcessHandle> tree = SessionProcesses.of(tmux, id);
    processesSeen.addAll(tree);
    return tree;
  }

  /** Every process of the session seen so far: those a suite stops at its end. */
  Set<ProcessHandle> processesSeen() {
    return processesSeen;
  }

  /**
   * Ends what a real-CLI test started, in order: the watch and the engine, then (whatever those
   * threw) the session's processes that outlived its tmux session (a node CLI may), the model
   * server and the scratch folders.
   *
   * @param watch the test's watch, null when it failed before one began
   * @param engine its engine, null likewise
   */
  static void endTest(
      ScreenWatch watch, ThrowawayEngine engine, ScriptedModelServer model, Path... folders)
      throws Exception {
    try {
      if (watch != null) {
        watch.close();
      }
      if (engine != null) {
        engine.close();
      }
    } finally {
      if (watch != null) {
        SessionProcesses.stop(watch.processesSeen());
      }
      model.close();
      for (Path folder : folders) {
        ThrowawayEngine.deleteTree(folder);
      }
    }
  }

  /** Remembers the session's processes of now, if its tmux server is still there. */
  void rememberProcesses() {
    try {
      processes();
    } catch (TmuxException e) {
      // no tmux server left: what was seen before is all there is
    }
  }

  /** Stops timing the waits, and remembers the session's processes of now. */
  @Override
  public void close() {
    probe.close();
    rememberProcesses();
  }

  /**
   * One look: when it began (wall clock, and {@link System#nanoTime}), the screen as tmux shows it
   * ("" once the session is gone), the engine's row, and when ({@link System#nanoTime}) the
   * engine's answer came.
   */
  record Look(long at, long atNanos, String screen, JsonNode session, long stateAt) {
    String state() {
      return session == null ? "(no row)" : session.path("state").asText();
    }

    JsonNode attention() {
      return session == null ? MissingNode.getInstance() : session.path("attention");
    }

    /**
     * Who decided the state, and on what evidence: {@code pane Allow execution of [Shell]?}, {@code
     * hook permission.asked bash}.
     */
    String source() {
      return session == null
          ? ""
          : session.at("/state_source/authority").asText()
              + " "
              + session.at("/state_source/evidence").asText();
    }

    /** Whether the CLI's own hook, not its screen, decided the state. */
    boolean fromHook() {
      return source().startsWith("hook ");
    }
  }

  /**
   * Which of the looks before a screen showed may report another state than expected because the
   * CLI's own hook said what comes next a moment ahead of its screen; and a note for the table.
   */
  interface Ahead {
    /** Nothing is excused: every look before the screen must report the state expected. */
    Ahead NONE = (expected, before, shown) -> new Excused(List.of(), "");

    /** {@code before}: every look before the one at which the screen {@code shown} showed. */
    Excused excuse(String expected, List<Look> before, Look shown);

    /**
     * A CLI's own report runs ahead of its screen (its hook and its terminal hear the CLI apart):
     * the last looks before the screen may report {@code next}, the state the new screen calls for,
     * when the CLI itself said so at most {@code within} before the screen; they are printed apart,
     * and any other state, or one said earlier, fails.
     */
    static Ahead fromTheCli(String next, Duration within) {
      return (expected, before, shown) -> {
        int ahead = 0;
        for (int i = before.size() - 1; i >= 0; i--) {
          Look look = before.get(i);
          if (!next.equals(look.state()) || !look.fromHook()) {
            break;
          }
          ahead++;
        }
        if (ahead == 0) {
          return new Excused(List.of(), "");
        }
        Look first = before.get(before.size() - ahead);
        long aheadMillis = shown.at() - first.at();
        if (aheadMillis > within.toMillis()) {
          // too far ahead to be a repaint: every such look counts against the state
          return new Excused(List.of(), "");
        }
        return new Excused(
            before.subList(before.size() - ahead, before.size()),
            "then "
                + next
                + " from the CLI "
                + aheadMillis
                + " ms before the screen ("
                + first.source().strip()
                + ")");
      };
    }
  }

  /** Looks excused by an {@link Ahead}, and what the table says of them ("" for nothing). */
  record Excused(List<Look> looks, String note) {}

  /** Takes one look now. */
  Look look() throws IOException, InterruptedException {
    long at = System.currentTimeMillis();
    long atNanos = System.nanoTime();
    String screen;
    try {
      screen = tmux.captureScreen(id);
    } catch (TmuxException e) {
      screen = "";
    }
    JsonNode row = null;
    HttpResponse<String> state = engine.get("/api/state", admin);
    if (state.statusCode() == 200) {
      for (JsonNode session : ThrowawayEngine.json(state.body()).path("sessions")) {
        if (session.path("id").asText().equals(id)) {
          row = session;
        }
      }
    }
    if (!screen.isEmpty()) {
      lastScreen = screen;
    }
    return new Look(at, atNanos, screen, row, System.nanoTime());
  }

  /** The last screen that was not empty, for the messages of failed checks. */
  String lastScreen() {
    return lastScreen;
  }

  /** Looks every tick until {@code match} holds; null when it never did within {@code timeout}. */
  Look pollUntil(Predicate<Look> match, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Look look = look();
      if (match.test(look)) {
        return look;
      }
      if (System.nanoTime() > deadline) {
        return null;
      }
      Thread.sleep(TICK_MILLIS);
    }
  }

  /** Waits for a screen the scenario needs; the test cannot go on without it. */
  Look awaitScreen(String name, Predicate<String> shown, Duration timeout) throws Exception {
    Look look = pollUntil(l -> shown.test(l.screen()), timeout);
    if (look == null) {
      throw new AssertionError(
          "the "
              + name
              + " never appeared within "
              + timeout
              + "; model requests: "
              + model.received().stream().map(r -> r.method() + " " + r.path()).toList()
              + "; last screen:\n"
              + lastScreen);
    }
    return look;
  }

  /**
   * From the look at which a screen appeared, looks until the engine reports {@code expected}: it
   * must within {@link #SOON} (or what {@link #withSoon} says). Returns the look that reported it,
   * or the last one, looked for up to {@link #PATIENCE}.
   */
  Look expectState(String screen, Look shown, String expected) throws Exception {
    return expectState(screen, shown, expected, PATIENCE);
  }

  /**
   * Waits for the screen of a usage limit ({@code shown}), then for the engine to report it: {@code
   * waiting}, with attention kind {@code usage_limit}, whose attention the table prints. Returns
   * the look that reported it.
   */
  Look expectUsageLimit(String screen, Predicate<String> shown, Duration timeout) throws Exception {
    Look limited = expectState(screen, awaitScreen(screen, shown, timeout), "waiting");
    table(screen + " attention", "", String.valueOf(limited.attention()), -1, "");
    softly
        .assertThat(limited.attention().path("kind").asText())
        .as("attention.kind on the %s (attention: %s)", screen, limited.attention())
        .isEqualTo("usage_limit");
    return limited;
  }

  /** As {@link #expectState(String, Look, String)}, the state looked for up to {@code patience}. */
  Look expectState(String screen, Look shown, String expected, Duration patience) throws Exception {
    Look look = shown;
    long deadline = shown.at() + patience.toMillis();
    while (!expected.equals(look.state()) && System.currentTimeMillis() < deadline) {
      Thread.sleep(TICK_MILLIS);
      look = look();
    }
    boolean reported = expected.equals(look.state());
    // The engine reported the state by the first of: a look that showed it, a wait that answered
    // it. The wait is told the moment the state turns; the looks come a tick apart.
    long delay = look.at() - shown.at();
    Long answered = reported ? probe.answeredMillis(expected, shown.atNanos()) : null;
    if (answered != null) {
      delay = Math.min(delay, Math.max(0, answered));
    }
    Long waitLag = reported ? probe.lagMillis(expected, look.stateAt()) : null;
    table(
        screen,
        expected,
        reported ? expected : look.state(),
        reported ? delay : -1,
        (waitLag == null ? "" : "wait " + (waitLag > 0 ? "+" : "") + waitLag + " ms | ")
            + look.source());
    softly
        .assertThat(look.state())
        .as(
            "state on the %s (source: %s)%s",
            screen,
            look.session(),
            reported ? "" : "; the screen at the last look:\n" + look.screen())
        .isEqualTo(expected);
    if (reported) {
      softly
          .assertThat(delay)
          .as("ms from the %s to state %s", screen, expected)
          .isLessThanOrEqualTo(soon.toMillis());
      softly
          .assertThat(waitLag)
          .as(
              "ms from /api/state showing %s on the %s to a wait answering it (answers: %s; %s)",
              expected, screen, probe.answers(), probe.failure())
          .isNotNull()
          .isLessThanOrEqualTo(WaitProbe.WITHIN.toMillis());
    }
    return look;
  }

  /** The state stays {@code expected} for {@code span}: every look reports it. */
  void holds(String screen, String expected, Duration span) throws Exception {
    long end = System.currentTimeMillis() + span.toMillis();
    List<String> other = new ArrayList<>();
    while (System.currentTimeMillis() < end) {
      Look look = look();
      if (!expected.equals(look.state())) {
        other.add(look.state());
      }
      Thread.sleep(TICK_MILLIS);
    }
    table(screen, expected, other.isEmpty() ? expected : "also " + Set.copyOf(other), -1, "");
    softly.assertThat(other).as("states other than %s on the %s", expected, screen).isEmpty();
  }

  /**
   * Every look until the screen shows {@code until} must report {@code expected}; returns the look
   * at which {@code until} showed.
   */
  Look holdsUntil(String screen, String expected, Predicate<String> until, Duration timeout)
      throws Exception {
    return holdsUntil(screen, expected, until, timeout, Ahead.NONE);
  }

  /**
   * As {@link #holdsUntil(String, String, Predicate, Duration)}, but the looks {@code ahead}
   * excuses may report another state; the table says how many looks were off, and the note.
   */
  Look holdsUntil(
      String screen, String expected, Predicate<String> until, Duration timeout, Ahead ahead)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<Look> before = new ArrayList<>();
    while (true) {
      Look look = look();
      if (until.test(look.screen())) {
        Excused excused = ahead.excuse(expected, List.copyOf(before), look);
        List<Look> off =
            before.stream()
                .filter(l -> !expected.equals(l.state()) && !excused.looks().contains(l))
                .toList();
        List<String> other = off.stream().map(Look::state).toList();
        table(
            screen,
            expected,
            other.isEmpty()
                ? expected
                : other.size() + "/" + before.size() + " looks " + Set.copyOf(other),
            -1,
            excused.note());
        softly
            .assertThat(other)
            .as(
                "states other than %s while %s (%d looks)%s",
                expected, screen, before.size(), off.isEmpty() ? "" : firstOff(off.get(0), look))
            .isEmpty();
        return look;
      }
      before.add(look);
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            screen + ": the screen never moved on within " + timeout + "; last:\n" + lastScreen);
      }
      Thread.sleep(TICK_MILLIS);
    }
  }

  /** Where the first look that reported another state was, and what it saw, for a failure. */
  private static String firstOff(Look off, Look shown) {
    return "; the first "
        + (shown.at() - off.at())
        + " ms before the screen, by "
        + off.source().strip()
        + ", on:\n"
        + off.screen();
  }

  /**
   * Starts the stopped session again through the engine ({@code POST .../start}) and waits for its
   * CLI's {@code ready} screen, which must read idle; its new processes are remembered.
   */
  Look startAgain(Predicate<String> ready, Duration timeout) throws Exception {
    HttpResponse<String> started = engine.post("/api/sessions/" + id + "/start", admin, "{}");
    assertThat(started.statusCode()).as("start answered %s", started.body()).isEqualTo(200);
    Look resumed = awaitScreen("ready after restart", ready, timeout);
    expectState("ready after restart", resumed, "idle");
    rememberProcesses();
    return resumed;
  }

  /** Sends through the engine's API and returns a look taken right after the engine answered. */
  Look send(Map<String, Object> body) throws IOException, InterruptedException {
    HttpResponse<String> sent =
        engine.post("/api/sessions/" + id + "/send", admin, JSON.writeValueAsString(body));
    assertThat(sent.statusCode()).as("send %s: %s", body, sent.body()).isEqualTo(200);
    return look();
  }

  /**
   * From a look that reported the session stopped, looks until its row holds the {@code
   * exit_status}, for 3 s at the most: tmux marks the pane dead when its terminal closes, and knows
   * the status once it reaped the process, which the engine sees to (TmuxProcess): a look or two
   * later at most. Returns the last look.
   */
  Look awaitExitStatus(Look stopped) throws IOException, InterruptedException {
    Look look = stopped;
    long exited = System.nanoTime() + Duration.ofSeconds(3).toNanos();
    while ((look.session() == null || !look.session().path("exit_status").isInt())
        && System.nanoTime() < exited) {
      Thread.sleep(TICK_MILLIS);
      look = look();
    }
    return look;
  }

  /**
   * Kills the session with {@code POST /kill}: the engine must report it stopped within 5 s, and
   * none of {@code processes}, the session's, may be alive 5 s later; two lines of the table.
   */
  void killAndExpectEveryProcessGone(List<ProcessHandle> processes) throws Exception {
    System.err.println(
        label
            + " | pane processes: "
            + processes.stream().map(SessionProcesses::describe).toList());
    HttpResponse<String> killed = engine.post("/api/sessions/" + id + "/kill", admin, "{}");
    assertThat(killed.statusCode()).as("kill answered %s", killed.body()).isEqualTo(200);
    long at = System.currentTimeMillis();
    Look stopped = pollUntil(l -> "stopped".equals(l.state()), Duration.ofSeconds(5));
    table(
        "killed",
        "stopped",
        stopped == null ? look().state() : "stopped",
        stopped == null ? -1 : stopped.at() - at,
        "");
    softly.assertThat(stopped).as("state after POST /kill").isNotNull();
    List<String> survivors = SessionProcesses.survivors(processes, Duration.ofSeconds(5));
    table(
        "processes after kill",
        "none",
        survivors.isEmpty() ? "none" : survivors.size() + "",
        -1,
        "");
    softly.assertThat(survivors).as("processes of the session alive 5 s after kill").isEmpty();
  }

  /** One line of the table on stderr: screen, expected, reported, delay, state_source. */
  void table(String screen, String expected, String reported, long delayMillis, String source) {
    System.err.printf(
        "%s | %-34s | expected %-8s | reported %-22s | %8s | %s%n",
        label, screen, expected, reported, delayMillis < 0 ? "-" : delayMillis + " ms", source);
  }
}
