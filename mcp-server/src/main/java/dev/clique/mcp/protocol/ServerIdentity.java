package dev.clique.mcp.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Who this server is, as both eras tell it: {@code initialize}, and the modern era's {@code
 * server/discover} ({@link ModernEra}).
 *
 * @param name the server's name, {@code clique}
 * @param version the project's version
 * @param instructions the sentence that tells a model what the tools are for
 * @param capabilities the capabilities object, as {@code initialize} answers it
 */
public record ServerIdentity(
    String name, String version, String instructions, JsonNode capabilities) {

  /** The result of {@code initialize} at {@code version}. */
  public ObjectNode initializeResult(String version) {
    ObjectNode result = JsonNodeFactory.instance.objectNode();
    result.put("protocolVersion", version);
    result.set("capabilities", capabilities.deepCopy());
    result.set("serverInfo", info());
    result.put("instructions", instructions);
    return result;
  }

  /** {@code {"name": ..., "version": ...}}. */
  public ObjectNode info() {
    ObjectNode info = JsonNodeFactory.instance.objectNode();
    info.put("name", name);
    info.put("version", version);
    return info;
  }
}
