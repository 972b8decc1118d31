package dev.clique.engine.discovery;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The processes as Linux's {@code /proc} shows them, read with plain file reads: a process tree, a
 * process's argv, executable, folder, environment, open files and start. A process that ends while
 * it is read answers empty, never an error.
 */
final class Processes {
  /** Clock ticks per second of {@code /proc/<pid>/stat}'s start time: 100 on every Linux. */
  static final long TICKS_PER_SECOND = 100;

  /** Most processes one pane's tree is walked through: a fork bomb is not a session. */
  private static final int MAX_TREE = 2_000;

  private final Path root;

  Processes(Path root) {
    this.root = root;
  }

  static Processes system() {
    return new Processes(Path.of("/proc"));
  }

  /** The process and its descendants, parents before children. */
  List<Long> tree(long pid) {
    Set<Long> seen = new LinkedHashSet<>();
    Deque<Long> todo = new ArrayDeque<>(List.of(pid));
    Map<Long, List<Long>> byParent = null;
    while (!todo.isEmpty() && seen.size() < MAX_TREE) {
      long next = todo.pop();
      if (!seen.add(next)) {
        continue;
      }
      Optional<List<Long>> children = children(next);
      if (children.isEmpty()) {
        // No children files (a kernel without them): every process's parent, read once.
        if (byParent == null) {
          byParent = parents();
        }
        todo.addAll(byParent.getOrDefault(next, List.of()));
      } else {
        todo.addAll(children.get());
      }
    }
    return new ArrayList<>(seen);
  }

