package dev.clique.client.internal;

/**
 * Turns one route's answer into what the caller asked for.
 *
 * @param <T> what the caller asked for
 */
@FunctionalInterface
public interface AnswerParser<T> {
  /**
   * Reads {@code answer}.
   *
   * @param answer the answer, read
   * @return what it says
   * @throws MalformedAnswer if it is not that route's answer
   */
  T parse(JsonText answer) throws MalformedAnswer;
}
