package dev.clique.mcp.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The 2026-07-28 revision, which the SDK's types do not cover: no handshake, the version named in
 * each request's {@code params._meta}, {@code server/discover} instead of {@code initialize}, and
 * results that say they are complete and how long they may be cached. Served on the same stdin as
 * the {@code initialize} era, by the same process.
 */
final class ModernEra {
  static final String DISCOVER = "server/discover";
  static final String PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
  static final String SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

  /** The tool list and the capabilities change only with a new build: an hour is safe. */
  static final long TTL_MS = 60 * 60 * 1000L;

  /** Nothing in them depends on who asks (the token is not in them). */
  static final String CACHE_SCOPE = "public";

  /**
   * The sessions' own resources come, go and change state at any moment, so they are stale at once;
   * and what a terminal shows is for whoever asked, not for a shared cache.
   */
  static final long SESSION_DATA_TTL_MS = 0;

  static final String SESSION_DATA_CACHE_SCOPE = "private";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ModernEra() {}

  /** What a request says about its revision. */
  enum Era {
    /** No version in {@code _meta}, or one of the {@code initialize} era: served as before. */
    INITIALIZE,
    /** {@code 2026-07-28} in {@code _meta}: served without a handshake, results marked complete. */
    MODERN,
    /** A version this server does not speak: answered {@code -32022}. */
    UNSUPPORTED
  }

  /** The version a request names in {@code params._meta}, or {@code null} when it names none. */
  static JsonNode namedVersion(JsonNode params) {
    if (params == null || !params.isObject()) {
      return null;
    }
    JsonNode meta = params.get("_meta");
    return meta != null && meta.isObject() ? meta.get(PROTOCOL_VERSION_KEY) : null;
  }

  static Era of(JsonNode params) {
    JsonNode named = namedVersion(params);
    if (named == null) {
      return Era.INITIALIZE;
    }
    if (!named.isTextual() || !ProtocolVersions.SUPPORTED.contains(named.textValue())) {
      return Era.UNSUPPORTED;
    }
    return ProtocolVersions.MODERN.equals(named.textValue()) ? Era.MODERN : Era.INITIALIZE;
  }

  /** The {@code -32022} answer to a request naming a version this server does not speak. */
  static String unsupported(JsonNode id, JsonNode params) {
    JsonNode named = namedVersion(params);
    ObjectNode data = NODES.objectNode();
    ProtocolVersions.SUPPORTED.forEach(data.putArray("supported")::add);
    data.set("requested", named == null ? NODES.nullNode() : named);
    String shown = named != null && named.isTextual() ? named.textValue() : String.valueOf(named);
    return JsonRpc.error(
        id,
        JsonRpc.UNSUPPORTED_PROTOCOL_VERSION,
        "Unsupported protocol version: "
            + shown
            + " (this server speaks "
            + String.join(", ", ProtocolVersions.SUPPORTED)
            + ")",
        data);
  }

  /** The answer to {@code server/discover}: what {@code initialize} told, plus cache hints. */
  static ObjectNode discover(ServerIdentity server) {
    ObjectNode result = NODES.objectNode();
    ProtocolVersions.SUPPORTED.forEach(result.putArray("supportedVersions")::add);
    result.set("capabilities", server.capabilities().deepCopy());
    result.put("instructions", server.instructions());
    result.putObject("_meta").set(SERVER_INFO_KEY, server.info());
    return complete(result, DISCOVER);
  }

  /**
   * Marks a result of a modern request complete; the lists (and discovery) also say how long a
   * client may keep them.
   */
  static ObjectNode complete(ObjectNode result, String method) {
    result.setAll(completion(method));
    return result;
  }

  /** The fields {@link #complete} adds to a result of {@code method}. */
  static ObjectNode completion(String method) {
    ObjectNode fields = NODES.objectNode();
    fields.put("resultType", "complete");
    if (method.equals("resources/list") || method.equals("resources/read")) {
      fields.put("ttlMs", SESSION_DATA_TTL_MS);
      fields.put("cacheScope", SESSION_DATA_CACHE_SCOPE);
    } else if (method.equals(DISCOVER) || method.endsWith("/list")) {
      fields.put("ttlMs", TTL_MS);
      fields.put("cacheScope", CACHE_SCOPE);
    }
    return fields;
  }
}
