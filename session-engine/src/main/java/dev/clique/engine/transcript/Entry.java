package dev.clique.engine.transcript;

/**
 * What one line of a transcript contributes: a piece of a turn, a message that shows nothing (still
 * counted for Gemini's rewinds), a rewind marker, or a reset (Gemini's {@code $set} of the whole
 * message list: nothing before it counts).
 *
 * @param role {@link Turn#USER}, {@link Turn#ASSISTANT}, or {@code null} when nothing is shown
 * @param text the kept text, empty when nothing is shown
 * @param id the CLI's message id ({@code message.id} for Claude, {@code id} for Gemini and pi), or
 *     {@code null}
 * @param parent the id of the entry it follows, in a transcript that is a tree (pi's {@code
 *     parentId}), or {@code null}
 * @param kind what the entry does to the conversation
 */
record Entry(String role, String text, String id, String parent, Kind kind) {

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
    return new Entry(role, text, id, null, Kind.MESSAGE);
  }

  static Entry silent(String id) {
    return new Entry(null, "", id, null, Kind.MESSAGE);
  }

  /** An entry of a tree: it follows {@code parent}; {@code role} null when it shows nothing. */
  static Entry node(String role, String text, String id, String parent) {
    return new Entry(role, text == null ? "" : text, id, parent, Kind.MESSAGE);
  }

  static Entry rewindTo(String id) {
    return new Entry(null, "", id, null, Kind.REWIND);
  }

  static Entry reset() {
    return new Entry(null, "", null, null, Kind.RESET);
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
