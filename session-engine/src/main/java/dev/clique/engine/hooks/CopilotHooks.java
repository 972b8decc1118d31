package dev.clique.engine.hooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.engine.json.EngineJson;
import dev.clique.engine.state.Attention;
import dev.clique.engine.state.Report;
import dev.clique.engine.state.SessionState;
import dev.clique.engine.state.StateSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * GitHub Copilot CLI's hooks (1.0.102). Copilot takes no hooks on its command line, but it loads a
 * plugin from any folder given with {@code --plugin-dir}: the engine writes one, under its own
 * home, whose {@code hooks/hooks.json} runs a relay for each event, so nothing is written to {@code
 * $COPILOT_HOME} or the person's repository.
 *
 * <p>Copilot's command hooks get the event's input on stdin without its name (only its notification
 * carries one), so each event's relay wraps it: {@code {"hook_event_name": NAME, "input": {...}}}.
 * Every failed model call fires {@code errorOccurred}, the retried ones and the last alike ({@code
 * recoverable: true} for all five retries and the final failure): the final one is told by its
 * screen ("✗ Failed to get response from the AI model"), so only an error it says it cannot recover
 * from is an error here.
 */
final class CopilotHooks implements HookDialect {
  private static final ObjectMapper JSON = EngineJson.mapper();

  /** The events the plugin relays: Copilot's own names (camelCase). */
  static final List<String> EVENTS =
      List.of(
          "sessionStart",
          "sessionEnd",
          "userPromptSubmitted",
          "preToolUse",
          "postToolUse",
          "permissionRequest",
          "notification",
          "agentStop",
          "errorOccurred");

  /** Seconds Copilot waits for a relay; curl gives up after {@link HookRelay#MAX_SECONDS}. */
  static final int TIMEOUT_SECONDS = 5;

  @Override
  public Optional<Report> read(JsonNode event, long nowMillis) {
    String name = event.path("hook_event_name").asText("");
    if (!EVENTS.contains(name)) {
      throw new IllegalArgumentException(
          "a Copilot hook event names one of " + EVENTS + " as its hook_event_name");
    }
    JsonNode input = event.path("input");
    if (!input.isObject()) {
      throw new IllegalArgumentException("a Copilot hook event carries its input as an object");
    }
    return switch (name) {
      case "userPromptSubmitted" -> working(name);
      case "preToolUse", "postToolUse" -> working(name + " " + tool(input));
      case "permissionRequest" ->
          Optional.of(
              waiting("permission", toolDetail(input), nowMillis, name + " " + tool(input)));
      case "notification" -> notification(input, nowMillis);
      case "agentStop" -> Optional.of(new Report(SessionState.IDLE, null, StateSource.HOOK, name));
      case "errorOccurred" -> error(input, nowMillis);
      default -> Optional.empty(); // sessionStart, sessionEnd: tmux tells
    };
  }

  private static Optional<Report> notification(JsonNode input, long nowMillis) {
    String type = input.path("notification_type").asText("");
    String message = input.path("message").asText("");
    String evidence = ("notification " + type).strip();
    return switch (type) {
      case "permission_prompt" -> Optional.of(waiting("permission", message, nowMillis, evidence));
      case "elicitation_dialog" -> Optional.of(waiting("question", message, nowMillis, evidence));
      case "idle_prompt" ->
          Optional.of(new Report(SessionState.IDLE, null, StateSource.HOOK, evidence));
      default -> Optional.empty();
    };
  }

  /** An error Copilot will not retry; a retried one says nothing (its screen tells the last). */
  private static Optional<Report> error(JsonNode input, long nowMillis) {
    if (!input.path("recoverable").isBoolean() || input.path("recoverable").asBoolean()) {
      return Optional.empty();
    }
    String context = input.path("errorContext").asText("error");
    String message = input.path("error").path("message").asText(context);
    return Optional.of(
        new Report(
            SessionState.ERROR,
            new Attention("error", message, nowMillis),
            StateSource.HOOK,
            "errorOccurred " + context));
  }

  private static Optional<Report> working(String evidence) {
    return Optional.of(new Report(SessionState.WORKING, null, StateSource.HOOK, evidence));
  }

