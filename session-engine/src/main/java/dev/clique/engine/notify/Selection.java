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
