package dev.clique.engine.discovery;

import dev.clique.engine.catalogue.CliCatalogue;
import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.hooks.HookReports;
import dev.clique.engine.state.Attention;
import dev.clique.engine.state.Report;
import dev.clique.engine.transcript.TranscriptRoots;
import dev.clique.engine.transcript.Transcripts;
import dev.clique.engine.transcript.Turn;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the CLIs of the catalogue that run outside tmux: in a terminal tab, an IDE's terminal, over
 * ssh. A process is one when it runs as this user, has a terminal (unless headless ones are asked
 * for), runs a CLI whose conversation the engine reads, is the topmost process of that CLI, has no
 * tmux among its ancestors (a pane's, clique's or a person's, which discovery in tmux lists) and
 * was not started by a clique engine ({@code CLIQUE_SESSION} in its environment).
 *
 * <p>What it costs while nothing happens: one look a second at {@code /proc/loadavg}, whose last
 * field is the pid last given to a new process; {@code /proc} is walked only when that moved (and
 * then only the processes not seen before are read), or while a process with a terminal is young
 * enough to still become a CLI (an interpreter, a launcher script that execs). Claude Code's
 * registry ({@code <config>/sessions/<pid>.json}) is watched with inotify, so a Claude Code is
 * found as soon as it registers, and its {@code status} there says its state. A session is found
 * within about a second of its start, and stopped within about a second of its end; an ended one
 * stays listed, stopped, for {@link Discovery#KEEP_ENDED}.
 *
 * <p>A registry file that is not JSON, is cut short, too large, a symbolic link, or names a pid
 * that is not running, runs no Claude Code or started at another time (a reused pid) lists nothing;
 * each is logged once, until its cause changes.
 */
final class OutsideTmux implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(OutsideTmux.class);

  /** How often it looks: a session is found, and stopped, within about this long. */
  private volatile HookReports hooks;

  static final long TICK_MILLIS = 1_000;

  /**
   * How long a new process with a terminal that runs no CLI yet is read again at each look: a CLI's
   * start goes through a launcher ({@code env node}, a shell script) that execs it later.
   */
  static final long YOUNG_MILLIS = 15_000;

  /**
   * How long a state read from a transcript stands before it is read again: finding and reading a
   * transcript costs more than a registry's few hundred bytes, and an idle engine reads little.
   */
  static final long TRANSCRIPT_MILLIS = 3_000;

  /** A state read from a transcript, and when. */
  private record ReadAt(long at, Optional<OwnState> state) {}

  /** Most ancestors walked: a chain longer than this is not a terminal's. */
  private static final int MAX_ANCESTORS = 64;

  /** A pid as it was judged: with its start, a pid is one process. */
  private record Judged(long startTicks, long startMillis, boolean settled) {
    boolean young(long now) {
      return !settled && now - startMillis < YOUNG_MILLIS;
    }
  }

  /** What a CLI process's ancestors say: inside tmux, under its own CLI, in which terminal. */
  private record Ancestry(boolean inTmux, boolean underItsCli, String program) {}

  private final CliCatalogue catalogue;
  private final Processes processes;
  private final Clock clock;
  private final boolean headless;
  private final long uid;
  private final Set<Path> registries = new LinkedHashSet<>(); // guarded by this
  private final Map<Long, Judged> judged = new HashMap<>(); // guarded by this
  private final Map<String, Found> running = new LinkedHashMap<>(); // guarded by this
  private final Map<String, Found> ended = new LinkedHashMap<>(); // guarded by this
  private final Map<String, Long> endedAt = new HashMap<>(); // guarded by this
  private final Map<String, ReadAt> transcriptStates = new HashMap<>(); // guarded by this
  private final Map<String, String> causes = new ConcurrentHashMap<>();
  private final TranscriptMapping mapping;
  private volatile Transcripts transcripts;
  private volatile Path userHome;
  private volatile List<Found> found = List.of();
  private volatile Runnable onChange = () -> {};
  private long lastPid = -2; // guarded by this
  private long youngUntil; // guarded by this
  private boolean sweepDue = true; // guarded by this
  private long bootMillis = -1; // guarded by this
  private Thread thread;
  private volatile boolean closed;

  OutsideTmux(
      CliCatalogue catalogue,
      Processes processes,
      Clock clock,
      boolean headless,
      List<Path> claudeRegistries) {
    this.catalogue = catalogue;
    this.processes = processes;
    this.clock = clock;
    this.headless = headless;
    this.uid = Discovery.currentUid();
    this.mapping = new TranscriptMapping(processes);
    this.registries.addAll(claudeRegistries);
  }

  private synchronized int judged() {
    return judged.size();
  }

  /** Hands each change of {@link #found()} to {@code listener}, on the looking thread. */
  void onChange(Runnable listener) {
    this.onChange = listener;
  }

  /**
   * Reads a CLI's state from its transcript where its registry says nothing, with the engine's
   * readers (their caches serve the conversation too).
   *
   * @param userHome the home to assume for a CLI whose environment names none
   */
  void readStatesWith(Transcripts readers, Path home) {
    this.userHome = home;
    this.transcripts = readers;
  }

  /**
   * Takes a CLI's state first from the hooks a person installed ({@code clique hooks install}),
   * whose latest report for the process (its pid and start) the engine keeps: a hook says what no
   * record does (a question, a permission's command, an error).
   */
  void readHooksFrom(HookReports reports) {
    this.hooks = reports;
  }

  /** Every CLI found outside tmux, the ended ones (stopped) among them. */
  List<Found> found() {
    return found;
  }

  void start() {
    long began = System.nanoTime();
    scanNow();
    log.info(
        "outside tmux: looking for CLIs{} (the first look read {} processes in {} ms)",
        headless ? ", those without a terminal too" : " that have a terminal",
        judged(),
        (System.nanoTime() - began) / 1_000_000);
    thread = new Thread(this::watch, "discovery-outside");
    thread.setDaemon(true);
    thread.start();
  }

  private void watch() {
    WatchService watch;
    try {
      watch = FileSystems.getDefault().newWatchService();
    } catch (IOException | UnsupportedOperationException e) {
      log.info("outside tmux: no file watch ({}): Claude Code is found by the look at /proc", e);
      watch = null;
    }
    Set<Path> watched = new HashSet<>();
    try {
      while (!closed) {
        if (watch != null) {
          register(watch, watched);
        }
        WatchKey key = watch == null ? sleep() : watch.poll(TICK_MILLIS, TimeUnit.MILLISECONDS);
        if (key != null) {
          Path dir = (Path) key.watchable();
          for (WatchEvent<?> event : key.pollEvents()) {
            if (event.context() instanceof Path name) {
              ClaudeRegistry.pidOf(name).ifPresent(pid -> registered(dir, pid));
            }
          }
          if (!key.reset()) {
            watched.remove(dir);
          }
        }
        try {
          scanNow();
        } catch (RuntimeException e) {
          log.warn("outside tmux: one look for CLIs failed", e);
        }
      }
    } catch (InterruptedException | ClosedWatchServiceException e) {
      Thread.currentThread().interrupt();
    } finally {
      if (watch != null) {
        try {
          watch.close();
        } catch (IOException e) {
          // it goes with the thread
        }
      }
    }
  }

  private static WatchKey sleep() throws InterruptedException {
    Thread.sleep(TICK_MILLIS);
    return null;
  }

  /** Watches each registry folder that exists and is not watched yet. */
  private void register(WatchService watch, Set<Path> watched) {
    List<Path> wanted;
    synchronized (this) {
      wanted = List.copyOf(registries);
    }
    for (Path dir : wanted) {
      if (watched.contains(dir) || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
        continue;
      }
      try {
        dir.register(
            watch,
            StandardWatchEventKinds.ENTRY_CREATE,
            StandardWatchEventKinds.ENTRY_MODIFY,
            StandardWatchEventKinds.ENTRY_DELETE);
        watched.add(dir);
      } catch (IOException e) {
        note(dir.toString(), "cannot be watched: " + e.getMessage());
      }
    }
  }

  /**
   * A registry file was written or removed: the pid it names is judged at the next look, which
   * comes now, once {@code /proc} confirms the file (a reused pid, a pid of another program, an
   * ended one are said and left out).
   */
  synchronized void registered(Path dir, long pid) {
    sweepDue = true;
    Path file = dir.resolve(pid + ".json");
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      causes.remove(file.toString());
      return; // removed as its process exits: the look sees the end
    }
    ClaudeRegistry.Entry entry;
    try {
      entry = ClaudeRegistry.read(dir, pid);
    } catch (ClaudeRegistry.Refused e) {
      note(file.toString(), e.getMessage());
      return;
    }
    Optional<Processes.Stat> stat = processes.stat(pid);
    if (stat.isEmpty()) {
      note(file.toString(), "names pid " + pid + ", which is not running");
      return;
    }
    if (entry.procStart() >= 0 && entry.procStart() != stat.get().startTicks()) {
      note(
          file.toString(),
          "names pid "
              + pid
              + " started at tick "
              + entry.procStart()
              + ", but that pid now runs a process started at tick "
              + stat.get().startTicks()
              + " (a reused pid)");
      return;
    }
    Optional<CliDefinition> claude = catalogue.find("claude");
    List<String> argv = processes.argv(pid);
    if (claude.isEmpty()
        || argv.isEmpty()
        || !CliMatch.runs(claude.get(), argv, processes.executable(pid).orElse(null))) {
      note(file.toString(), "names pid " + pid + ", which does not run Claude Code");
      return;
    }
    causes.remove(file.toString());
    judged.remove(pid); // judged afresh: it may have exec'd Claude Code since it was last read
  }

  /** One look: new processes when any started, then the state or end of each one found. */
  synchronized void scanNow() {
    long now = clock.millis();
    long last = processes.lastPid();
    if (sweepDue || last < 0 || last != lastPid || now < youngUntil) {
      sweepDue = false;
      lastPid = last;
      sweep(now);
    }
    Map<String, Found> next = new LinkedHashMap<>();
    for (Found one : List.copyOf(running.values())) {
      if (processes.alive(one.cliPid(), one.cliStartTicks())) {
        next.put(one.id(), one.withOwn(ownState(one)));
        continue;
      }
      running.remove(one.id());
      transcriptStates.remove(one.id());
      ended.put(one.id(), one.withOwn(null).asEnded());
      endedAt.put(one.id(), now);
      log.info("outside tmux: {} (pid {}) ended", one.cli(), one.cliPid());
    }
    running.putAll(next);
    for (Found one : List.copyOf(ended.values())) {
      if (now - endedAt.get(one.id()) >= Discovery.KEEP_ENDED.toMillis()) {
        ended.remove(one.id());
        endedAt.remove(one.id());
      } else {
        next.put(one.id(), one);
      }
    }
    List<Found> listed = List.copyOf(next.values());
    if (!listed.equals(found)) {
      found = listed;
      onChange.run();
    }
  }

  /** Reads the processes not judged before (and the young ones again). */
  private void sweep(long now) {
    List<Long> pids = processes.pids();
    judged.keySet().retainAll(new HashSet<>(pids));
    long young = 0;
    for (long pid : pids) {
      Judged before = judged.get(pid);
      if (before != null && !before.young(now)) {
        continue;
      }
      Judged verdict = judge(pid);
      if (verdict == null) {
        judged.remove(pid);
        continue;
      }
      judged.put(pid, verdict);
      if (verdict.young(now)) {
        young = Math.max(young, verdict.startMillis() + YOUNG_MILLIS);
      }
    }
    youngUntil = young;
  }

  /** Reads one process: a CLI outside tmux is added to those running; null when it ended. */
  private Judged judge(long pid) {
    Optional<Processes.Stat> read = processes.stat(pid);
    if (read.isEmpty()) {
      return null;
    }
    Processes.Stat stat = read.get();
    long started = startMillis(stat.startTicks());
    if (processes.uid(pid) != uid) {
      return new Judged(stat.startTicks(), started, true); // never another user's
    }
    if (stat.terminal() == 0 && !headless) {
      // Read again while young: a terminal's child has none until it set its session up.
      return new Judged(stat.startTicks(), started, false);
    }
    List<String> argv = processes.argv(pid);
    Optional<CliDefinition> cli =
        CliMatch.of(argv, processes.executable(pid).orElse(null), catalogue)
            .filter(one -> Transcripts.kinds().contains(one.transcript()));
    if (cli.isEmpty()) {
      return new Judged(stat.startTicks(), started, false);
    }
    String id = id(pid, stat.startTicks());
    if (running.containsKey(id) || ended.containsKey(id)) {
      return new Judged(stat.startTicks(), started, true);
    }
    Ancestry ancestry = ancestry(stat.parent(), stat.terminal(), cli.get());
    if (ancestry.inTmux() || ancestry.underItsCli()) {
      return new Judged(stat.startTicks(), started, true); // a pane's, or a part of a session
    }
    Map<String, String> own = processes.environment(pid);
    String engines = own.get("CLIQUE_SESSION");
    if (engines != null) {
      note(
          "pid " + pid,
          "pid " + pid + " is session " + engines + " of a clique engine: left to it");
      return new Judged(stat.startTicks(), started, true);
    }
    Map<String, String> env = new LinkedHashMap<>();
    for (String name : Discovery.ROOT_VARIABLES) {
      String value = own.get(name);
      if (value != null && !value.isBlank()) {
        env.put(name, value);
      }
    }
    String cwd = processes.cwd(pid).orElse(null);
    if (cwd == null) {
      return null; // ended while it was read
    }
    Terminal terminal = new Terminal(ttyName(stat.terminal()), ancestry.program());
    Found one =
        new Found(
            id,
            name(terminal, pid),
            cli.get().id(),
            cwd,
            started / 1000.0,
            null,
            null,
            0,
            null,
            pid,
            stat.startTicks(),
            argv,
            env,
            false,
            terminal,
            null);
    running.put(id, one.withOwn(ownState(one)));
    if (cli.get().id().equals("claude")) {
      registries.add(claudeRegistry(one));
    }
    log.info(
        "outside tmux: {}, pid {} on {}{} (in {})",
        cli.get().id(),
        pid,
        terminal.tty() == null ? "no terminal" : terminal.tty(),
        terminal.program() == null ? "" : " in " + terminal.program(),
        cwd);
    return new Judged(stat.startTicks(), started, true);
  }

  /**
   * Walks up from {@code parent}: the same CLI above (it is a part of that session), tmux, and the
   * terminal's program, nearest first. A tmux server counts only when every process on the way has
   * the CLI's own terminal: then that terminal is a pane's. A process in a terminal of its own (an
   * editor, a terminal emulator, a test's pty) started from a pane is not in that pane.
   */
  private Ancestry ancestry(long parent, int terminal, CliDefinition cli) {
    String program = null;
    boolean paneTerminal = true;
    long at = parent;
    for (int depth = 0; at > 1 && depth < MAX_ANCESTORS; depth++) {
      Optional<Processes.Stat> stat = processes.stat(at);
      if (stat.isEmpty()) {
        break;
      }
      String name = stat.get().name();
      if (name.startsWith("tmux")) {
        if (paneTerminal) {
          return new Ancestry(true, false, null);
        }
        break; // a terminal started from a pane: its program was named below, or is unknown
      }
      List<String> argv = processes.argv(at);
      if (!argv.isEmpty() && CliMatch.runs(cli, argv, processes.executable(at).orElse(null))) {
        return new Ancestry(false, true, null);
      }
      if (program == null) {
        program = TerminalPrograms.of(name, argv);
      }
      paneTerminal = paneTerminal && stat.get().terminal() == terminal;
      at = stat.get().parent();
    }
    return new Ancestry(false, false, program);
  }

  /** What the CLI says of its state: Claude Code's registry, else its transcript, else nothing. */
  private OwnState ownState(Found one) {
    HookReports reports = hooks;
    Optional<Report> hooked =
        reports == null ? Optional.empty() : reports.latest(one.cliPid(), one.cliStartTicks());
    if (hooked.isPresent()) {
      Report report = hooked.get();
      Attention why = report.attention();
      return new OwnState(
          report.state().wireName(),
          why == null ? null : why.kind(),
          why == null ? null : why.detail(),
          why == null ? 0 : why.sinceMillis(),
          report.authority(),
          report.evidence());
    }
    if (one.cli().equals("claude")) {
      Optional<OwnState> registered = registryState(one);
      if (registered.isPresent()) {
        return registered.get();
      }
    }
    long now = clock.millis();
    ReadAt last = transcriptStates.get(one.id());
    if (last == null || now - last.at() >= TRANSCRIPT_MILLIS) {
      last = new ReadAt(now, transcriptState(one));
      transcriptStates.put(one.id(), last);
    }
    Optional<OwnState> fromTranscript = last.state();
    if (fromTranscript.isPresent()) {
      return fromTranscript.get();
    }
    return new OwnState(
        "idle",
        null,
        null,
        0,
        "process",
        "running; without a screen or hooks nothing tells whether it works or waits");
  }

  private Optional<OwnState> registryState(Found one) {
    Path dir = claudeRegistry(one);
    String file = dir.resolve(one.cliPid() + ".json").toString();
    ClaudeRegistry.Entry entry;
    try {
      entry = ClaudeRegistry.read(dir, one.cliPid());
    } catch (ClaudeRegistry.Refused e) {
      if (Files.exists(Path.of(file), LinkOption.NOFOLLOW_LINKS)) {
        note(file, e.getMessage());
      }
      return Optional.empty();
    }
    if (entry.procStart() >= 0 && entry.procStart() != one.cliStartTicks()) {
      note(file, "is of another process that had pid " + one.cliPid() + " (a reused pid)");
      return Optional.empty();
    }
    causes.remove(file);
    String status = entry.status() == null ? null : entry.status().toLowerCase(Locale.ROOT);
    String evidence = "sessions/" + one.cliPid() + ".json status " + entry.status();
    if ("busy".equals(status)) {
      return Optional.of(
          new OwnState("working", null, null, entry.statusSince(), "registry", evidence));
    }
    if ("idle".equals(status)) {
      return Optional.of(
          new OwnState("idle", null, null, entry.statusSince(), "registry", evidence));
    }
    if ("waiting".equals(status)) {
      String why = entry.waitingFor();
      String kind =
          why != null && why.toLowerCase(Locale.ROOT).contains("permission")
              ? "permission"
              : "question";
      return Optional.of(
          new OwnState(
              "waiting",
              kind,
              why == null ? "waiting for input" : why,
              entry.statusSince(),
              "registry",
              evidence + (why == null ? "" : " for " + why)));
    }
    return Optional.empty();
  }

  /**
   * What the transcript's last turn says: a prompt not answered yet, working; an answer, idle (the
   * CLI may still run a tool after it: the evidence says what was read).
   */
  private Optional<OwnState> transcriptState(Found one) {
    Transcripts readers = transcripts;
    String kind = catalogue.find(one.cli()).map(CliDefinition::transcript).orElse("");
    if (readers == null || !Transcripts.kinds().contains(kind)) {
      return Optional.empty();
    }
    List<Turn> turns;
    try {
      TranscriptMapping.Mapped mapped = mapping.map(one, kind, userHome);
      turns = readers.turns(mapped.request(), mapped.roots());
    } catch (RuntimeException e) {
      note("pid " + one.cliPid(), "its transcript says no state: " + e.getMessage());
      return Optional.empty();
    }
    if (turns.isEmpty()) {
      return Optional.empty();
    }
    Turn last = turns.get(turns.size() - 1);
    return Optional.of(
        Turn.USER.equals(last.role())
            ? new OwnState("working", null, null, 0, "transcript", "a prompt not answered yet")
            : new OwnState(
                "idle",
                null,
                null,
                0,
                "transcript",
                "the last turn is an answer (a tool it still runs would not show)"));
  }

  /** Claude Code's registry folder for this process: its config folder's {@code sessions}. */
  private static Path claudeRegistry(Found one) {
    String home = one.env().get("HOME");
    Path userHome = Path.of(home == null ? System.getProperty("user.home") : home);
    return TranscriptRoots.fromEnvironment(one.env(), userHome)
        .claudeConfigDir()
        .resolve("sessions");
  }

  /** The process's start in unix milliseconds, from its start in clock ticks since boot. */
  private long startMillis(long ticks) {
    if (bootMillis < 0) {
      bootMillis = Math.max(0, processes.bootMillis());
    }
    return bootMillis + ticks * 1000 / Processes.TICKS_PER_SECOND;
  }

  static String id(long pid, long startTicks) {
    String identity = "outside\0" + pid + "\0" + startTicks;
    return UUID.nameUUIDFromBytes(identity.getBytes(StandardCharsets.UTF_8)).toString();
  }

  /** A session's name: where it runs ({@code VS Code pts/3}), or its pid without a terminal. */
  private static String name(Terminal terminal, long pid) {
    String where =
        terminal.tty() == null ? "pid " + pid : terminal.tty().replaceFirst("^/dev/", "");
    return terminal.program() == null ? where : terminal.program() + " " + where;
  }

  /**
   * The terminal's device from {@code tty_nr} (its major and minor numbers): {@code /dev/pts/N} for
   * a pseudo-terminal, {@code /dev/ttyN} for a console; null for none.
   */
  static String ttyName(int ttyNr) {
    if (ttyNr == 0) {
      return null;
    }
    int major = (ttyNr >> 8) & 0xfff;
    int minor = (ttyNr & 0xff) | ((ttyNr >> 12) & 0xfff00);
    if (major >= 136 && major <= 143) {
      return "/dev/pts/" + ((major - 136) * 256 + minor);
    }
    if (major == 4) {
      return minor < 64 ? "/dev/tty" + minor : "/dev/ttyS" + (minor - 64);
    }
    return "/dev/char/" + major + ":" + minor;
  }

  /** Logs a cause once, until it changes. */
  private void note(String subject, String cause) {
    if (!cause.equals(causes.put(subject, cause))) {
      log.info("outside tmux: {}: {}", subject, cause);
    }
  }

  /** What was last said of each file or process that was not listed, by its name (tests). */
  Map<String, String> causes() {
    return Map.copyOf(causes);
  }

  @Override
  public void close() {
    closed = true;
    if (thread != null) {
      thread.interrupt();
    }
  }
}
