package dev.clique.engine.hooks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.engine.state.Report;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The latest state each CLI process outside the engine's own sessions reported through the hooks a
 * person installed ({@code clique hooks install}): keyed by the process and its start time in
 * {@code /proc}, so a pid the kernel gives to another process never inherits a report. It holds at
 * most {@value #MAX_PROCESSES} processes; those that ended are dropped as new ones report and when
 * the engine's housekeeping calls {@link #forgetEnded} (every 30 s), and the oldest report goes
 * when all still run.
 *
 * <p>The event is read with its CLI's own {@link HookDialect}, as a session the engine started is.
 * The hook's command runs under a shell the CLI starts, so the pid a hook reports (its parent) may
 * be that shell: the CLI is the nearest ancestor that is not one.
 */
public final class HookReports {
  /** The most processes kept. */
  public static final int MAX_PROCESSES = 256;

  /** The CLIs whose hooks a person can install, by the catalogue's and the dialects' name. */
  public static final List<String> CLIS = List.of("claude", "codex", "qwen");

  /** Shells a CLI runs a hook's command under. */
  private static final Set<String> SHELLS = Set.of("sh", "bash", "dash", "zsh", "ash", "busybox");

  /** How many shells may stand between the hook's command and its CLI. */
  private static final int MAX_SHELLS = 3;

  /** One CLI process's latest report. */
  public record Entry(String cli, long pid, long startTicks, Report report) {}

  private record Key(long pid, long startTicks) {}

  private final Path proc;
  private final Map<Key, Entry> latest = new LinkedHashMap<>();
  private final List<Consumer<Entry>> listeners = new CopyOnWriteArrayList<>();

  /** Reports of the processes in {@code proc} ({@code /proc}, or a test's copy). */
  public HookReports(Path proc) {
    this.proc = proc;
  }

  public static HookReports system() {
    return new HookReports(Path.of("/proc"));
  }

  /** The latest report of the process {@code pid} that started at {@code startTicks}, if any. */
  public synchronized Optional<Report> latest(long pid, long startTicks) {
    return Optional.ofNullable(latest.get(new Key(pid, startTicks))).map(Entry::report);
  }

  /** Called with each new report, on the thread that received it: it must return quickly. */
  public void onChange(Consumer<Entry> listener) {
    listeners.add(listener);
  }

  /**
   * Reads {@code event}, sent by a hook of {@code cli} whose parent is {@code reporterPid}, and
   * keeps what it says for the CLI's process.
   *
   * @return the entry kept, or empty when the event says nothing of the state
   * @throws IllegalArgumentException for a CLI without opt-in hooks, an event that is not that
   *     CLI's, or a process that is not running
   */
  public Optional<Entry> report(String cli, long reporterPid, JsonNode event, long nowMillis) {
    if (!CLIS.contains(cli)) {
      throw new IllegalArgumentException(
          "no hooks of " + cli + ": clique reads those of " + String.join(", ", CLIS));
    }
    HookDialect dialect = HookDialect.named(cli).orElseThrow();
    Optional<Report> report = dialect.read(event, nowMillis);
    long pid = cliProcess(reporterPid);
    long start = startTicks(pid);
    if (start < 0) {
      throw new IllegalArgumentException("no process " + reporterPid + " runs");
    }
    if (report.isEmpty()) {
      return Optional.empty();
    }
    Entry entry = new Entry(cli, pid, start, report.get());
    synchronized (this) {
      Key key = new Key(pid, start);
      latest.remove(key); // the newest last, for the bound's order
      latest.put(key, entry);
      if (latest.size() > MAX_PROCESSES) {
        latest.keySet().removeIf(k -> startTicks(k.pid()) != k.startTicks());
      }
      Iterator<Key> oldest = latest.keySet().iterator();
      while (latest.size() > MAX_PROCESSES) {
        oldest.next();
        oldest.remove();
      }
    }
    for (Consumer<Entry> listener : listeners) {
      listener.accept(entry);
    }
    return Optional.of(entry);
  }

  /** Drops the reports of processes that ended. */
  public synchronized void forgetEnded() {
    latest.keySet().removeIf(k -> startTicks(k.pid()) != k.startTicks());
  }

  synchronized int size() {
    return latest.size();
  }

  /**
   * {@code pid}, or its nearest ancestor that is not a shell; and that one's topmost ancestor of
   * the same program, as discovery names a CLI by its topmost process: a CLI that starts itself
   * anew as its own child (Qwen Code, for a larger heap) runs its hooks from the child.
   */
  private long cliProcess(long pid) {
    long current = pid;
    for (int i = 0; i < MAX_SHELLS; i++) {
      String[] stat = stat(current);
      if (stat == null || !SHELLS.contains(stat[0])) {
        break;
      }
      long parent = parse(stat[2]);
      if (parent <= 1) {
        return current;
      }
      current = parent;
    }
    for (int i = 0; i < MAX_SHELLS; i++) {
      String[] stat = stat(current);
      if (stat == null) {
        return current;
      }
      long parent = parse(stat[2]);
      String[] above = parent <= 1 ? null : stat(parent);
      if (above == null || !above[0].equals(stat[0])) {
        return current;
      }
      current = parent;
    }
    return current;
  }

  /** Its start time in clock ticks after boot, or -1 when it does not run. */
  private long startTicks(long pid) {
    String[] stat = stat(pid);
    return stat == null || stat.length < 21 ? -1 : parse(stat[20]);
  }

  /**
   * {@code /proc/<pid>/stat}: its command name, then the fields after it (state, ppid, ...), so the
   * start time is at index 20; null when there is no such process.
   */
  private String[] stat(long pid) {
    if (pid <= 0) {
      return null;
    }
    try {
      String text =
          new String(Files.readAllBytes(proc.resolve(pid + "/stat")), StandardCharsets.UTF_8);
      int open = text.indexOf('(');
      int close = text.lastIndexOf(')');
      if (open < 0 || close < open) {
        return null;
      }
      String[] rest = text.substring(close + 1).strip().split(" ");
      String[] fields = new String[rest.length + 1];
      fields[0] = text.substring(open + 1, close);
      System.arraycopy(rest, 0, fields, 1, rest.length);
      return fields;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static long parse(String text) {
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
