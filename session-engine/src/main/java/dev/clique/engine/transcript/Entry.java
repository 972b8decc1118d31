package dev.clique.engine.transcript;

/**
 * What one line of a transcript contributes: a piece of a turn, a message that shows nothing (still
 * counted for Gemini's rewinds), or a rewind marker.
 *
 * @param role {@link Turn#USER}, {@link Turn#ASSISTANT}, or {@code null} when nothing is shown
 * @param text the kept text, empty when nothing is shown
 * @param id the CLI's message id ({@code message.id} for Claude, {@code id} for Gemini), or {@code
 *     null}
 * @param rewind true for Gemini's {@code {"$rewindTo": id}}
 */
record Entry(String role, String text, String id, boolean rewind) {

  static Entry turn(String role, String text, String id) {
    return new Entry(role, text, id, false);
  }

  static Entry silent(String id) {
    return new Entry(null, "", id, false);
  }

  static Entry rewindTo(String id) {
    return new Entry(null, "", id, true);
  }

  boolean shown() {
    return role != null && !text.isEmpty();
  }
}
