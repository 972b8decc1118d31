package dev.clique.engine.transcript;

/**
 * What one line of a transcript contributes: a piece of a turn, a message that shows nothing (still
 * counted for Gemini's rewinds), a rewind marker, or a reset (Gemini's {@code $set} of the whole
 * message list: nothing before it counts).
 *
 * @param role {@link Turn#USER}, {@link Turn#ASSISTANT}, or {@code null} when nothing is shown
 * @param text the kept text, empty when nothing is shown
 * @param id the CLI's message id ({@code message.id} for Claude, {@code id} for Gemini), or {@code
 *     null}
 * @param kind what the entry does to the conversation
 */
record Entry(String role, String text, String id, Kind kind) {

  /** What an entry does. */
  enum Kind {
    /** A message, shown or not. */
    MESSAGE,
    /** Gemini's {@code {"$rewindTo": id}}: that message and every later one go. */
    REWIND,
    /** Gemini's {@code {"$set": {"messages": [...]}}}: every earlier message goes. */
    RESET
  }

  static Entry turn(String role, String text, String id) {
    return new Entry(role, text, id, Kind.MESSAGE);
  }

  static Entry silent(String id) {
    return new Entry(null, "", id, Kind.MESSAGE);
  }

  static Entry rewindTo(String id) {
    return new Entry(null, "", id, Kind.REWIND);
  }

  static Entry reset() {
    return new Entry(null, "", null, Kind.RESET);
  }

  boolean rewind() {
    return kind == Kind.REWIND;
  }

  boolean resets() {
    return kind == Kind.RESET;
  }

  boolean shown() {
    return role != null && !text.isEmpty();
  }
}
