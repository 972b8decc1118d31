package dev.clique.client.internal;

/** Turns one route's answer into what the caller asked for. */
@FunctionalInterface
interface AnswerParser<T> {
  T parse(JsonText answer) throws MalformedAnswer;
}
