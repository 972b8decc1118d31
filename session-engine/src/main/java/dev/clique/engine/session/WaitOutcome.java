package dev.clique.engine.session;

/**
 * How a wait ended.
 *
 * @param state the session's state at the end, or {@code gone} when it was deleted meanwhile
 * @param waited seconds, to a tenth
 */
public record WaitOutcome(String id, String state, boolean matched, double waited) {}
