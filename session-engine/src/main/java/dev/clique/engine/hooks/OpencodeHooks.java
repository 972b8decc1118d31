package dev.clique.engine.hooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
import java.util.regex.Pattern;

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

  private static final Pattern SESSION_ID = Pattern.compile("ses_[0-9A-Za-z]{1,64}");

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

  /**
   * The {@code sessionID} of a turn's first event ({@code ses_} and letters and digits), which
   * {@code opencode --session} takes back.
   */
  @Override
  public Optional<String> cliSessionId(JsonNode event) {
    JsonNode id = event.path("properties").path("sessionID");
    return id.isTextual() && SESSION_ID.matcher(id.asText()).matches()
        ? Optional.of(id.asText())
        : Optional.empty();
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

  /**
   * Writes the plugin into {@code hooksDir} (once, and again only when it changed) and names it in
   * {@code OPENCODE_CONFIG_CONTENT}, added to the person's own value of it (the engine's, which the
   * pane would inherit); the URL goes in the environment, the token is already there.
   */
  @Override
  public Install install(String url, Path hooksDir) throws IOException {
    return Install.environment(environment(url, hooksDir, System.getenv(CONFIG_VARIABLE)));
  }

  /** The variables {@link #install} gives, over {@code own}, the person's config content. */
  Map<String, String> environment(String url, Path hooksDir, String own) throws IOException {
    Path plugin = hooksDir.resolve(PLUGIN);
    if (!Files.isRegularFile(plugin) || !Arrays.equals(Files.readAllBytes(plugin), PLUGIN_SOURCE)) {
      Files.createDirectories(
          plugin.getParent(),
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      AtomicFile.write(plugin, PLUGIN_SOURCE);
    }
    Map<String, String> env = new LinkedHashMap<>();
    env.put(URL_VARIABLE, url);
    withPlugin(own, plugin.toUri().toString())
        .ifPresent(config -> env.put(CONFIG_VARIABLE, config));
    return env;
  }

  /**
   * {@code own} (the person's config content, or null) with {@code plugin} added to its plugins.
   * Empty when it cannot take one (not a JSON object, or plugins that are not a list): the person's
   * own is left as it is then, for opencode to say what is wrong with it, and only the screen tells
   * the session's state.
   */
  static Optional<String> withPlugin(String own, String plugin) {
    ObjectNode config;
    if (own == null || own.isBlank()) {
      config = JSON.createObjectNode();
    } else {
      try {
        if (!(JSON.readTree(own) instanceof ObjectNode read)) {
          return Optional.empty();
        }
        config = read;
      } catch (IOException e) {
        return Optional.empty();
      }
    }
    JsonNode plugins = config.get("plugin");
    if (plugins == null || plugins.isNull()) {
      config.putArray("plugin").add(plugin);
    } else if (plugins instanceof ArrayNode list) {
      list.add(plugin);
    } else {
      return Optional.empty();
    }
    return Optional.of(config.toString());
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
