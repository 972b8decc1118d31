package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code clique ls --watch} against a real {@code clique serve} on real tmux: the table is drawn
 * again when a session changes state, at once and only then; on a terminal it redraws in place, in
 * colour unless {@code NO_COLOR}, and Ctrl-C gives the terminal back as it was.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class LsWatchIT {
  private static final Duration STATE = Duration.ofSeconds(15);

  private static void clique(ThrowawayEngine engine, String... args) throws Exception {
    try (Spawned command = Spawned.start(Launcher.jarCommand(args), engine.env(), engine.workdir)) {
      command.closeStdin();
      int code = command.waitFor(Duration.ofSeconds(30));
      assertThat(code).as("clique " + String.join(" ", args) + ": " + command.stderr()).isZero();
    }
  }

  /** The tables a watch printed off a terminal: each ends with a blank line. */
  private static final class Tables {
    private final Spawned watch;

    Tables(Spawned watch) {
      this.watch = watch;
    }

    List<String> next(Duration within) throws InterruptedException {
      List<String> table = new ArrayList<>();
      long deadline = System.nanoTime() + within.toNanos();
      while (true) {
        long left = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
        String line = watch.nextLine(Duration.ofMillis(left));
        if (line.isEmpty()) {
          if (!table.isEmpty()) {
            return table;
          }
        } else {
          table.add(line);
          if (!table.get(0).startsWith("NAME")) {
            throw new AssertionError("a table starts with its header, not: " + table.get(0));
          }
        }
      }
    }

    /** Tables until one is as {@code wanted}. */
    List<String> until(Predicate<List<String>> wanted, Duration within)
        throws InterruptedException {
      long deadline = System.nanoTime() + within.toNanos();
      List<String> table = next(within);
      while (!wanted.test(table)) {
        table = next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
      }
      return table;
    }
  }

  private static boolean rowShows(List<String> table, String name, String state) {
    return table.stream().anyMatch(row -> row.startsWith(name + " ") && row.contains(" " + state));
  }

  @Test
  void offATerminalItPrintsOneTableForEachChangeAndNothingMeanwhile() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      Path folder = Files.createDirectories(engine.workdir.resolve("project"));
      List<String> command = Launcher.jarCommand("ls", "--watch");
      try (Spawned watch = Spawned.start(command, engine.env(), engine.workdir)) {
        Tables tables = new Tables(watch);
        List<String> first = tables.next(Duration.ofSeconds(20));
        assertThat(first).hasSize(1);
        assertThat(first.get(0)).startsWith("NAME").contains("STATE");

        clique(engine, "new", "shell", folder.toString(), "--name", "watched");
        tables.until(t -> rowShows(t, "watched", "idle"), STATE);

        long stopAt = System.nanoTime();
        clique(engine, "stop", "watched");
        long stopped = System.nanoTime();
        List<String> table = tables.until(t -> rowShows(t, "watched", "stopped"), STATE);
        long lagMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped);
        long stopMillis = TimeUnit.NANOSECONDS.toMillis(stopped - stopAt);
        System.err.printf(
            "ls --watch drew the stop %d ms after `clique stop` returned (it took %d ms)%n",
            lagMillis, stopMillis);
        // A second, or on a machine so loaded that a whole `clique stop` took longer, that long:
        // a watch that polled would miss it on a quiet machine, and load slows both alike.
        assertThat(lagMillis)
            .as("the table after the stop, ms (`clique stop` took %d ms)", stopMillis)
            .isLessThan(Math.max(1_000, stopMillis));
        assertThat(String.join("\n", table))
            .as("no colours off a terminal")
            .doesNotContain("\u001b");

        int printed = watch.stdout().length();
        Thread.sleep(2_000);
        assertThat(watch.stdout().length())
            .as("nothing changed, nothing is printed: no polling")
            .isEqualTo(printed);

        watch.signal("TERM");
        assertThat(watch.waitFor(Duration.ofSeconds(10))).isEqualTo(143);
        assertThat(watch.stderr()).as("a clean exit, no stack trace").isEmpty();
      }
    }
  }

  @Test
  void withNoEngineItSaysSoInOneLine() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare();
        Spawned watch =
            Spawned.start(Launcher.jarCommand("ls", "--watch"), engine.env(), engine.workdir)) {
      watch.closeStdin();
      assertThat(watch.waitFor(Duration.ofSeconds(30))).isNotZero();
      assertThat(watch.stdout()).isEmpty();
      assertThat(watch.stderr().strip().lines()).hasSize(1);
      assertThat(watch.stderr())
          .startsWith("clique ls: no engine is running for " + engine.home)
          .contains("clique serve");
    }
  }

  @Test
  void onATerminalItRedrawsInPlaceInColourAndCtrlCGivesTheTerminalBack() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start();
        Terminal terminal = Terminal.open(engine.workdir, engine.workdir, engine.env())) {
      Path folder = Files.createDirectories(engine.workdir.resolve("project"));
      clique(engine, "new", "shell", folder.toString(), "--name", "shown");
      String watch =
          Launcher.jarCommand("ls", "--watch").stream()
              .map(arg -> "'" + arg + "'")
              .collect(Collectors.joining(" "));

      terminal.type("printf 'before-watch\\n'; " + watch);
      terminal.awaitScreen(
          s -> s.contains("Ctrl-C to stop") && s.contains("shown") && s.contains("idle"), STATE);
      assertThat(terminal.format("#{alternate_on}")).as("the alternate screen").isEqualTo("1");
      assertThat(terminal.format("#{cursor_flag}")).as("the cursor is hidden").isEqualTo("0");
      assertThat(row(terminal.screenWithColours(), "shown"))
          .as("the state in colour")
          .contains("\u001b[");

      clique(engine, "stop", "shown");
      // How soon is the test above's (off a terminal, where no screen is captured); here, that
      // the table is redrawn in place, on a machine however busy.
      String redrawn = terminal.awaitScreen(s -> s.contains("stopped"), STATE);
      assertThat(redrawn.lines().filter(line -> line.startsWith("NAME")).count())
          .as("redrawn in place: one table on the screen")
          .isEqualTo(1);

      terminal.press("C-c");
      String after =
          terminal.awaitScreen(
              s -> s.lines().anyMatch(line -> line.equals("before-watch")), Duration.ofSeconds(10));
      assertThat(after).doesNotContain("NAME", "Exception", "at dev.clique");
      assertThat(terminal.format("#{alternate_on}")).isEqualTo("0");
      assertThat(terminal.format("#{cursor_flag}")).as("the cursor is back").isEqualTo("1");
      terminal.type("echo \"exit=$?\"");
      terminal.awaitScreen(s -> s.contains("exit=130"), Duration.ofSeconds(5));

      terminal.type("clear; NO_COLOR=1 " + watch);
      terminal.awaitScreen(s -> s.contains("Ctrl-C to stop") && s.contains("shown"), STATE);
      assertThat(row(terminal.screenWithColours(), "shown"))
          .as("NO_COLOR: no colours")
          .doesNotContain("\u001b[");
      terminal.press("C-c");
      terminal.awaitScreen(s -> !s.contains("Ctrl-C to stop"), Duration.ofSeconds(10));
    }
  }

  /** The line of the screen that shows session {@code name}. */
  private static String row(String screen, String name) {
    return screen
        .lines()
        .filter(line -> line.contains(name + " "))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no row of " + name + " on:\n" + screen));
  }
}