  private static Report waiting(String kind, String detail, long nowMillis, String evidence) {
    return new Report(
        SessionState.WAITING, new Attention(kind, detail, nowMillis), StateSource.HOOK, evidence);
  }

  private static String tool(JsonNode input) {
    return input.path("toolName").asText("a tool");
  }

  /** {@code bash: echo hi}: the tool and what it would do. */
  private static String toolDetail(JsonNode input) {
    for (String arguments : List.of("toolInput", "toolArgs")) {
      JsonNode values = input.path(arguments);
      for (String field : List.of("command", "path", "url", "pattern", "prompt")) {
        if (values.path(field).isTextual()) {
          return tool(input) + ": " + values.path(field).asText();
        }
      }
    }
    return tool(input);
  }

  /** The plugin's {@code hooks/hooks.json}: a relay to {@code url} for each event. */
  String settings(String url) {
    ObjectNode file = JSON.createObjectNode().put("version", 1);
    ObjectNode hooks = file.putObject("hooks");
    for (String event : EVENTS) {
      ObjectNode hook = JSON.createObjectNode();
      hook.put("type", "command");
      hook.put("bash", relay(event, url));
      hook.put("timeoutSec", TIMEOUT_SECONDS);
      hooks.putArray(event).add(hook);
    }
    return file.toPrettyString();
  }

  /**
   * Writes the plugin for {@code url} under {@code hooksDir} (once: its folder is named by a digest
   * of what it holds) and names its folder, the value of {@code --plugin-dir}.
   */
  @Override
  public Install install(String url, Path hooksDir) throws IOException {
    return Install.argument(plugin(url, hooksDir));
  }

  private String plugin(String url, Path dir) throws IOException {
    String hooks = settings(url);
    Path plugin = dir.resolve("copilot-" + digest(hooks));
    if (Files.isRegularFile(plugin.resolve("hooks").resolve("hooks.json"))) {
      return plugin.toString();
    }
    // Like every file under the clique home: folders 0700, files 0600.
    privateFolder(dir);
    Path staged = dir.resolve(".staged-" + UUID.randomUUID());
    privateFolder(staged);
    privateFolder(staged.resolve(".plugin"));
    privateFolder(staged.resolve("hooks"));
    privateFile(
        staged.resolve(".plugin").resolve("plugin.json"),
        "{\"name\": \"clique-state\", \"version\": \"1.0.0\","
            + " \"description\": \"Tells clique this session's state.\"}\n");
    privateFile(staged.resolve("hooks").resolve("hooks.json"), hooks);
    try {
      Files.move(staged, plugin, StandardCopyOption.ATOMIC_MOVE);
    } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
      deleteStaged(staged); // another start wrote the same plugin first
    } catch (IOException e) {
      if (!Files.isDirectory(plugin)) {
        throw e;
      }
      deleteStaged(staged);
    }
    return plugin.toString();
  }

  /**
   * The relay of one event: its input from stdin wrapped with its name, POSTed with the session's
   * token from the pane's environment, which goes to curl as a config read from a pipe (no argv, no
   * file). A relay that cannot reach the engine prints nothing and exits 0, so Copilot carries on.
   */
  static String relay(String event, String url) {
    return "{ printf '{\"hook_event_name\":\""
        + event
        + "\",\"input\":'; cat; printf '}'; } | curl -s -m "
        + HookRelay.MAX_SECONDS
        + " --noproxy '*' -o /dev/null -K <(printf 'header = \"Authorization: Bearer %s\"\\n' \"$"
        + ClaudeHooks.TOKEN_VARIABLE
        + "\") -H 'Content-Type: application/json' --data-binary @- '"
        + url
        + "' || true";
  }

  private static String digest(String text) {
    try {
      byte[] sha =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(sha, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void privateFolder(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      Files.createDirectories(
          folder,
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
  }

  private static void privateFile(Path file, String text) throws IOException {
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, text);
  }

  private static void deleteStaged(Path staged) throws IOException {
    try (var files = Files.walk(staged)) {
      for (Path each : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(each);
      }
    }
  }
}