  /** The children of every thread of {@code pid}; empty when the kernel has no such files. */
  private Optional<List<Long>> children(long pid) {
    Path tasks = root.resolve(pid + "/task");
    List<Long> children = new ArrayList<>();
    boolean any = false;
    try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
      for (Path thread : threads) {
        Path file = thread.resolve("children");
        String text;
        try {
          text = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
          continue; // the thread ended, or the kernel has no children files
        }
        any = true;
        for (String child : text.strip().split("\\s+")) {
          long value = parse(child);
          if (value > 0) {
            children.add(value);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      return Optional.of(List.of()); // the process ended: no children
    }
    return any ? Optional.of(children) : Optional.empty();
  }

  private Map<Long, List<Long>> parents() {
    Map<Long, List<Long>> byParent = new HashMap<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(root, Processes::isPid)) {
      for (Path entry : entries) {
        long pid = Long.parseLong(entry.getFileName().toString());
        String[] fields = statFields(pid);
        if (fields != null && fields.length > 1) {
          byParent.computeIfAbsent(parse(fields[1]), k -> new ArrayList<>()).add(pid);
        }
      }
    } catch (IOException | RuntimeException e) {
      return Collections.emptyMap();
    }
    return byParent;
  }

  /** The process's argv; empty when it has ended (or is a kernel thread). */
  List<String> argv(long pid) {
    try {
      byte[] raw = Files.readAllBytes(root.resolve(pid + "/cmdline"));
      List<String> args = new ArrayList<>();
      int start = 0;
      for (int i = 0; i < raw.length; i++) {
        if (raw[i] == 0) {
          args.add(new String(raw, start, i - start, StandardCharsets.UTF_8));
          start = i + 1;
        }
      }
      if (start < raw.length) {
        args.add(new String(raw, start, raw.length - start, StandardCharsets.UTF_8));
      }
      return args;
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
  }

  /** The process's executable file, or empty when it cannot be read. */
  Optional<String> executable(long pid) {
    return link(root.resolve(pid + "/exe"));
  }

  /** The process's working directory, or empty when it has ended. */
  Optional<String> cwd(long pid) {
    return link(root.resolve(pid + "/cwd"));
  }

  /** The files the process holds open, as their paths. */
  List<String> openFiles(long pid) {
    List<String> files = new ArrayList<>();
    try (DirectoryStream<Path> fds = Files.newDirectoryStream(root.resolve(pid + "/fd"))) {
      for (Path fd : fds) {
        link(fd).ifPresent(files::add);
      }
    } catch (IOException | RuntimeException e) {
      // ended, or not ours to read
    }
    return files;
  }

  /** The process's own environment, as it was when it started. */
  Map<String, String> environment(long pid) {
    Map<String, String> env = new HashMap<>();
    try {
      byte[] raw = Files.readAllBytes(root.resolve(pid + "/environ"));
      int start = 0;
      for (int i = 0; i <= raw.length; i++) {
        if (i == raw.length || raw[i] == 0) {
          String pair = new String(raw, start, i - start, StandardCharsets.UTF_8);
          int eq = pair.indexOf('=');
          if (eq > 0) {
            env.putIfAbsent(pair.substring(0, eq), pair.substring(eq + 1));
          }
          start = i + 1;
        }
      }
    } catch (IOException | RuntimeException e) {
      // ended, or not ours to read
    }
    return env;
  }

  /**
   * When the process started, in clock ticks since boot: with the pid, it names one process (a pid
   * is reused, a pid and its start are not). -1 when it has ended.
   */
  long startTicks(long pid) {
    String[] fields = statFields(pid);
    // After the name: state(0) ppid(1) ... starttime is field 22 of stat, index 19 here.
    return fields == null || fields.length < 20 ? -1 : parse(fields[19]);
  }

  /** The start of the process, in unix milliseconds; -1 when it has ended. */
  long startMillis(long pid) {
    long ticks = startTicks(pid);
    long boot = bootSeconds();
    if (ticks < 0 || boot <= 0) {
      return -1;
    }
    return boot * 1000 + ticks * 1000 / TICKS_PER_SECOND;
  }

  /**
   * What {@code /proc/<pid>/stat} says of a process: its command name, parent, terminal ({@code
   * tty_nr}, 0 for none) and start in clock ticks since boot.
   */
  record Stat(String name, long parent, int terminal, long startTicks) {}

  /** The process's stat; empty when it has ended. */
  Optional<Stat> stat(long pid) {
    try {
      String stat =
          new String(Files.readAllBytes(root.resolve(pid + "/stat")), StandardCharsets.UTF_8);
      int open = stat.indexOf('(');
      int end = stat.lastIndexOf(')');
      if (open < 0 || end < open) {
        return Optional.empty();
      }
      String[] fields = stat.substring(end + 1).strip().split(" ");
      if (fields.length < 20) {
        return Optional.empty();
      }
      return Optional.of(
          new Stat(
              stat.substring(open + 1, end),
              parse(fields[1]),
              (int) parse(fields[4]),
              parse(fields[19])));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Every process's pid, as {@code /proc} lists them now. */
  List<Long> pids() {
    List<Long> pids = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(root, Processes::isPid)) {
      for (Path entry : entries) {
        pids.add(Long.parseLong(entry.getFileName().toString()));
      }
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
    return pids;
  }

  /** The user id the process runs as (the owner of its {@code /proc} folder); -1 once it ended. */
  long uid(long pid) {
    try {
      return ((Number) Files.getAttribute(root.resolve(Long.toString(pid)), "unix:uid"))
          .longValue();
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * The pid last given to a new process ({@code /proc/loadavg}'s last field): while it stays the
   * same, no process was started. -1 where it cannot be read.
   */
  long lastPid() {
    try {
      String text = Files.readString(root.resolve("loadavg"), StandardCharsets.US_ASCII).strip();
      return parse(text.substring(text.lastIndexOf(' ') + 1));
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Whether the process that started at {@code startTicks} still runs under {@code pid}. */
  boolean alive(long pid, long startTicks) {
    return startTicks >= 0 && startTicks(pid) == startTicks;
  }

  /** When the machine booted, in unix milliseconds; -1 where it cannot be read. */
  long bootMillis() {
    long boot = bootSeconds();
    return boot <= 0 ? -1 : boot * 1000;
  }

  private long bootSeconds() {
    try {
      for (String line : Files.readAllLines(root.resolve("stat"), StandardCharsets.US_ASCII)) {
        if (line.startsWith("btime ")) {
          return parse(line.substring(6));
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return -1;
  }

  private static Optional<String> link(Path path) {
    try {
      return Optional.of(Files.readSymbolicLink(path).toString());
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The fields of {@code /proc/<pid>/stat} after the command name, which may hold spaces. */
  private String[] statFields(long pid) {
    try {
      String stat =
          new String(Files.readAllBytes(root.resolve(pid + "/stat")), StandardCharsets.UTF_8);
      int end = stat.lastIndexOf(')');
      return end < 0 ? null : stat.substring(end + 1).strip().split(" ");
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static boolean isPid(Path entry) {
    String name = entry.getFileName().toString();
    return !name.isEmpty() && name.chars().allMatch(Character::isDigit);
  }

  private static long parse(String text) {
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
