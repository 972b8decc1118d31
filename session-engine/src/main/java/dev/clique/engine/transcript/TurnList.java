package dev.clique.engine.transcript;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Builds the answer: consecutive pieces of one role merged by a blank line, the last turns kept.
 */
final class TurnList {

  static final int MAX_TURNS = 300;
  static final String SEPARATOR = "\n\n";

  private final List<String> roles = new ArrayList<>();
  private final List<StringBuilder> texts = new ArrayList<>();

  /** Adds a piece of text; blank pieces are dropped. */
  void add(String role, String text) {
    if (text.isBlank()) {
      return;
    }
    int last = roles.size() - 1;
    if (last >= 0 && roles.get(last).equals(role)) {
      texts.get(last).append(SEPARATOR).append(text);
    } else {
      roles.add(role);
      texts.add(new StringBuilder(text));
    }
  }

  /** How many turns there are so far, before {@link #lastTurns} keeps the last ones. */
  int size() {
    return roles.size();
  }

  /** The last {@value #MAX_TURNS} turns, oldest first, immutable. */
  List<Turn> lastTurns() {
    int from = Math.max(0, roles.size() - MAX_TURNS);
    List<Turn> turns = new ArrayList<>(roles.size() - from);
    for (int i = from; i < roles.size(); i++) {
      turns.add(new Turn(roles.get(i), texts.get(i).toString()));
    }
    return Collections.unmodifiableList(turns);
  }

  /** Drops blank lines before the text and whitespace after it; keeps the first line's indent. */
  static String tidy(String text) {
    int end = text.length();
    while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) {
      end--;
    }
    int start = 0;
    for (int i = 0; i < end; i++) {
      char c = text.charAt(i);
      if (c == '\n') {
        start = i + 1;
      } else if (!Character.isWhitespace(c)) {
        break;
      }
    }
    return text.substring(start, end);
  }
}
