package dev.clique.engine.tmux;

import static dev.clique.engine.tmux.PaneListing.EVERY_PANE_FORMAT;
import static dev.clique.engine.tmux.PaneListing.QUIET_FORMAT;
import static dev.clique.engine.tmux.PaneListing.parseEveryPane;
import static dev.clique.engine.tmux.PaneListing.parsePanes;
import static dev.clique.engine.tmux.PaneListing.target;
import static dev.clique.engine.tmux.ProcFs.parseLong;
import static dev.clique.engine.tmux.TmuxRunner.check;
import static dev.clique.engine.tmux.TmuxRunner.escape;
import static dev.clique.engine.tmux.TmuxRunner.gone;
import static java.nio.charset.StandardCharsets.UTF_8;

import dev.clique.engine.tmux.TmuxRunner.Result;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real tmux, on socket {@code -L <socket>} (or a person's server's socket file): the commands
 * the engine gives it. Each goes through the server's {@link ControlGateway} (a line on the control
 * client's pipe, or a process of its own that {@link TmuxRunner} runs: an argument list, never a
 * shell string, with a time-out); a listing is read by {@link PaneListing}; what the server did is
 * told by {@link ServerActivity}, which listens to the gateway.
 */
public final class TmuxProcess implements Tmux {
  public static final int COLS = 200;
  public static final int ROWS = 50;
  private static final int HISTORY = 50_000;
  private static final AtomicLong BUFFERS = new AtomicLong();
  private static final long INSTALLED_RECHECK_NANOS = 10_000_000_000L;

  /** tmux's default {@code update-environment}, kept when the session's names are added to it. */
  private static final List<String> TMUX_UPDATE_ENVIRONMENT =
      List.of(
          "DISPLAY",
          "KRB5CCNAME",
          "SSH_ASKPASS",
          "SSH_AUTH_SOCK",
          "SSH_AGENT_PID",
          "SSH_CONNECTION",
          "WINDOWID",
          "XAUTHORITY");

  private static final Pattern DEAD_BY_SIGNAL =
      Pattern.compile("^Pane is dead \\(signal ([0-9]{1,2}),", Pattern.MULTILINE);
  private static final int MAX_DEATH_SIGNALS = 256;

  /** The signal that ended a dead pane, by session and pid: its screen is read once. */
  private final Map<String, Integer> deathSignals = new ConcurrentHashMap<>();

  private volatile boolean installed;
  private volatile long installedCheckedAt;
  private final String socket;
  private final TmuxRunner runner;
  private final ControlGateway gateway;
  private final ServerActivity activity;
  private final ProcFs proc = ProcFs.system();

  /** The server on socket name {@code socket} ({@code tmux -L}), in tmux's socket directory. */
  public TmuxProcess(String binary, String socket, Duration timeout) {
    this(binary, socket, List.of("-L", socket), timeout, true);
  }

  private TmuxProcess(
      String binary, String socket, List<String> address, Duration timeout, boolean controlled) {
    this.socket = socket;
    this.runner = new TmuxRunner(binary, address, timeout);
    this.gateway = new ControlGateway(runner, socket, address.get(0).equals("-S"), controlled);
    this.activity = new ServerActivity(gateway, socket, proc);
    gateway.listen(activity::heard);
  }

  /**
   * The server listening on the socket file {@code file} ({@code tmux -S}): another server of the
   * user's, where discovered sessions run. Its {@link #socket()} is the file's path.
   */
  public static TmuxProcess onSocketFile(Path file, Duration timeout) {
    return new TmuxProcess("tmux", file.toString(), List.of("-S", file.toString()), timeout, false);
  }

  @Override
  public String socket() {
    return socket;
  }

  @Override
  public boolean installed() {
    // Asked on every authenticated /healthz: a process per request would be the whole cost.
    long now = System.nanoTime();
    if (installedCheckedAt != 0 && now - installedCheckedAt < INSTALLED_RECHECK_NANOS) {
      return installed;
    }
    boolean found;
    try {
      found = runner.run(List.of("-V")).exitCode() == 0;
    } catch (TmuxException e) {
      found = false;
    }
    installed = found;
    installedCheckedAt = now;
    return found;
  }

