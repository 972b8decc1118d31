package dev.clique.client.internal;

import dev.clique.client.Conversation;
import dev.clique.client.EngineState;
import dev.clique.client.Health;
import dev.clique.client.Pane;
import dev.clique.client.Session;
import dev.clique.client.WaitResult;

/**
 * The readers of the engine's answers, one per route. They live beside the values they make (whose
 * constructors are not public); {@code CliqueClient.Builder} hands them to the client.
 */
public interface AnswerReader {
  /**
   * {@code GET /api/state}.
   *
   * @param answer the answer's JSON
   * @return the state
   * @throws MalformedAnswer if it is not a state
   */
  EngineState state(JsonText answer) throws MalformedAnswer;

  /**
   * {@code GET /api/sessions/{id}/peek}.
   *
   * @param answer the answer's JSON
   * @return the pane
   * @throws MalformedAnswer if it is not a pane
   */
  /**
   * Reads one session row.
   *
   * @param row the row, as its own JSON text
   * @return the session
   * @throws MalformedAnswer when it is not a session
   */
  Session session(JsonText row) throws MalformedAnswer;

  Pane pane(JsonText answer) throws MalformedAnswer;

  /**
   * {@code GET /api/sessions/{id}/wait}.
   *
   * @param answer the answer's JSON
   * @param id the session waited on, when the answer names none
   * @return the result
   * @throws MalformedAnswer if it is not a wait's answer
   */
  WaitResult waitResult(JsonText answer, String id) throws MalformedAnswer;

  /**
   * {@code GET /api/sessions/{id}/transcript}.
   *
   * @param answer the answer's JSON
   * @return the conversation
   * @throws MalformedAnswer if it is not a conversation
   */
  Conversation conversation(JsonText answer) throws MalformedAnswer;

  /**
   * {@code GET /healthz}.
   *
   * @param answer the answer's JSON
   * @return the health
   * @throws MalformedAnswer if it is not a health answer
   */
  Health health(JsonText answer) throws MalformedAnswer;
}
