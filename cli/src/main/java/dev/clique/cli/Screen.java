package dev.clique.cli;

import java.io.PrintWriter;
import java.util.List;

/**
 * Where {@code clique ls --watch} draws. On a terminal: the alternate screen, redrawn in place,
 * with the cursor hidden, and the terminal given back as it was when the command ends, by Ctrl-C or
 * SIGTERM too. Elsewhere: each drawing printed after the last, each ended by a blank line (so a
 * reader knows it is whole).
 */
final class Screen implements AutoCloseable {
  private static final String ENTER = "\u001b[?1049h\u001b[?25l";
  private static final String HOME_AND_CLEAR = "\u001b[H\u001b[2J";
  private static final String LEAVE = "\u001b[?25h\u001b[?1049l";

  private final PrintWriter out;
  private final boolean terminal;
  private final Thread restoreOnSignal;
  private boolean closed; // guarded by this

  private Screen(PrintWriter out, boolean terminal) {
    this.out = out;
    this.terminal = terminal;
    this.restoreOnSignal = new Thread(this::close, "clique-ls-restore");
  }

  /** Takes the terminal, if {@code terminal}; it is given back on close or at the JVM's exit. */
  static Screen open(PrintWriter out, boolean terminal) {
    Screen screen = new Screen(out, terminal);
    if (terminal) {
      out.print(ENTER);
      out.flush();
      // Ctrl-C and SIGTERM end the JVM with its shutdown hooks: the terminal is given back there.
      Runtime.getRuntime().addShutdownHook(screen.restoreOnSignal);
    }
    return screen;
  }

  boolean terminal() {
    return terminal;
  }

  synchronized void draw(List<String> lines) {
    if (closed) {
      return;
    }
    if (terminal) {
      out.print(HOME_AND_CLEAR);
      lines.forEach(out::println);
      out.println();
      out.print("redrawn on every change; Ctrl-C to stop");
    } else {
      lines.forEach(out::println);
      out.println();
    }
    out.flush();
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (terminal) {
      out.print(LEAVE);
      out.flush();
      try {
        Runtime.getRuntime().removeShutdownHook(restoreOnSignal);
      } catch (IllegalStateException shuttingDown) {
        // called by that very hook: nothing to remove
      }
    }
  }
}
