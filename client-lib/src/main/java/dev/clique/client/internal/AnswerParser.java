package dev.clique.client.internal;

import com.fasterxml.jackson.databind.JsonNode;

/** Turns the JSON object of one route's answer into what the caller asked for. */
@FunctionalInterface
interface AnswerParser<T> {
  T parse(JsonNode answer) throws MalformedAnswer;
}