  @Override
  public void newSession(
      String name, Path cwd, List<String> argv, Map<String, String> env, HomeMark home)
      throws TmuxException {
    // Options first, in the same invocation, so the first pane already gets the large history.
    List<String> args =
        new ArrayList<>(
            List.of(
                "start-server",
                ";",
                "set-option",
                "-g",
                "history-limit",
                Integer.toString(HISTORY),
                ";",
                "set-option",
                "-g",
                "status",
                "off",
                ";",
                "set-option",
                "-g",
                "bell-action",
                "none",
                ";",
                "set-option",
                "-g",
                "visual-bell",
                "off",
                ";",
                // A CLI that dies keeps its last screen (and tmux its exit status) until stopped.
                "set-option",
                "-g",
                "remain-on-exit",
                "on",
                ";",
                // A pane's death is heard at once: the job tmux runs for it reaps every child it
                // has (see reaped), and changes the server's children, which activity() reads.
                "set-hook",
                "-g",
                "pane-died",
                "run-shell true",
                ";"));
    // The session's own variables (its token among them) travel in this client's environment, not
    // in its argv: tmux copies the names update-environment lists into the new session only. A
    // server this very call starts would keep them globally too, for every later pane: unset.
    List<String> names = new ArrayList<>(env.keySet());
    args.addAll(List.of("set-option", "-g", "update-environment", updateEnvironment(names), ";"));
    for (String key : names) {
      args.addAll(List.of("set-environment", "-g", "-u", key, ";"));
    }
    args.addAll(
        List.of(
            "new-session",
            "-d",
            "-s",
            name,
            "-x",
            Integer.toString(COLS),
            "-y",
            Integer.toString(ROWS),
            "-c",
            escapeFormat(cwd.toString())));
    for (String arg : argv) {
      args.add(escape(arg));
    }
    // Marked in the same invocation: no listing ever sees the session without its home. A failed
    // new-session ends the invocation, so another session of that name is never marked.
    if (!home.none()) {
      for (List<String> option : markWords(name, home)) {
        args.add(";");
        option.forEach(word -> args.add(escape(word)));
      }
    }
    Result result =
        gateway.notifying(
            () -> {
              Result made = runner.run(args, env);
              for (int retry = 0; retry < 3 && serverWasEnding(made); retry++) {
                // The last session's end was closing the server as this call reached it: nothing
                // was made, and once that server is gone the same call starts a new one.
                sleep(Duration.ofMillis(50));
                made = runner.run(args, env);
              }
              return made;
            });
    check(result, "new-session " + name);
    gateway.serverStarted();
  }

  private static List<List<String>> markWords(String name, HomeMark home) {
    return List.of(
        List.of("set-option", "-t", target(name), HomeMark.ID_OPTION, home.id()),
        List.of("set-option", "-t", target(name), HomeMark.DIR_OPTION, home.dir()));
  }

  @Override
  public void markHome(String name, HomeMark home) throws TmuxException {
    List<List<String>> options = markWords(name, home);
    List<String> words = new ArrayList<>(options.get(0));
    words.add(";");
    words.addAll(options.get(1));
    check(gateway.call(words), "set-option");
  }

  @Override
  public HomeMark home(String name) throws TmuxException {
    // The id has no space in it: the first one ends it, and all after it is the folder.
    String format = "#{" + HomeMark.ID_OPTION + "} #{" + HomeMark.DIR_OPTION + "}";
    Result result = gateway.call(List.of("display-message", "-p", "-t", target(name), format));
    check(result, "display-message");
    String both =
        result.stdout().endsWith("\n")
            ? result.stdout().substring(0, result.stdout().length() - 1)
            : result.stdout();
    int space = both.indexOf(' ');
    return space < 0
        ? new HomeMark(both, "")
        : new HomeMark(both.substring(0, space), both.substring(space + 1));
  }

