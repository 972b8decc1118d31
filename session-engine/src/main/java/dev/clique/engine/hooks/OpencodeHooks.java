package dev.clique.engine.hooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.engine.home.AtomicFile;
import dev.clique.engine.json.EngineJson;
import dev.clique.engine.state.Attention;
import dev.clique.engine.state.Report;
import dev.clique.engine.state.SessionState;
import dev.clique.engine.state.StateSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * opencode's events (1.18.33), from a plugin of clique's: opencode takes no hooks as an argument,
 * so the engine names the plugin in {@code OPENCODE_CONFIG_CONTENT}, which opencode merges over the
 * person's own config for this run only. The plugin ({@code opencode-plugin.js}) posts opencode's
 * own bus events, {@code {"type": ..., "properties": ...}}, to the session's hook route with the
 * pane's token; after a failed turn it leaves out the idle that follows, so the error holds.
 */
final class OpencodeHooks implements HookDialect {
  private static final ObjectMapper JSON = EngineJson.mapper();

  /** The plugin's file in the engine's hooks folder: opencode imports it by its path. */
  static final String PLUGIN = "opencode/clique-state.js";

  /** Where the plugin posts: the session's hook route. */
  static final String URL_VARIABLE = "CLIQUE_HOOK_URL";

  static final String CONFIG_VARIABLE = "OPENCODE_CONFIG_CONTENT";

  private static final byte[] PLUGIN_SOURCE = pluginSource();

  @Override
  public Optional<Report> read(JsonNode event, long nowMillis) {
    JsonNode type = event.get("type");
    if (type == null || !type.isTextual() || type.asText().isBlank()) {
      throw new IllegalArgumentException("an opencode event names its type");
    }
    String name = type.asText();
    JsonNode properties = event.path("properties");
    return switch (name) {
      case "session.status" -> status(properties.path("status"), nowMillis);
      case "session.idle" -> Optional.of(report(SessionState.IDLE, null, name));
      case "session.error" -> Optional.of(error(properties.path("error"), nowMillis));
      case "permission.asked" -> {
        String permission = properties.path("permission").asText("a tool");
        yield Optional.of(
            report(
                SessionState.WAITING,
                new Attention("permission", permissionDetail(properties), nowMillis),
                name + " " + permission));
      }
      case "question.asked" ->
          Optional.of(
              report(
                  SessionState.WAITING,
                  new Attention("question", question(properties), nowMillis),
                  name));
      case "permission.replied", "question.replied", "question.rejected" ->
          Optional.of(report(SessionState.WORKING, null, name));
      default -> Optional.empty();
    };
  }

  /** {@code busy}, {@code idle}, or {@code retry}: the API failed and opencode tries again. */
  private static Optional<Report> status(JsonNode status, long nowMillis) {
    String type = status.path("type").asText("");
    return switch (type) {
      case "busy" -> Optional.of(report(SessionState.WORKING, null, "session.status busy"));
      case "idle" -> Optional.of(report(SessionState.IDLE, null, "session.status idle"));
      case "retry" -> Optional.of(retry(status, nowMillis));
      default -> Optional.empty();
    };
  }

  /**
   * A failed request that opencode tries again by itself, at {@code next}. A usage or rate limit
   * (its own gateway's names its reason; a provider's 429 comes with the provider's words, which
   * opencode passes on) is no failure: the session needs a person only to wait or switch, so it is
   * waiting, with when opencode tries again. Any other failure is an error until a try succeeds.
   */
  private static Report retry(JsonNode status, long nowMillis) {
    String message = status.path("message").asText("the API failed");
    String reason = status.path("action").path("reason").asText("");
    if (reason.endsWith("_limit") || LimitWords.in(message)) {
      long next = status.path("next").asLong(0);
      return report(
          SessionState.WAITING,
          new Attention(
              Attention.USAGE_LIMIT,
              message,
              nowMillis,
              next > nowMillis ? Instant.ofEpochMilli(next) : null),
          "session.status retry " + (reason.isEmpty() ? "rate limit" : reason));
    }
    String detail = message + " (retrying, attempt " + status.path("attempt").asInt(0) + ")";
    return report(
        SessionState.ERROR, new Attention("error", detail, nowMillis), "session.status retry");
  }

  /** A failed turn; the person's own Esc ({@code MessageAbortedError}) is no error. */
  private static Report error(JsonNode error, long nowMillis) {
    String kind = error.path("name").asText("UnknownError");
    if (kind.equals("MessageAbortedError")) {
      return report(SessionState.IDLE, null, "session.error " + kind);
    }
    JsonNode data = error.path("data");
    String detail = kind;
    if (data.path("statusCode").isNumber()) {
      detail += " " + data.path("statusCode").asInt();
    }
    if (data.path("message").isTextual()) {
      detail += ": " + data.path("message").asText();
    }
    return report(
        SessionState.ERROR, new Attention("error", detail, nowMillis), "session.error " + kind);
  }

  /** {@code bash: rm -rf build}: the permission and what it is for. */
  private static String permissionDetail(JsonNode properties) {
    String permission = properties.path("permission").asText("a tool");
    JsonNode metadata = properties.path("metadata");
    for (String field : List.of("command", "filepath", "filePath", "path", "url", "pattern")) {
      if (metadata.path(field).isTextual()) {
        return permission + ": " + metadata.path(field).asText();
      }
    }
    JsonNode first = properties.path("patterns").path(0);
    return first.isTextual() ? permission + ": " + first.asText() : permission;
  }

  private static String question(JsonNode properties) {
    JsonNode first = properties.path("questions").path(0);
    return first.path("question").asText(first.path("header").asText("a question"));
  }

  private static Report report(SessionState state, Attention attention, String evidence) {
    return new Report(state, attention, StateSource.HOOK, evidence);
  }

  /** opencode takes its plugin from the environment, not from an argument. */
  @Override
  public String settings(String url) {
    return "";
  }

  /**
   * Writes the plugin into {@code hooksDir} (once, and again only when it changed) and names it in
   * {@code OPENCODE_CONFIG_CONTENT}; the URL goes in the environment, the token is already there.
   */
  @Override
  public Map<String, String> environment(String url, Path hooksDir) throws IOException {
    Path plugin = hooksDir.resolve(PLUGIN);
    if (!Files.isRegularFile(plugin) || !Arrays.equals(Files.readAllBytes(plugin), PLUGIN_SOURCE)) {
      Files.createDirectories(
          plugin.getParent(),
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      AtomicFile.write(plugin, PLUGIN_SOURCE);
    }
    ObjectNode config = JSON.createObjectNode();
    config.putArray("plugin").add(plugin.toUri().toString());
    Map<String, String> env = new LinkedHashMap<>();
    env.put(URL_VARIABLE, url);
    env.put(CONFIG_VARIABLE, config.toString());
    return env;
  }

  private static byte[] pluginSource() {
    try (InputStream in = OpencodeHooks.class.getResourceAsStream("opencode-plugin.js")) {
      if (in == null) {
        throw new IllegalStateException("the opencode plugin is missing from the engine's jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
