package dev.clique.engine.tmux;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pane processes as Linux's {@code /proc} shows them: who holds a pane's terminal, and how much
 * memory a pane's process tree holds. Plain file reads, no process is started. Elsewhere (no {@code
 * /proc}) it answers {@link Foreground#UNKNOWN} and zero bytes.
 */
final class ProcFs {
  /** A pane's process tree is a handful of processes: a walk stops past this many. */
  static final int MAX_DESCENDANTS = 4_096;

  /** The kernel's clock ticks per second ({@code USER_HZ}), in which {@code stat} counts. */
  static final long TICKS_PER_SECOND = 100;

  private final Path root;

  ProcFs(Path root) {
    this.root = root;
  }

  static ProcFs system() {
    return new ProcFs(Path.of("/proc"));
  }

  /**
   * The pane's process (a session leader tmux started) holds the terminal when the terminal's
   * foreground process group ({@code tpgid}) is its own group; it is at a line editor's prompt when
   * it then waits for a key in {@code select} or {@code poll} (its {@code wchan}), where a line
   * editor waits (it watches signals and timers too), while a builtin that reads an answer ({@code
   * read -p}) waits in the terminal's own read.
   */
  Foreground foreground(long pid) {
    if (pid <= 0) {
      return Foreground.UNKNOWN;
    }
    String[] fields = statFields(pid);
    if (fields == null || fields.length < 6) {
      return Foreground.UNKNOWN;
    }
    long pgrp = parseLong(fields[2]);
    long tpgid = parseLong(fields[5]);
    if (tpgid <= 0) {
      return Foreground.UNKNOWN;
    }
    if (tpgid != pgrp) {
      return Foreground.COMMAND;
    }
    return waitsInSelectOrPoll(pid) ? Foreground.PROMPT : Foreground.SHELL;
  }

  /**
   * Whether the process sleeps in {@code select} or {@code poll} (its {@code wchan}: {@code
   * poll_schedule_timeout}, {@code do_select}, {@code ep_poll}, ...); no when unreadable or
   * running.
   */
  private boolean waitsInSelectOrPoll(long pid) {
    try {
      String wchan =
          new String(Files.readAllBytes(root.resolve(pid + "/wchan")), StandardCharsets.UTF_8);
      return wchan.contains("poll") || wchan.contains("select");
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /**
   * Every process under {@code pid} (its children, theirs, ...), by pid, in the order found; empty
   * when none or unreadable.
   */
  Map<Long, PaneProcess> descendants(long pid) {
    Map<Long, PaneProcess> found = new LinkedHashMap<>();
    long upMillis = uptimeMillis();
    Deque<Long> parents = new ArrayDeque<>();
    if (pid > 0) {
      parents.add(pid);
    }
    while (!parents.isEmpty() && found.size() < MAX_DESCENDANTS) {
      long parent = parents.poll();
      String children;
      try {
        children = Files.readString(root.resolve(parent + "/task/" + parent + "/children"));
      } catch (IOException e) {
        continue; // gone, or not this kernel's
      }
      for (String child : children.trim().split("\\s+")) {
        if (!child.isEmpty()) {
          long id = parseLong(child);
          String[] stat = statFields(id);
          long age =
              stat == null || stat.length < 20 || upMillis < 0
                  ? -1
                  : upMillis - parseLong(stat[19]) * 1000 / TICKS_PER_SECOND;
          found.put(id, new PaneProcess(commandLine(id), age));
          parents.add(id);
        }
      }
    }
    return found;
  }

  /** Milliseconds since boot, as {@code /proc/uptime} says; -1 when it cannot be read. */
  private long uptimeMillis() {
    try {
      String uptime = Files.readString(root.resolve("uptime")).strip();
      return (long) (Double.parseDouble(uptime.substring(0, uptime.indexOf(' '))) * 1000);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private String commandLine(long pid) {
    try {
      byte[] bytes = Files.readAllBytes(root.resolve(pid + "/cmdline"));
      return new String(bytes, StandardCharsets.UTF_8).replace('\0', ' ').strip();
    } catch (IOException e) {
      return ""; // gone already
    }
  }

  /** Whether the process has ended and waits for its parent to hear of it. */
  boolean zombie(long pid) {
    String[] fields = pid > 0 ? statFields(pid) : null;
    return fields != null && fields.length > 0 && "Z".equals(fields[0]);
  }

  /**
   * What a tmux server has done since it started, as two plain reads: the bytes it read (every
   * pane's output, every command of a control client, every file a format made it read) and the
   * processes it has as children (a pane that died and was reaped leaves them). Null when it has
   * gone or cannot be read.
   */
  synchronized String serverWork(long pid) {
    if (pid <= 0) {
      return null;
    }
    try {
      // Read on every tick of an idle engine: the two files stay open and are read again from
      // their start (the kernel makes them anew), into one buffer; no path, line or charset work.
      if (server == null || server.pid() != pid) {
        closeServer();
        server =
            new ServerFiles(
                pid,
                FileChannel.open(root.resolve(pid + "/io")),
                FileChannel.open(root.resolve(pid + "/task/" + pid + "/children")));
      }
      int length = readFromStart(server.io());
      long read = -1;
      if (length > 7 && buffer.get(0) == 'r' && buffer.get(1) == 'c' && buffer.get(5) == ':') {
        read = 0;
        for (int i = 6; i < length && buffer.get(i) != '\n'; i++) {
          byte digit = buffer.get(i);
          if (digit >= '0' && digit <= '9') {
            read = read * 10 + (digit - '0');
          }
        }
      }
      length = readFromStart(server.children());
      byte[] children = new byte[length];
      buffer.get(0, children);
      return read < 0 ? null : read + " " + new String(children, StandardCharsets.US_ASCII).strip();
    } catch (IOException | RuntimeException e) {
      closeServer(); // the server ended: its files are opened again for the next one
      return null;
    }
  }

  /** The two files of the server last asked about, kept open. */
  private record ServerFiles(long pid, FileChannel io, FileChannel children) {}

  private ServerFiles server; // guarded by this
  private final ByteBuffer buffer = ByteBuffer.allocate(64 * 1024); // guarded by this

  private int readFromStart(FileChannel file) throws IOException {
    buffer.clear();
    long at = 0;
    int n;
    while (buffer.hasRemaining() && (n = file.read(buffer, at)) > 0) {
      at += n;
    }
    return buffer.position();
  }

  private void closeServer() {
    if (server != null) {
      try {
        server.io().close();
        server.children().close();
      } catch (IOException e) {
        // nothing kept
      }
      server = null;
    }
  }

  /** The bytes {@link #serverWork} counted as read, or -1. */
  static long bytesRead(String work) {
    if (work == null) {
      return -1;
    }
    int space = work.indexOf(' ');
    return parseLong(space < 0 ? work : work.substring(0, space));
  }

  /**
   * The name of the command that holds the pane's terminal, as tmux's {@code pane_current_command}
   * gives it: the first word of the foreground process group's command line, without its folder
   * (and without a login shell's dash). Empty when it cannot be read.
   */
  String foregroundCommand(long panePid) {
    String[] fields = panePid > 0 ? statFields(panePid) : null;
    if (fields == null || fields.length < 6) {
      return "";
    }
    long group = parseLong(fields[5]);
    try {
      byte[] cmdline = Files.readAllBytes(root.resolve((group > 0 ? group : panePid) + "/cmdline"));
      int end = 0;
      while (end < cmdline.length && cmdline[end] != 0) {
        end++;
      }
      return commandName(new String(cmdline, 0, end, StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /** tmux's reading of a command line as a window name (its {@code parse_window_name}). */
  static String commandName(String commandLine) {
    String name = commandLine;
    if (name.startsWith("\"")) {
      name = name.substring(1);
    }
    int quote = name.indexOf('"');
    if (quote >= 0) {
      name = name.substring(0, quote);
    }
    if (name.startsWith("exec ")) {
      name = name.substring(5);
    }
    int start = 0;
    while (start < name.length() && (name.charAt(start) == ' ' || name.charAt(start) == '-')) {
      start++;
    }
    name = name.substring(start);
    int space = name.indexOf(' ');
    if (space >= 0) {
      name = name.substring(0, space);
    }
    int end = name.length();
    while (end > 1
        && !Character.isLetterOrDigit(name.charAt(end - 1))
        && !isPunctuation(name.charAt(end - 1))) {
      end--;
    }
    name = name.substring(0, end);
    if (name.startsWith("/")) {
      String trimmed = name.replaceAll("/+$", "");
      name = trimmed.isEmpty() ? "/" : trimmed.substring(trimmed.lastIndexOf('/') + 1);
    }
    return name;
  }

  private static boolean isPunctuation(char c) {
    return c > 0x20 && c < 0x7f && !Character.isLetterOrDigit(c);
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
  synchronized Map<String, List<Long>> processesMarked(String name) {
    byte[] prefix = (name + "=").getBytes(StandardCharsets.UTF_8);
    long self = ProcessHandle.current().pid();
    Map<String, List<Long>> marked = new HashMap<>();
    Map<Long, Marker> walked = new HashMap<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(root, ProcFs::isPid)) {
      for (Path entry : entries) {
        long pid = Long.parseLong(entry.getFileName().toString());
        String[] stat = statFields(pid);
        long started = stat != null && stat.length > 19 ? parseLong(stat[19]) : -1;
        // A process seen on an earlier walk (the same pid, started at the same tick) is known.
        Marker known = markers.get(pid);
        if (known == null || known.started() != started || !known.name().equals(name)) {
          String value = pid == self ? null : value(entry.resolve("environ"), prefix);
          known = new Marker(name, started, value != null && !tmux(entry) ? value : null);
        }
        walked.put(pid, known);
        if (known.value() != null) {
          marked.computeIfAbsent(known.value(), k -> new ArrayList<>()).add(pid);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or /proc unreadable: nothing is known to be marked
    }
    markers = walked;
    return marked;
  }

  /** What a walk learned of one process: the marker's value in its start environment, or null. */
  private record Marker(String name, long started, String value) {}

  private Map<Long, Marker> markers = new HashMap<>(); // guarded by this

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
    String known = uid;
    if (known == null) {
      known = readUserId();
      uid = known;
    }
    return known;
  }

  private volatile String uid;

  private String readUserId() {
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
          children.computeIfAbsent(parseLong(fields[1]), k -> new ArrayList<>()).add(pid);
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
          return parseLong(kb) * 1024;
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

  /** A whole number as tmux or {@code /proc} writes it; 0 when it is none. */
  static long parseLong(String text) {
    try {
      return Long.parseLong(text.strip());
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
