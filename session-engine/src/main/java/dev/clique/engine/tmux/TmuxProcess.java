package dev.clique.engine.tmux;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real tmux: each call is an argument list handed to the {@code tmux} binary (never a shell
 * string), on socket {@code -L <socket>}, with a time-out.
 */
public final class TmuxProcess implements Tmux {
  private static final Logger log = LoggerFactory.getLogger(TmuxProcess.class);
  public static final int COLS = 200;
  public static final int ROWS = 50;
  private static final int HISTORY = 50_000;
  private static final String FIELD = "\u001f"; // unit separator: cannot appear in the fields
  private static final int PANE_FIELDS = 15;

  /**
   * A pane's fields, the command left empty: tmux reads a file under {@code /proc} for it, which
   * would count as work of the server's ({@link #activity}); it is read from {@code /proc} when
   * asked. The title comes last: it is the one field a program chooses, so it may hold anything.
   */
  private static final String QUIET_PANE_FORMAT = paneFormat("");

  private static String paneFormat(String command) {
    return String.join(
        FIELD,
        "#{session_name}",
        command,
        "#{window_activity}",
        "#{pane_width}",
        "#{pane_height}",
        "#{session_attached}",
        "#{pane_pid}",
        "#{pane_dead}",
        "#{pane_dead_status}",
        "#{pane_dead_time}",
        "#{history_size}",
        "#{cursor_x}",
        "#{cursor_y}",
        "#{" + HomeMark.ID_OPTION + "}",
        "#{pane_title}");
  }

