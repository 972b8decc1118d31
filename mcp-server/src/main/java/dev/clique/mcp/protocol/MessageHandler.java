package dev.clique.mcp.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** What the front hands on: each request and notification that is well formed. */
public interface MessageHandler {
  void request(JsonNode id, String method, ObjectNode message);

  void notification(String method, ObjectNode message);
}
