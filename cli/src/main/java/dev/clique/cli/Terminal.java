package dev.clique.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether a person's terminal is at the other end of stdin. */
final class Terminal {
  private Terminal() {}

  /**
   * True when stdin is a terminal: what the process's descriptor 0 names under /proc, since {@code
   * System.console()} also asks of stdout (which {@code clique mcp} keeps for the protocol).
   */
  static boolean isStdin() {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/0")).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException e) {
      return System.console() != null;
    }
  }
}