  private static final ScheduledExecutorService WATCHDOG =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "tmux-watchdog");
            thread.setDaemon(true);
            return thread;
          });

  private static final long INSTALLED_RECHECK_NANOS = 10_000_000_000L;
  private static final AtomicLong BUFFERS = new AtomicLong();

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

  /**
   * Every pane of a server, one row each: its id and place first, then what {@link PaneInfo} holds.
   */
  private static final String EVERY_PANE_FORMAT =
      String.join(
          FIELD, "#{pane_id}", "#{window_index}", "#{pane_current_path}", QUIET_PANE_FORMAT);

  private static final int EVERY_PANE_FIELDS = 3 + PANE_FIELDS;

  /** A pane id ({@code %12}): unique on its server for the server's lifetime. */
  private static final Pattern PANE_ID = Pattern.compile("%[0-9]+");

  private static final Pattern DEAD_BY_SIGNAL =
      Pattern.compile("^Pane is dead \\(signal ([0-9]{1,2}),", Pattern.MULTILINE);
  private static final int MAX_DEATH_SIGNALS = 256;

  /** The signal that ended a dead pane, by session and pid: its screen is read once. */
  private final Map<String, Integer> deathSignals = new ConcurrentHashMap<>();

  /** Whether a control client is kept on this server (clique's own; never a person's server). */
  private final boolean controlled;

  private final Object controlLock = new Object();
  private volatile ControlClient control;
  private volatile long controlServerPid;
  private volatile String controlSession = "";
  private String controlRefusedAt; // the socket's stamp when attaching last failed
  private String controlRefusal = ""; // why it failed, as tmux said it
  private volatile ServerWatch watch;

  /** The last activity stamp made, and what it was made of. */
  private record LastActivity(long sent, long heard, String work, Activity activity) {}

  private volatile LastActivity lastActivity;
  private final AtomicLong notices = new AtomicLong();
  private final AtomicLong moving = new AtomicLong();

  private volatile boolean installed;
  private volatile long installedCheckedAt;
  private final String binary;
  private final String socket;
  private final List<String> address;
  private final Duration timeout;
  private final ProcFs proc = ProcFs.system();

  /** Between the control client's attach and the commands that notify it (clique's own server). */
  private final AttachGate gate;

  /** The server on socket name {@code socket} ({@code tmux -L}), in tmux's socket directory. */
  public TmuxProcess(String binary, String socket, Duration timeout) {
    this(binary, socket, List.of("-L", socket), timeout, true);
  }

  private TmuxProcess(
      String binary, String socket, List<String> address, Duration timeout, boolean controlled) {
    this.binary = binary;
    this.socket = socket;
    this.gate = controlled ? AttachGate.of(socketFileNow(address, socket)) : null;
    this.address = address;
    this.timeout = timeout;
    this.controlled = controlled;
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
      found = run(List.of("-V")).exitCode == 0;
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
        notifying(
            () -> {
              Result made = run(args, env);
              for (int retry = 0; retry < 3 && serverWasEnding(made); retry++) {
                // The last session's end was closing the server as this call reached it: nothing
                // was made, and once that server is gone the same call starts a new one.
                sleep(Duration.ofMillis(50));
                made = run(args, env);
              }
              return made;
            });
    check(result, "new-session " + name);
    synchronized (controlLock) {
      controlRefusedAt = null; // a server runs now: the control client may attach
    }
  }

  private static List<List<String>> markWords(String name, HomeMark home) {
    return List.of(
        List.of("set-option", "-t", pane(name), HomeMark.ID_OPTION, home.id()),
        List.of("set-option", "-t", pane(name), HomeMark.DIR_OPTION, home.dir()));
  }

  @Override
  public void markHome(String name, HomeMark home) throws TmuxException {
    List<List<String>> options = markWords(name, home);
    List<String> words = new ArrayList<>(options.get(0));
    words.add(";");
    words.addAll(options.get(1));
    check(call(words), "set-option");
  }

  @Override
  public HomeMark home(String name) throws TmuxException {
    // The id has no space in it: the first one ends it, and all after it is the folder.
    String format = "#{" + HomeMark.ID_OPTION + "} #{" + HomeMark.DIR_OPTION + "}";
    Result result = call(List.of("display-message", "-p", "-t", pane(name), format));
    check(result, "display-message");
    String both =
        result.stdout.endsWith("\n")
            ? result.stdout.substring(0, result.stdout.length() - 1)
            : result.stdout;
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
    return result.exitCode != 0 && result.stderr.contains("server exited unexpectedly");
  }

  /** tmux's own default list, and the session's variables. */
  private static String updateEnvironment(List<String> names) {
    List<String> all = new ArrayList<>(TMUX_UPDATE_ENVIRONMENT);
    all.addAll(names);
    return String.join(" ", all);
  }

  @Override
  public Path workingDirectory(String name) throws TmuxException {
    Result result = call(List.of("display-message", "-p", "-t", pane(name), "#{pane_pid}"));
    check(result, "display-message");
    long pid = parseLong(result.stdout);
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
        notifying(
            () -> run(List.of("load-buffer", "-b", buffer, "-"), Map.of(), text.getBytes(UTF_8))),
        "load-buffer");
    check(
        notifying(() -> run(List.of("paste-buffer", "-p", "-d", "-b", buffer, "-t", pane(name)))),
        "paste-buffer");
  }

  @Override
  public void sendKey(String name, String key) throws TmuxException {
    check(call(List.of("send-keys", "-t", pane(name), "--", key)), "send-keys");
  }

  @Override
  public void killSession(String name) throws TmuxException {
    // A discovered session is one pane of someone's own tmux session: only that pane goes.
    List<String> words =
        PANE_ID.matcher(name).matches()
            ? List.of("kill-pane", "-t", name)
            : List.of("kill-session", "-t", "=" + name);
    ControlClient client = control(); // attached first: an attach waits for what notifies
    Result result = notifying(() -> callThrough(client, words));
    if (result.exitCode != 0 && !gone(result)) {
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
    Result result = listing(List.of("list-panes", "-a", "-F", QUIET_PANE_FORMAT));
    if (result.exitCode != 0) {
      if (gone(result)) {
        return new ArrayList<>();
      }
      check(result, "list-panes");
    }
    // The control client is attached to one session: not a person who looks at it.
    return parsePanes(result.stdout, control == null ? "" : controlSession);
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
        Result screen = run(List.of("capture-pane", "-p", "-t", pane(pane.session())));
        Matcher line = DEAD_BY_SIGNAL.matcher(screen.exitCode == 0 ? screen.stdout : "");
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
        call(List.of("run-shell", "true"));
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
    Result result = listing(List.of("list-panes", "-a", "-F", EVERY_PANE_FORMAT));
    check(result, "list-panes");
    List<ServerPane> panes = parseEveryPane(result.stdout);
    panes.replaceAll(
        pane ->
            new ServerPane(
                pane.id(),
                pane.window(),
                pane.currentPath(),
                pane.info().withCommand(proc.foregroundCommand(pane.info().pid()))));
    return panes;
  }

  static List<ServerPane> parseEveryPane(String listing) {
    List<ServerPane> panes = new ArrayList<>();
    for (String line : listing.split("\n")) {
      String[] f = line.split(FIELD, EVERY_PANE_FIELDS);
      if (f.length < EVERY_PANE_FIELDS || !PANE_ID.matcher(f[0]).matches()) {
        continue;
      }
      String rest = String.join(FIELD, java.util.Arrays.copyOfRange(f, 3, f.length));
      List<PaneInfo> info = parsePanes(rest);
      if (!info.isEmpty()) {
        panes.add(new ServerPane(f[0], (int) parseLong(f[1]), f[2], info.get(0)));
      }
    }
    return panes;
  }

  static List<PaneInfo> parsePanes(String listing) {
    return parsePanes(listing, "");
  }

  /** The panes of a listing; {@code controlSession} has the control client among its clients. */
  static List<PaneInfo> parsePanes(String listing, String controlSession) {
    List<PaneInfo> panes = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (String line : listing.split("\n")) {
      String[] f = line.split(FIELD, PANE_FIELDS);
      if (f.length < PANE_FIELDS || !seen.add(f[0])) {
        continue; // the first pane of each session speaks for it
      }
      panes.add(
          new PaneInfo(
              f[0],
              f[1],
              parseLong(f[2]),
              (int) parseLong(f[3]),
              (int) parseLong(f[4]),
              parseLong(f[5]) - (f[0].equals(controlSession) ? 1 : 0) > 0,
              parseLong(f[6]),
              "1".equals(f[7]),
              "1".equals(f[7]) && !f[8].isBlank() ? (int) parseLong(f[8]) : -1,
              // Reaped (a time of death) with no exit status: a signal ended it.
              "1".equals(f[7]) && f[8].isBlank() && !f[9].isBlank() ? 0 : -1,
              parseLong(f[10]),
              (int) parseLong(f[11]),
              (int) parseLong(f[12]),
              f[14],
              f[13]));
    }
    return panes;
  }

  @Override
  public String capturePane(String name, int lines) throws TmuxException {
    Result result =
        capture(
            List.of("capture-pane", "-p", "-J", "-t", pane(name), "-S", "-" + Math.max(1, lines)));
    check(result, "capture-pane");
    return result.stdout;
  }

  @Override
  public String captureScreen(String name) throws TmuxException {
    Result result = capture(List.of("capture-pane", "-p", "-J", "-t", pane(name)));
    check(result, "capture-pane");
    return result.stdout;
  }

  /**
   * A command that prints a pane's text: through the control client, vouched for (a pane could
   * print the line that ends a block), else as a process of its own.
   */
  private Result capture(List<String> words) throws TmuxException {
    return vouched(words, words.get(words.indexOf("-t") + 1));
  }

  /**
   * A listing of panes: their titles are text a program chose, so it is vouched for as a capture
   * is; one that failed so (a forged block) lists by processes from then on.
   */
  private Result listing(List<String> words) throws TmuxException {
    return vouched(words, "");
  }

  private Result vouched(List<String> words, String target) throws TmuxException {
    ControlClient client = distrusted.contains(target) ? null : control();
    if (client != null) {
      try {
        return result(client.runVouched(ControlClient.commandLine(words), timeout));
      } catch (TmuxException e) {
        // The client closed: the same call as a process. If a pane misled it (forged a block's
        // end, or left a command unanswered), that pane's text (or any listing) never again goes
        // through a client; if it went with its server or session, the next client is trusted.
        if (client.misled()) {
          if (distrusted.size() >= MAX_DEATH_SIGNALS) {
            distrusted.clear();
          }
          distrusted.add(target);
        }
      }
    }
    return run(words);
  }

  /**
   * Panes whose capture through the control client failed, "" when a listing did: captured (or
   * listed) by processes only.
   */
  private final Set<String> distrusted = ConcurrentHashMap.newKeySet();

  private static Result result(ControlClient.Answer answer) {
    return answer.ok()
        ? new Result(0, answer.output().isEmpty() ? "" : answer.output() + "\n", "")
        : new Result(1, "", answer.output());
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

  /**
   * What the server has done, as a stamp that moves only when it did something: it read output of a
   * pane, a command of someone else's, or a file; a child of its came or went (a pane started or
   * died); its control client heard of a change (a session made or closed). Two plain reads under
   * {@code /proc} and no process, so it can be asked often; the commands the engine itself sends
   * through the control client are taken out. Null when it cannot tell (no {@code /proc}, no
   * control client on a server that runs): then only looking tells.
   */
  @Override
  public Activity activity() {
    if (!controlled) {
      return spawnedActivity();
    }
    ControlClient client = control();
    if (client == null) {
      String stamp = socketStamp();
      synchronized (controlLock) {
        if (stamp == null) {
          watched(ServerWatch.NO_SERVER, "no server runs on the socket");
          return new Activity("no server " + stamp);
        }
        if (!stamp.equals(controlRefusedAt)) {
          return null;
        }
        if (noServer(controlRefusal)) {
          // A socket no server answers on, already tried: nothing moves until it does.
          watched(ServerWatch.NO_SERVER, controlRefusal);
          return new Activity("no server " + stamp);
        }
      }
      // A server runs that the client could not join (a tmux without control mode, say): only
      // listing its panes tells what it did.
      watched(ServerWatch.POLLING, "the control client could not attach: " + controlRefusal);
      return null;
    }
    long sent = client.bytesSent();
    String work = client.busy() ? null : proc.serverWork(controlServerPid);
    if (work == null || client.busy() || client.bytesSent() != sent) {
      if (work == null && !client.busy()) {
        watched(ServerWatch.POLLING, "no activity stamp: /proc/<server pid>/io cannot be read");
        return null;
      }
      return new Activity("moving " + moving.incrementAndGet());
    }
    watched(ServerWatch.EVENTS, "control client and /proc activity stamp");
    long heard = notices.get();
    LastActivity last = lastActivity;
    if (last != null && sent == last.sent && heard == last.heard && work.equals(last.work)) {
      return last.activity; // the same as at the last look, which an idle engine asks twice a
      // second
    }
    long foreign = ProcFs.bytesRead(work) - sent;
    String children = work.substring(work.indexOf(' ') + 1);
    Activity now =
        new Activity(
            new StringBuilder()
                .append(controlServerPid)
                .append(' ')
                .append(foreign)
                .append(' ')
                .append(heard)
                .append(' ')
                .append(children)
                .toString());
    lastActivity = new LastActivity(sent, heard, work, now);
    return now;
  }

  /**
   * The control client, attached now if none is: to any session of the server, taking no part in
   * its size and hearing none of its output. Null when the server has no session to attach to
   * (tried again once the socket changes, or a session was made).
   */
  private ControlClient control() {
    if (!controlled) {
      return null;
    }
    ControlClient client = control;
    if (client != null && client.open()) {
      return client;
    }
    synchronized (controlLock) {
      client = control;
      if (client != null && client.open()) {
        return client;
      }
      if (client != null) {
        control = null;
        notices.incrementAndGet(); // what it would have heard meanwhile is unknown: look
      }
      String stamp = socketStamp();
      if (stamp == null || stamp.equals(controlRefusedAt)) {
        return null;
      }
      List<String> command = new ArrayList<>(List.of(binary));
      command.addAll(address);
      command.addAll(
          List.of("-f", "/dev/null", "-C", "attach-session", "-E", "-f", "ignore-size,no-output"));
      ProcessBuilder builder = ControlClient.relayed(command);
      builder.environment().keySet().removeIf(TmuxProcess::notForPanes);
      try {
        client =
            attach(
                () ->
                    ControlClient.start(
                        builder, line -> notices.incrementAndGet(), socket, timeout));
        String[] where =
            client
                .run("display-message -p '#{pid} #{session_name}'", timeout)
                .output()
                .split(" ", 2);
        controlServerPid = parseLong(where[0]);
        controlSession = where.length > 1 ? where[1].strip() : "";
        control = client;
        notices.incrementAndGet();
        return client;
      } catch (TmuxException e) {
        if (client != null) {
          client.close();
        }
        controlRefusedAt = socketStamp(); // as the attempt left it: a server it started has gone
        controlRefusal = oneLine(e.getMessage());
        return null;
      }
    }
  }

  /**
   * Whether tmux refused the client because no server (or no session) is there to join: it said so,
   * or the client ended without a word (the server it reached was exiting).
   */
  private static boolean noServer(String refusal) {
    return refusal.contains("no server running")
        || refusal.contains("error connecting")
        || refusal.contains("no sessions")
        || refusal.contains("server exited")
        || refusal.contains("lost server")
        || refusal.startsWith("tmux control client has closed");
  }

  private static String oneLine(String message) {
    String text = message == null ? "" : message.strip();
    int end = text.indexOf('\n');
    return end < 0 ? text : text.substring(0, end).strip();
  }

  /**
   * How this server is watched, as the last look at what it did found it (a look is made now if
   * none was yet).
   */
  public ServerWatch watch() {
    if (watch == null) {
      activity();
    }
    ServerWatch now = watch;
    return now != null ? now : new ServerWatch(socket, ServerWatch.POLLING, "not looked at yet");
  }

  @Override
  public List<ServerWatch> watches() {
    return List.of(watch());
  }

  /** Records how the server is watched; a change to polling is logged once, with its cause. */
  private void watched(String by, String why) {
    ServerWatch before = watch;
    if (before != null && before.by().equals(by) && before.why().equals(why)) {
      return; // as before: asked on every tick
    }
    ServerWatch now = new ServerWatch(socket, by, why);
    if (now.equals(before)) {
      return;
    }
    watch = now;
    if (by.equals(ServerWatch.POLLING)) {
      log.warn("tmux server {}: watched by polling: {}", socket, why);
    } else if (before != null && before.by().equals(ServerWatch.POLLING)) {
      log.info("tmux server {}: watched by {} again: {}", socket, by, why);
    }
  }

  /**
   * A person's server, which no control client joins: the same reads, its pid asked once for each
   * socket it listens on. The engine's calls to it are processes of their own, whose commands tmux
   * does not count as read.
   */
  private Activity spawnedActivity() {
    String stamp = socketStamp();
    if (stamp == null) {
      watched(ServerWatch.NO_SERVER, "no server runs on the socket");
      return new Activity("no server");
    }
    synchronized (controlLock) {
      if (!stamp.equals(controlRefusedAt)) {
        long pid = 0;
        try {
          Result result = run(List.of("display-message", "-p", "#{pid}"));
          pid = result.exitCode == 0 ? parseLong(result.stdout) : 0;
        } catch (TmuxException e) {
          // no server answers there
        }
        controlServerPid = pid;
        controlRefusedAt = stamp;
      }
    }
    long pid = controlServerPid;
    if (pid <= 0) {
      watched(ServerWatch.NO_SERVER, "no tmux server answers on the socket");
      return new Activity("no answer " + stamp);
    }
    String work = proc.serverWork(pid);
    if (work == null) {
      watched(ServerWatch.POLLING, "no activity stamp: /proc/<server pid>/io cannot be read");
      return null;
    }
    watched(
        ServerWatch.EVENTS,
        "/proc activity stamp (a person's server: no control client, commands as processes)");
    return new Activity(pid + " " + work);
  }

  /** The socket file's identity (its inode and time), or null when there is none. */
  private String socketStamp() {
    Path file = socketFile();
    if (file == null) {
      return null;
    }
    try {
      BasicFileAttributes attributes =
          Files.readAttributes(
              file, BasicFileAttributes.class, java.nio.file.LinkOption.NOFOLLOW_LINKS);
      return attributes.fileKey() + "@" + attributes.lastModifiedTime().toMillis();
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * A command whose output the engine chooses (never a pane's text): through the control client
   * when one is attached, else as a process of its own.
   */
  private Result call(List<String> words) throws TmuxException {
    return callThrough(control(), words);
  }

  private Result callThrough(ControlClient client, List<String> words) throws TmuxException {
    if (client != null) {
      try {
        return result(client.run(ControlClient.commandLine(words), timeout));
      } catch (TmuxException e) {
        // The client went (its session closed, the server ended): the same call as a process.
      }
    }
    List<String> args = new ArrayList<>(words.size());
    for (String word : words) {
      args.add(word.equals(";") ? word : escape(word));
    }
    return run(args);
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
    ControlClient client = control;
    if (client != null) {
      client.close();
    }
    try {
      run(List.of("kill-server"));
    } catch (TmuxException e) {
      // nothing was running
    }
    Path file = socketFile();
    try {
      if (file != null) {
        Files.deleteIfExists(file);
        if (gate != null) {
          gate.forget(); // no server is left to attach to
        }
      }
    } catch (IOException e) {
      // a socket file left behind does no harm
    }
  }

  /**
   * Where tmux keeps this socket: {@code $TMUX_TMPDIR/tmux-<uid>/<socket>}, {@code /tmp} by default
   * (or the file it was made for); null when the user id cannot be read. The {@code TMUX_TMPDIR} is
   * this process's own, not a setting of the engine's: the tmux processes started here inherit this
   * process's environment, and with it where their server puts its socket.
   */
  public Path socketFile() {
    Path file = ownSocketFile;
    if (file == null) {
      file = socketFileNow();
      ownSocketFile = file;
    }
    return file;
  }

  private volatile Path ownSocketFile;

  private Path socketFileNow() {
    return socketFileNow(address, socket);
  }

  private static Path socketFileNow(List<String> address, String socket) {
    if (address.get(0).equals("-S")) {
      return Path.of(socket);
    }
    String uid = ProcFs.system().userId();
    if (uid == null) {
      return null;
    }
    String dir = System.getenv().getOrDefault("TMUX_TMPDIR", "/tmp");
    return Path.of(dir.isBlank() ? "/tmp" : dir, "tmux-" + uid, socket);
  }

  /** Runs {@code work}, which makes tmux notify control clients, clear of any attach. */
  private <T> T notifying(AttachGate.Work<T> work) throws TmuxException {
    return gate == null ? work.run() : gate.notifying(work);
  }

  /** Attaches a control client, with nothing that notifies control clients running meanwhile. */
  private <T> T attach(AttachGate.Work<T> work) throws TmuxException {
    return gate == null ? work.run() : gate.attaching(work);
  }

  /** A session of clique's by its exact name, or one pane by its id ({@code %12}). */
  private static String pane(String name) {
    return PANE_ID.matcher(name).matches() ? name : "=" + name + ":";
  }

  /**
   * tmux splits its argument list at any argument that ends in {@code ;}. A trailing {@code \;} is
   * read back as a literal {@code ;}, so user text that ends in one stays text.
   */
  static String escape(String arg) {
    return arg.endsWith(";") ? arg.substring(0, arg.length() - 1) + "\\;" : arg;
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

  /**
   * Whether tmux failed because what the command was for is not there: no server (or one that ended
   * as it was asked: "server exited unexpectedly", "lost server"), or no such session.
   */
  private static boolean gone(Result result) {
    String err = result.stderr;
    return err.contains("no server running")
        || err.contains("server exited unexpectedly")
        || err.contains("lost server")
        || err.contains("can't find session")
        || err.contains("error connecting")
        || err.contains("No such file or directory");
  }

  private static long parseLong(String text) {
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private void check(Result result, String what) throws TmuxException {
    if (result.exitCode != 0) {
      String reason = result.stderr.strip();
      throw new TmuxException(
          "tmux " + what + " failed: " + (reason.isEmpty() ? "exit " + result.exitCode : reason),
          gone(result));
    }
  }

  private Result run(List<String> args) throws TmuxException {
    return run(args, Map.of(), new byte[0]);
  }

  private Result run(List<String> args, Map<String, String> extra) throws TmuxException {
    return run(args, extra, new byte[0]);
  }

  /**
   * Runs tmux with the engine's environment less its own secrets and tmux's pointers, plus {@code
   * extra}: a server that this call starts keeps that environment for every pane.
   */
  private Result run(List<String> args, Map<String, String> extra, byte[] stdin)
      throws TmuxException {
    List<String> command = new ArrayList<>(args.size() + 5);
    command.add(binary);
    command.addAll(address);
    command.add("-f");
    command.add("/dev/null");
    command.addAll(args);
    Process process;
    try {
      ProcessBuilder builder = new ProcessBuilder(command);
      Map<String, String> environment = builder.environment();
      environment.keySet().removeIf(TmuxProcess::notForPanes);
      environment.putAll(extra);
      process = builder.start();
    } catch (IOException e) {
      throw new TmuxException("tmux could not be started: " + e.getMessage(), e);
    }
    ScheduledFuture<?> watchdog =
        WATCHDOG.schedule(process::destroyForcibly, timeout.toMillis(), TimeUnit.MILLISECONDS);
    try {
      try (var in = process.getOutputStream()) {
        in.write(stdin);
      }
      // tmux writes little to stderr, so reading stdout to its end first cannot deadlock.
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      int exitCode = process.waitFor();
      if (!watchdog.cancel(false)) {
        throw new TmuxException("tmux " + args.get(0) + " did not finish within " + timeout);
      }
      return new Result(exitCode, out, err);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new TmuxException("interrupted while waiting for tmux", e);
    } catch (IOException e) {
      process.destroyForcibly();
      throw new TmuxException("tmux output could not be read: " + e.getMessage(), e);
    } finally {
      watchdog.cancel(false);
    }
  }

  /**
   * The engine's own variables ({@code CLIQUE_TOKEN} and the like) and the tmux it may be running
   * inside (never talked to): not for a tmux server, which hands its environment to every pane.
   */
  /**
   * The engine's own variables (its secrets, tmux's pointers to the engine's own terminal) and the
   * marks of a build server it may run on: a pane is a terminal a person can attach to, and a CLI
   * that sees {@code CI=true} leaves its terminal interface (Gemini CLI then runs headless and
   * exits at once).
   */
  private static boolean notForPanes(String name) {
    return name.startsWith("CLIQUE_")
        || BUILD_SERVER_MARKS.contains(name)
        || name.equals("TMUX")
        || name.equals("TMUX_PANE");
  }

  private static final Set<String> BUILD_SERVER_MARKS =
      Set.of("CI", "CONTINUOUS_INTEGRATION", "GITHUB_ACTIONS");

  private record Result(int exitCode, String stdout, String stderr) {}
}
