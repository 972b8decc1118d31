package dev.clique.engine.tmux;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pane processes as Linux's {@code /proc} shows them: who holds a pane's terminal, and how much
 * memory a pane's process tree holds. Plain file reads, no process is started. Elsewhere (no {@code
 * /proc}) it answers {@link Foreground#UNKNOWN} and zero bytes.
 */
final class ProcFs {
  private final Path root;

  ProcFs(Path root) {
    this.root = root;
  }

  static ProcFs system() {
    return new ProcFs(Path.of("/proc"));
  }

  /**
   * The pane's process (a session leader tmux started) holds the terminal when the terminal's
   * foreground process group ({@code tpgid}) is its own group.
   */
  Foreground foreground(long pid) {
    if (pid <= 0) {
      return Foreground.UNKNOWN;
    }
    String[] fields = statFields(pid);
    if (fields == null || fields.length < 6) {
      return Foreground.UNKNOWN;
    }
    long pgrp = parse(fields[2]);
    long tpgid = parse(fields[5]);
    if (tpgid <= 0) {
      return Foreground.UNKNOWN;
    }
    return tpgid == pgrp ? Foreground.SHELL : Foreground.COMMAND;
  }

  /** Whether the process has ended and waits for its parent to hear of it. */
  boolean zombie(long pid) {
    String[] fields = pid > 0 ? statFields(pid) : null;
    return fields != null && fields.length > 0 && "Z".equals(fields[0]);
  }

  /** The working directory of a process now; null when it has gone or cannot be read. */
  Path cwd(long pid) {
    try {
      return Files.readSymbolicLink(root.resolve(pid + "/cwd"));
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The values of {@code names} in the environment {@code pid} was started with ({@code
   * /proc/<pid>/environ}: what its last exec was given, which a process's own later changes do not
   * touch); null when it has gone or cannot be read.
   */
  Map<String, String> environment(long pid, Set<String> names) {
    if (pid <= 0) {
      return null;
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(root.resolve(pid + "/environ"));
    } catch (IOException | RuntimeException e) {
      return null;
    }
    Map<String, String> values = new HashMap<>();
    int start = 0;
    for (int i = 0; i <= bytes.length; i++) {
      if (i == bytes.length || bytes[i] == 0) {
        String pair = new String(bytes, start, i - start, StandardCharsets.UTF_8);
        int equals = pair.indexOf('=');
        if (equals > 0 && names.contains(pair.substring(0, equals))) {
          values.put(pair.substring(0, equals), pair.substring(equals + 1));
        }
        start = i + 1;
      }
    }
    return values;
  }

  /**
   * The processes whose start environment sets {@code name}, by its value, this one left out; those
   * of other users cannot be read and are never listed. Nor is tmux: a server keeps the environment
   * of the client that started it, so the marker of the session it was started for, yet it serves
   * every session.
   */
  Map<String, List<Long>> processesMarked(String name) {
    byte[] prefix = (name + "=").getBytes(StandardCharsets.UTF_8);
    long self = ProcessHandle.current().pid();
    Map<String, List<Long>> marked = new HashMap<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(root, ProcFs::isPid)) {
      for (Path entry : entries) {
        long pid = Long.parseLong(entry.getFileName().toString());
        String value = pid == self ? null : value(entry.resolve("environ"), prefix);
        if (value != null && !tmux(entry)) {
          marked.computeIfAbsent(value, k -> new ArrayList<>()).add(pid);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or /proc unreadable: nothing is known to be marked
    }
    return marked;
  }

  /** Whether the process is tmux (its server names itself {@code tmux: server}). */
  private static boolean tmux(Path process) {
    try {
      return Files.readString(process.resolve("comm")).startsWith("tmux");
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * The value of the entry of the NUL-separated {@code environ} that starts with {@code prefix}.
   */
  private static String value(Path environ, byte[] prefix) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(environ);
    } catch (IOException | RuntimeException e) {
      return null; // gone, or another user's
    }
    for (int start = 0; start < bytes.length; ) {
      int end = start;
      while (end < bytes.length && bytes[end] != 0) {
        end++;
      }
      if (end - start >= prefix.length
          && Arrays.equals(bytes, start, start + prefix.length, prefix, 0, prefix.length)) {
        return new String(
            bytes, start + prefix.length, end - start - prefix.length, StandardCharsets.UTF_8);
      }
      start = end + 1;
    }
    return null;
  }

  /** This process's real user id, from {@code /proc/self/status}; null when it cannot be read. */
  String userId() {
    try {
      for (String line : Files.readAllLines(root.resolve("self/status"))) {
        if (line.startsWith("Uid:")) {
          return line.substring(4).strip().split("\\s+")[0];
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux
    }
    return null;
  }

  /** Resident bytes of each root's process tree (the root and all its descendants). */
  Map<Long, Long> residentBytes(Collection<Long> roots) {
    Map<Long, Long> answer = new HashMap<>();
    if (roots.isEmpty() || !Files.isDirectory(root)) {
      return answer;
    }
    Map<Long, List<Long>> children = new HashMap<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(root, ProcFs::isPid)) {
      for (Path entry : entries) {
        long pid = Long.parseLong(entry.getFileName().toString());
        String[] fields = statFields(pid);
        if (fields != null && fields.length > 1) {
          children.computeIfAbsent(parse(fields[1]), k -> new ArrayList<>()).add(pid);
        }
      }
    } catch (IOException e) {
      return answer;
    }
    for (long start : roots) {
      long total = 0;
      Deque<Long> todo = new ArrayDeque<>(List.of(start));
      int guard = 0;
      while (!todo.isEmpty() && guard++ < 10_000) {
        long pid = todo.pop();
        total += residentBytes(pid);
        todo.addAll(children.getOrDefault(pid, List.of()));
      }
      answer.put(start, total);
    }
    return answer;
  }

  private long residentBytes(long pid) {
    try {
      for (String line : Files.readAllLines(root.resolve(pid + "/status"))) {
        if (line.startsWith("VmRSS:")) {
          String kb = line.substring(6).strip().split("\\s+")[0];
          return parse(kb) * 1024;
        }
      }
    } catch (IOException | RuntimeException e) {
      // the process ended meanwhile
    }
    return 0;
  }

  /** The fields of {@code /proc/<pid>/stat} after the command name, which may hold spaces. */
  private String[] statFields(long pid) {
    try {
      String stat =
          new String(Files.readAllBytes(root.resolve(pid + "/stat")), StandardCharsets.UTF_8);
      int end = stat.lastIndexOf(')');
      if (end < 0) {
        return null;
      }
      return stat.substring(end + 1).strip().split(" ");
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  private static boolean isPid(Path entry) {
    String name = entry.getFileName().toString();
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      if (!Character.isDigit(name.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static long parse(String text) {
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
