package dev.clique.mcp.protocol;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What makes an {@code initialize} request unusable, said in a sentence, so that the client learns
 * what to send rather than that something failed.
 */
final class InitializeCheck {
  private InitializeCheck() {}

  /** The problem with {@code params}, or {@code null} when they can be served. */
  static String problem(JsonNode params) {
    if (params == null || params.isNull()) {
      return "initialize needs params: {\"protocolVersion\": \"2025-11-25\", \"capabilities\":"
          + " {}, \"clientInfo\": {\"name\": ..., \"version\": ...}}";
    }
    JsonNode version = params.get("protocolVersion");
    if (version == null || !version.isTextual() || version.textValue().isBlank()) {
      return "initialize: params.protocolVersion must be a version string, such as \"2025-11-25\"";
    }
    JsonNode capabilities = params.get("capabilities");
    if (capabilities != null && !capabilities.isObject()) {
      return "initialize: params.capabilities must be an object";
    }
    JsonNode client = params.get("clientInfo");
    if (client != null
        && (!client.isObject()
            || !isTextOrAbsent(client.get("name"))
            || !isTextOrAbsent(client.get("version")))) {
      return "initialize: params.clientInfo must be an object with a name and a version (strings)";
    }
    return null;
  }

  private static boolean isTextOrAbsent(JsonNode node) {
    return node == null || node.isTextual();
  }
}
