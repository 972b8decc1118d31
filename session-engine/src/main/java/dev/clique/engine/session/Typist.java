package dev.clique.engine.session;

import dev.clique.engine.tmux.Tmux;
import dev.clique.engine.tmux.TmuxException;

/**
 * Types text and then Enter the way a person does: the Enter comes once the CLI has taken the text
 * in, and a moment after. A CLI that guards against pastes (Codex: an Enter within 120 ms of the
 * last character it handled is a newline; Gemini CLI: 30 ms) counts that gap from when it handled
 * the characters, not from when they were sent: a CLI that was busy or starved of CPU reads the
 * text and an Enter sent a fixed time later in one go, and the Enter never submits.
 */
final class Typist {
  /** Between the screen showing the text and the Enter: past every paste guard known. */
  static final long ENTER_GAP_MILLIS = 200;

  /** How long a screen that never shows the text (an animation, a hidden prompt) is watched. */
  static final long ECHO_PATIENCE_MILLIS = 2_000;

  /** A screen that changed and then held still this long has drawn the text. */
  static final long STILL_MILLIS = 50;

  /** Distinctive enough to find on a screen, short enough to stay on one of its lines. */
  private static final int TAIL_CHARS = 16;

  private static final long POLL_MILLIS = 15;

  private final Tmux tmux;
  private final long patienceMillis;

  Typist(Tmux tmux) {
    this(tmux, ECHO_PATIENCE_MILLIS);
  }

  Typist(Tmux tmux, long patienceMillis) {
    this.tmux = tmux;
    this.patienceMillis = patienceMillis;
  }

  /** Types {@code text} literally into session {@code id}, then presses Enter if asked. */
  void type(String id, String text, boolean enter) throws TmuxException, InterruptedException {
    if (!enter || text.isEmpty()) {
      tmux.sendText(id, text);
      if (enter) {
        tmux.sendKey(id, "Enter");
      }
      return;
    }
    String before = tmux.captureScreen(id);
    tmux.sendText(id, text);
    awaitEcho(id, before, tail(text));
    Thread.sleep(ENTER_GAP_MILLIS);
    tmux.sendKey(id, "Enter");
  }

  /**
   * Waits until the screen shows the text was taken in: its last characters once more than before,
   * or (a placeholder for a long paste, a line wrapped inside them) a change that then held still;
   * at most {@link #patienceMillis}.
   */
  private void awaitEcho(String id, String before, String tail)
      throws TmuxException, InterruptedException {
    int tailsBefore = count(before, tail);
    long deadline = System.nanoTime() + patienceMillis * 1_000_000;
    String last = before;
    long lastChangedAt = System.nanoTime();
    while (System.nanoTime() < deadline) {
      Thread.sleep(POLL_MILLIS);
      String now = tmux.captureScreen(id);
      if (!tail.isEmpty() && count(now, tail) > tailsBefore) {
        return;
      }
      if (!now.equals(last)) {
        last = now;
        lastChangedAt = System.nanoTime();
      } else if (!now.equals(before)
          && System.nanoTime() - lastChangedAt >= STILL_MILLIS * 1_000_000) {
        return;
      }
    }
  }

  /** The text's last characters on its last line, as a screen would show them. */
  static String tail(String text) {
    String line = text.strip();
    int newline = line.lastIndexOf('\n');
    line = line.substring(newline + 1).strip();
    int from =
        line.offsetByCodePoints(
            line.length(), -Math.min(TAIL_CHARS, line.codePointCount(0, line.length())));
    return line.substring(from);
  }

  private static int count(String screen, String tail) {
    if (tail.isEmpty()) {
      return 0;
    }
    int n = 0;
    for (int at = screen.indexOf(tail); at >= 0; at = screen.indexOf(tail, at + 1)) {
      n++;
    }
    return n;
  }
}
