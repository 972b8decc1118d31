package dev.clique.engine.state;

import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.catalogue.GenericQuestions;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the last lines of a screen for a question or an error. Error patterns win over waiting
 * ones, and a CLI's own patterns ({@code clis.toml}) over the generic questions ({@code
 * [generic]}). The CLI's own look a little higher, since TUIs draw their choices and a footer under
 * the question; the generic ones look only at the last few lines (a shell's: its last line), and a
 * question only counts while nothing was typed after it.
 */
public final class ScreenReader {
  /** Lines from the bottom where a generic question or error counts. */
  static final int GENERIC_WINDOW = 3;

  /** Lines from the bottom where a CLI's own patterns count. */
  static final int CLI_WINDOW = 12;

  /** A first-run screen fills the terminal: its patterns count this far up. */
  static final int FIRST_RUN_WINDOW = 30;

  /** A question is short: a longer line ending in {@code ?} is prose. */
  static final int SHORT_QUESTION = 100;

  static final int SAYING_MAX = 200;

  private static final List<Pattern> ERRORS = List.of(Pattern.compile("command not found"));

  private static final Pattern TRACEBACK = Pattern.compile("Traceback \\(most recent call last\\)");
  private static final Pattern FILE_LINE = Pattern.compile("^\\s*File \"");
  private static final Pattern CARETS = Pattern.compile("^[\\s^~]+$");
  private static final Pattern CHAINED =
      Pattern.compile("^(During handling of the above exception|The above exception was)");

  private ScreenReader() {}

  /** Reads a captured screen for {@code cli} (null: the bundled generic patterns only). */
  public static Reading read(String captured, CliDefinition cli) {
    return read(ScreenLines.meaningful(captured), cli);
  }

  /**
   * Reads meaningful lines (top to bottom) for {@code cli} (null: the bundled generic patterns
   * only).
   */
  public static Reading read(List<String> lines, CliDefinition cli) {
    String last = lines.isEmpty() ? "" : saying(lines.get(lines.size() - 1));
    List<Pattern> cliErrors = cli == null ? List.of() : cli.errors();

    if (cli != null) {
      // A usage limit is no error: nothing is broken, a person waits or switches. Above a later
      // answer it is history, as an error is: the CLI went on after it.
      Reading limited =
          usageLimit(lines.subList(lastAnswer(lines, cli) + 1, lines.size()), cli, last);
      if (limited != null) {
        return limited;
      }
    }
    String error = traceback(lines);
    if (error == null) {
      error = find(lines, GENERIC_WINDOW, ERRORS);
    }
    boolean ownError = false;
    if (error == null && cli != null) {
      // An error above the start of a later answer is history: the CLI went on after it.
      error = find(lines.subList(lastAnswer(lines, cli) + 1, lines.size()), CLI_WINDOW, cliErrors);
      ownError = error != null;
    }
    if (error != null) {
      return new Reading(Reading.Kind.ERROR, error, last, "error", ownError, "", "");
    }
    GenericQuestions generic = cli == null ? GenericQuestions.bundled() : cli.generic();
    // A shell's screen is a log: a question above its last line was answered, or was output.
    int window = cli != null && cli.isShell() ? 1 : GENERIC_WINDOW;
    Reading asked = findGeneric(lines, window, generic.questions(), last);
    if (cli != null) {
      // The CLI's own screens are the specific ones: they name why it waits, or say it works. A
      // generic question on the same screen says best what is asked ("Press Enter to continue").
      for (Map.Entry<String, List<Pattern>> screen :
          List.of(
              Map.entry("trust", cli.trust()),
              Map.entry("first-run", cli.firstRun()),
              Map.entry("permission", cli.waiting()),
              Map.entry("question", cli.questions()))) {
        String kind = screen.getKey();
        String own =
            find(
                lines, kind.equals("first-run") ? FIRST_RUN_WINDOW : CLI_WINDOW, screen.getValue());
        if (own != null) {
          String line =
              asked != null
                  ? asked.line()
                  : kind.equals("question") ? questionAbove(lines, own) : own;
          String detail = kind.equals("permission") ? permissionDetail(lines, cli) : "";
          return new Reading(Reading.Kind.WAITING, line, last, kind, true, detail, "");
        }
      }
      String working = find(lines, CLI_WINDOW, cli.working());
      if (working != null) {
        return new Reading(Reading.Kind.WORKING, working, last, "", true, "", "");
      }
    }
    if (asked == null) {
      asked = findGeneric(lines, window, generic.choices(), last);
      if (asked != null) {
        asked = withLine(asked, questionAbove(lines, asked.line()));
      }
    }
    if (asked == null) {
      asked = findGeneric(lines, 1, generic.lastLineQuestions(), last);
    }
    return asked != null ? asked : Reading.nothing(last);
  }

  /**
   * The line saying the CLI is about to start itself anew ({@code relaunch} in {@code clis.toml}),
   * or null.
   */
  static String relaunch(List<String> lines, CliDefinition cli) {
    return cli == null ? null : find(lines, CLI_WINDOW, cli.relaunch());
  }

  private static Reading withLine(Reading reading, String line) {
    return new Reading(
        reading.kind(),
        line,
        reading.last(),
        reading.attention(),
        reading.own(),
        reading.detail(),
        reading.generic());
  }

  /** The first generic pattern (in the catalogue's order) that one of the last lines matches. */
  private static Reading findGeneric(
      List<String> lines, int window, List<GenericQuestions.Named> patterns, String last) {
    int top = Math.max(0, lines.size() - window);
    for (GenericQuestions.Named named : patterns) {
      for (int i = lines.size() - 1; i >= top; i--) {
        String line = ScreenLines.unframed(lines.get(i));
        if (named.pattern().matcher(line).find()) {
          return new Reading(
              Reading.Kind.WAITING, saying(line), last, "question", false, "", named.name());
        }
      }
    }
    return null;
  }

  /**
   * A choice's footer matched ({@code Enter to select}): the question it answers is the nearest
   * line above that ends in {@code ?}, when there is one among the last lines.
   */
  private static String questionAbove(List<String> lines, String footer) {
    int top = Math.max(0, lines.size() - CLI_WINDOW);
    for (int i = lines.size() - 1; i >= top; i--) {
      String line = ScreenLines.unframed(lines.get(i));
      if (line.endsWith("?") && line.length() <= SHORT_QUESTION) {
        return saying(line);
      }
    }
    return footer;
  }

  /**
   * What the permission is for, from the CLI's {@code permission_detail} patterns among the last
   * lines: the first group, or {@code group 1: group 2} ({@code Shell: sleep 4}).
   */
  private static String permissionDetail(List<String> lines, CliDefinition cli) {
    int top = Math.max(0, lines.size() - CLI_WINDOW);
    for (Pattern pattern : cli.permissionDetail()) {
      for (int i = lines.size() - 1; i >= top; i--) {
        Matcher matcher = pattern.matcher(ScreenLines.unframed(lines.get(i)));
        if (matcher.find() && matcher.groupCount() >= 1) {
          String what =
              matcher.groupCount() >= 2
                  ? matcher.group(1) + ": " + matcher.group(2)
                  : matcher.group(1);
          return saying(what);
        }
      }
    }
    return "";
  }

  /** Lines from a usage limit's first one that may still be its message (wrapped by the CLI). */
  static final int LIMIT_MESSAGE_LINES = 3;

  /**
   * The lowest line among the last ones that one of the CLI's usage-limit patterns matches, read as
   * a usage limit; the pattern's group {@code resets}, matched against that line and the few under
   * it joined (the CLI wraps its message itself), says when it lifts.
   */
  private static Reading usageLimit(List<String> lines, CliDefinition cli, String last) {
    int top = Math.max(0, lines.size() - CLI_WINDOW);
    for (Pattern pattern : cli.usageLimits()) {
      for (int i = lines.size() - 1; i >= top; i--) {
        String line = ScreenLines.unframed(lines.get(i));
        if (!pattern.matcher(line).find()) {
          continue;
        }
        StringBuilder message = new StringBuilder(line);
        for (int j = i + 1; j < Math.min(lines.size(), i + LIMIT_MESSAGE_LINES); j++) {
          message.append(' ').append(ScreenLines.unframed(lines.get(j)));
        }
        Matcher whole = pattern.matcher(message);
        String resets = "";
        if (whole.find() && pattern.pattern().contains("(?<resets>")) {
          String group = whole.group("resets");
          resets = group == null ? "" : group.strip();
        }
        return new Reading(
            Reading.Kind.WAITING, saying(line), last, Attention.USAGE_LIMIT, true, "", "", resets);
      }
    }
    return null;
  }

  /** The index of the last line that starts an answer of {@code cli}'s, or -1. */
  private static int lastAnswer(List<String> lines, CliDefinition cli) {
    for (int i = lines.size() - 1; i >= 0; i--) {
      String line = ScreenLines.unframed(lines.get(i));
      for (Pattern pattern : cli.answer()) {
        if (pattern.matcher(line).find()) {
          return i;
        }
      }
    }
    return -1;
  }

  /** The line shown as {@code saying}: without its frame, at most 200 characters. */
  static String saying(String line) {
    return clip(ScreenLines.unframed(line), SAYING_MAX);
  }

  /** At most {@code max} characters, never half a surrogate pair. */
  static String clip(String text, int max) {
    if (text.length() <= max) {
      return text;
    }
    int end = max;
    if (Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(0, end);
  }

  /**
   * The line the first pattern (in the order given, so a catalogue can prefer the question to the
   * choices under it) matches among the last {@code window} lines, the lowest such line first.
   */
  private static String find(List<String> lines, int window, List<Pattern> patterns) {
    int top = Math.max(0, lines.size() - window);
    for (Pattern pattern : patterns) {
      for (int i = lines.size() - 1; i >= top; i--) {
        String line = ScreenLines.unframed(lines.get(i));
        if (pattern.matcher(line).find()) {
          return saying(line);
        }
      }
    }
    return null;
  }

  /**
   * A Python traceback that ended the program: its header is on the screen and its last line (the
   * exception) is among the last lines. The saying is the exception, which tells more than the
   * header.
   */
  private static String traceback(List<String> lines) {
    int header = -1;
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (TRACEBACK.matcher(lines.get(i)).find()) {
        header = i;
        break;
      }
    }
    if (header < 0) {
      return null;
    }
    int exception = exceptionLine(lines, header);
    int end = exception < 0 ? header : exception;
    if (end < lines.size() - GENERIC_WINDOW) {
      return null;
    }
    return saying(lines.get(end));
  }

  private static int exceptionLine(List<String> lines, int header) {
    boolean indented = false;
    for (int i = header + 1; i < lines.size(); i++) {
      if (Character.isWhitespace(lines.get(i).charAt(0))) {
        indented = true;
        break;
      }
    }
    if (indented) {
      // Frames and source lines are indented; the exception starts at the margin.
      for (int i = header + 1; i < lines.size(); i++) {
        String line = lines.get(i);
        if (!Character.isWhitespace(line.charAt(0)) && !CHAINED.matcher(line).find()) {
          return i;
        }
      }
      return -1;
    }
    // Indentation lost (some TUIs strip it): the exception follows the last frame's source line.
    int lastFrame = -1;
    for (int i = header + 1; i < lines.size(); i++) {
      if (FILE_LINE.matcher(lines.get(i)).find()) {
        lastFrame = i;
      }
    }
    for (int i = lastFrame < 0 ? header + 1 : lastFrame + 2; i < lines.size(); i++) {
      if (!CARETS.matcher(lines.get(i)).matches()) {
        return i;
      }
    }
    return -1;
  }
}
