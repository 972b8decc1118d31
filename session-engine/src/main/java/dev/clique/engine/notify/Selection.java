package dev.clique.engine.notify;

import dev.clique.engine.session.SessionView;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which notices a target wants: its {@code events}, and the sessions whose CLI and name match its
 * {@code cli} and {@code name} (each a glob, {@code *} and {@code ?}, or an exact name; absent:
 * any).
 */
record Selection(Set<Event> events, Pattern cli, Pattern name) {
  static final Selection ALL = new Selection(Set.of(Event.values()), null, null);

  /** {@code notice} narrowed to the sessions this selection wants, or null when none. */
  Notice pick(Notice notice) {
    if (!events.contains(notice.event())) {
      return null;
    }
    List<SessionView> wanted = new ArrayList<>();
    for (SessionView view : notice.sessions()) {
      if (matches(cli, view.cli()) && matches(name, view.name())) {
        wanted.add(view);
      }
    }
    if (wanted.isEmpty()) {
      return null;
    }
    return wanted.size() == notice.sessions().size() ? notice : notice.about(wanted);
  }

  private static boolean matches(Pattern pattern, String value) {
    return pattern == null || (value != null && pattern.matcher(value).matches());
  }

  /** The glob {@link #glob} made {@code pattern} of, as the file wrote it; null for null. */
  static String unglob(Pattern pattern) {
    if (pattern == null) {
      return null;
    }
    String regex = pattern.pattern();
    StringBuilder glob = new StringBuilder();
    int i = 0;
    while (i < regex.length()) {
      if (regex.startsWith("\\Q", i)) {
        int end = regex.indexOf("\\E", i + 2);
        glob.append(regex, i + 2, end);
        i = end + 2;
      } else if (regex.startsWith(".*", i)) {
        glob.append('*');
        i += 2;
      } else {
        glob.append('?'); // "." is the only other thing glob writes
        i++;
      }
    }
    return glob.toString();
  }

  /** A glob as a pattern: {@code *} any run of characters, {@code ?} one, the rest as it is. */
  static Pattern glob(String glob) {
    StringBuilder regex = new StringBuilder();
    StringBuilder literal = new StringBuilder();
    for (char c : glob.toCharArray()) {
      if (c == '*' || c == '?') {
        if (literal.length() > 0) {
          regex.append(Pattern.quote(literal.toString()));
          literal.setLength(0);
        }
        regex.append(c == '*' ? ".*" : ".");
      } else {
        literal.append(c);
      }
    }
    if (literal.length() > 0) {
      regex.append(Pattern.quote(literal.toString()));
    }
    return Pattern.compile(regex.toString(), Pattern.DOTALL);
  }
}
