package dev.clique.engine.discovery;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A {@code /proc} of a test's own: the files {@link Processes} reads for each process (stat,
 * cmdline, environ, cwd), the boot time and the last pid given, written as Linux writes them.
 */
final class FakeProc {
  /** A pseudo-terminal's {@code tty_nr}: major 136, minor 3, {@code /dev/pts/3}. */
  static final int PTS_3 = (136 << 8) | 3;

  final Path root;
  private long lastPid = 1;

  FakeProc(Path root) throws IOException {
    this.root = Files.createDirectories(root);
    Files.writeString(root.resolve("stat"), "cpu  1 2 3\nbtime 1767160000\n");
    writeLoadavg();
  }

  Processes processes() {
    return new Processes(root);
  }

  /** A process: its name, parent, terminal ({@code tty_nr}), start ticks, argv and environment. */
  Path process(
      long pid,
      String name,
      long parent,
      int tty,
      long startTicks,
      List<String> argv,
      Map<String, String> env,
      Path cwd)
      throws IOException {
    Path dir = Files.createDirectories(root.resolve(Long.toString(pid)));
    Files.writeString(
        dir.resolve("stat"),
        pid
            + " ("
            + name
            + ") S "
            + parent
            + " "
            + pid
            + " "
            + pid
            + " "
            + tty
            + " 0 0 0 0 0 0 0 0 0 0 20 0 1 0 "
            + startTicks
            + " 0 0\n");
    Files.write(dir.resolve("cmdline"), nulJoined(argv));
    StringBuilder environ = new StringBuilder();
    env.forEach((k, v) -> environ.append(k).append('=').append(v).append('\0'));
    Files.writeString(dir.resolve("environ"), environ);
    if (cwd != null) {
      Files.deleteIfExists(dir.resolve("cwd"));
      Files.createSymbolicLink(dir.resolve("cwd"), cwd);
    }
    lastPid = Math.max(lastPid, pid) + 1;
    writeLoadavg();
    return dir;
  }

  /** As if no process started since the last look: the last pid given stays where it was. */
  void sameLastPid() throws IOException {
    lastPid--;
    writeLoadavg();
  }

  /** The process ended: its folder goes. */
  void end(long pid) throws IOException {
    Path dir = root.resolve(Long.toString(pid));
    try (var files = Files.list(dir)) {
      for (Path file : files.toList()) {
        Files.delete(file);
      }
    }
    Files.delete(dir);
    lastPid++;
    writeLoadavg();
  }

  private void writeLoadavg() throws IOException {
    Files.writeString(root.resolve("loadavg"), "0.10 0.20 0.30 1/200 " + lastPid + "\n");
  }

  private static byte[] nulJoined(List<String> argv) {
    StringBuilder joined = new StringBuilder();
    for (String arg : argv) {
      joined.append(arg).append('\0');
    }
    return joined.toString().getBytes(StandardCharsets.UTF_8);
  }
}