  private static void sleep(Duration pause) throws TmuxException {
    try {
      Thread.sleep(pause.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TmuxException("interrupted while tmux's server was ending", false);
    }
  }

  private static boolean serverWasEnding(Result result) {
    return result.exitCode() != 0 && result.stderr().contains("server exited unexpectedly");
  }

  /** tmux's own default list, and the session's variables. */
  private static String updateEnvironment(List<String> names) {
    List<String> all = new ArrayList<>(TMUX_UPDATE_ENVIRONMENT);
    all.addAll(names);
    return String.join(" ", all);
  }

  @Override
  public OptionalLong clientActivity(String name) throws TmuxException {
    String session = PaneListing.PANE_ID.matcher(name).matches() ? name : "=" + name;
    Result result =
        gateway.call(
            List.of(
                "list-clients", "-t", session, "-F", "#{client_control_mode} #{client_activity}"));
    if (result.exitCode() != 0) {
      return OptionalLong.empty(); // no such session: no one looks at it
    }
    OptionalLong latest = OptionalLong.empty();
    for (String line : result.stdout().split("\n")) {
      String[] words = line.strip().split(" ");
      // The engine's own control client is no person.
      if (words.length == 2 && words[0].equals("0")) {
        long at = parseLong(words[1]);
        if (at > 0 && (latest.isEmpty() || at > latest.getAsLong())) {
          latest = OptionalLong.of(at);
        }
      }
    }
    return latest;
  }

  @Override
  public Path workingDirectory(String name) throws TmuxException {
    Result result =
        gateway.call(List.of("display-message", "-p", "-t", target(name), "#{pane_pid}"));
    check(result, "display-message");
    long pid = parseLong(result.stdout());
    Path cwd = pid > 0 ? proc.cwd(pid) : null;
    if (cwd == null) {
      throw new TmuxException("the pane of " + name + " has no working directory to read", true);
    }
    return cwd;
  }

  /**
   * Pasted, not typed: the text goes to a tmux buffer through stdin (never argv) and is pasted as
   * one bracketed paste when the program asked for bracketed pastes. A CLI then takes it whole, and
   * the Enter that follows is a key of its own, not the tail of a fast burst its paste detection
   * would keep as a newline.
   */
  @Override
  public void sendText(String name, String text) throws TmuxException {
    if (text.isEmpty()) {
      return;
    }
    String buffer = "clique-" + name + "-" + BUFFERS.incrementAndGet();
    // A buffer made and deleted is told to control clients.
    check(
        gateway.notifying(
            () ->
                runner.run(
                    List.of("load-buffer", "-b", buffer, "-"), Map.of(), text.getBytes(UTF_8))),
        "load-buffer");
    check(
        gateway.notifying(
            () ->
                runner.run(List.of("paste-buffer", "-p", "-d", "-b", buffer, "-t", target(name)))),
        "paste-buffer");
  }

  @Override
  public void sendKey(String name, String key) throws TmuxException {
    check(gateway.call(List.of("send-keys", "-t", target(name), "--", key)), "send-keys");
  }

  @Override
  public void killSession(String name) throws TmuxException {
    // A discovered session is one pane of someone's own tmux session: only that pane goes.
    List<String> words =
        PaneListing.PANE_ID.matcher(name).matches()
            ? List.of("kill-pane", "-t", name)
            : List.of("kill-session", "-t", "=" + name);
    ControlClient client = gateway.client(); // attached first: an attach waits for what notifies
    Result result = gateway.notifying(() -> gateway.callThrough(client, words));
    if (result.exitCode() != 0 && !gone(result)) {
      check(result, "kill-session");
    }
  }

  @Override
  public List<PaneInfo> listPanes() throws TmuxException {
    List<PaneInfo> panes = firstPanes();
    if (reaped(panes)) {
      panes = firstPanes();
    }
    panes.replaceAll(pane -> pane.exitSignal() == 0 ? withSignal(pane) : pane);
    return panes;
  }

  private List<PaneInfo> firstPanes() throws TmuxException {
    Result result = gateway.listing(List.of("list-panes", "-a", "-F", QUIET_FORMAT));
    if (result.exitCode() != 0) {
      if (gone(result)) {
        return new ArrayList<>();
      }
      check(result, "list-panes");
    }
    // The control client is attached to one session: not a person who looks at it.
    return parsePanes(result.stdout(), gateway.attachedSession());
  }

  /**
   * A pane a signal ended, with the signal's number: tmux 3.3a has no format for it, but writes it
   * on the pane's last line ("Pane is dead (signal 15, ...)"), read once per pane.
   */
  private PaneInfo withSignal(PaneInfo pane) {
    String key = pane.session() + "/" + pane.pid();
    Integer known = deathSignals.get(key);
    if (known == null) {
      known = 0;
      try {
        Result screen = runner.run(List.of("capture-pane", "-p", "-t", target(pane.session())));
        Matcher line = DEAD_BY_SIGNAL.matcher(screen.exitCode() == 0 ? screen.stdout() : "");
        while (line.find()) {
          known = Integer.parseInt(line.group(1));
        }
      } catch (TmuxException | NumberFormatException e) {
        // unknown: a signal, without its number
      }
      if (deathSignals.size() >= MAX_DEATH_SIGNALS) {
        deathSignals.clear();
      }
      deathSignals.put(key, known);
    }
    return pane.withExitSignal(known);
  }

  /**
   * Whether one of {@code panes} is dead but not reaped (no status, no signal: tmux has no time of
   * death for it) and its process is a zombie; if so, tmux is made to reap it, and a new listing
   * tells how it ended.
   *
   * <p>tmux learns an exit status from SIGCHLD. Debian's tmux, built with libutempter, lets the
   * utempter helper's own SIGCHLD handler stand in for its own while it removes a closed terminal's
   * record, which is the very moment a process that closed its terminal by exiting ends: tmux never
   * hears of it, and the zombie waits for the next SIGCHLD. A job of tmux's own is one: {@code
   * run-shell} answers once tmux reaped it, and tmux reaps every zombie it has when it reaps one.
   */
  private boolean reaped(List<PaneInfo> panes) throws TmuxException {
    for (PaneInfo pane : panes) {
      if (pane.dead()
          && pane.exitStatus() < 0
          && pane.exitSignal() < 0
          && proc.zombie(pane.pid())) {
        gateway.call(List.of("run-shell", "true"));
        return true;
      }
    }
    return false;
  }

  /**
   * Every pane of the server, each with its id and place: what discovery looks through. Unlike
   * {@link #listPanes()}, a server that cannot be reached is an error naming its cause.
   */
  public List<ServerPane> listEveryPane() throws TmuxException {
    List<ServerPane> panes = everyPane();
    if (reaped(panes.stream().map(ServerPane::info).toList())) {
      panes = everyPane();
    }
    return panes;
  }

  private List<ServerPane> everyPane() throws TmuxException {
    Result result = gateway.listing(List.of("list-panes", "-a", "-F", EVERY_PANE_FORMAT));
    check(result, "list-panes");
    List<ServerPane> panes = parseEveryPane(result.stdout());
    panes.replaceAll(
        pane ->
            new ServerPane(
                pane.id(),
                pane.window(),
                pane.currentPath(),
                pane.info().withCommand(proc.foregroundCommand(pane.info().pid()))));
    return panes;
  }

  @Override
  public String capturePane(String name, int lines) throws TmuxException {
    Result result =
        gateway.capture(
            List.of(
                "capture-pane", "-p", "-J", "-t", target(name), "-S", "-" + Math.max(1, lines)));
    check(result, "capture-pane");
    return result.stdout();
  }

  @Override
  public String captureScreen(String name) throws TmuxException {
    Result result = gateway.capture(List.of("capture-pane", "-p", "-J", "-t", target(name)));
    check(result, "capture-pane");
    return result.stdout();
  }

  @Override
  public Foreground foreground(PaneInfo pane) {
    return proc.foreground(pane.pid());
  }

  @Override
  public Map<Long, PaneProcess> descendants(PaneInfo pane) {
    return proc.descendants(pane.pid());
  }

  @Override
  public String currentCommand(PaneInfo pane) {
    return pane.command().isEmpty() ? proc.foregroundCommand(pane.pid()) : pane.command();
  }

  @Override
  public Activity activity() {
    return activity.activity();
  }

  /**
   * How this server is watched, as the last look at what it did found it (a look is made now if
   * none was yet).
   */
  public ServerWatch watch() {
    return activity.watch();
  }

  @Override
  public List<ServerWatch> watches() {
    return List.of(watch());
  }

  @Override
  public Map<String, String> environment(long panePid, Set<String> names) {
    return proc.environment(panePid, names);
  }

  @Override
  public Map<String, List<Long>> processesMarked(String name) {
    return proc.processesMarked(name);
  }

  @Override
  public Map<Long, Long> residentBytes(Collection<Long> panePids) {
    return proc.residentBytes(panePids);
  }

  /** Stops the server, and removes the socket file tmux leaves behind when its server exits. */
  @Override
  public void killServer() {
    gateway.closeClient();
    try {
      runner.run(List.of("kill-server"));
    } catch (TmuxException e) {
      // nothing was running
    }
    gateway.removeSocketFile();
  }

  /**
   * Where tmux keeps this socket: {@code $TMUX_TMPDIR/tmux-<uid>/<socket>}, {@code /tmp} by default
   * (or the file it was made for); null when the user id cannot be read. The {@code TMUX_TMPDIR} is
   * this process's own, not a setting of the engine's: the tmux processes started here inherit this
   * process's environment, and with it where their server puts its socket.
   */
  public Path socketFile() {
    return gateway.socketFile();
  }

  /**
   * For a value tmux expands as a format ({@code new-session -c}): {@code #(...)} would run a
   * command and {@code #{...}} would substitute, so each {@code #} is doubled to stay a {@code #};
   * except a run of them before {@code [}, which tmux leaves as it is (a style, drawn later).
   */
  static String escapeFormat(String value) {
    StringBuilder escaped = new StringBuilder(value.length() + 8);
    int i = 0;
    while (i < value.length()) {
      int run = i;
      while (run < value.length() && value.charAt(run) == '#') {
        run++;
      }
      if (run == i) {
        escaped.append(value.charAt(i++));
        continue;
      }
      boolean style = run < value.length() && value.charAt(run) == '[';
      escaped.append("#".repeat(style ? run - i : 2 * (run - i)));
      i = run;
    }
    return escape(escaped.toString());
  }
}
