package dev.clique.engine.hooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.engine.state.Report;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Qwen Code's hooks (0.24.4). Its events have Claude Code's names and shapes, sent as HTTP hooks
 * the same way (the token from the pane's environment by name, loopback allowed), with two
 * differences: a failed turn fires {@code StopFailure} and then, at once, a {@code Notification}
 * {@code idle_prompt}, which would hide the error, so an idle prompt says nothing here ({@code
 * Stop} says a turn ended well); and its tool names are its own ({@code run_shell_command}, {@code
 * ask_user_question}).
 *
 * <p>Qwen Code takes no settings as an argument. It reads hooks, whatever the folder's trust, from
 * its system settings and from a system defaults file that {@code QWEN_CODE_SYSTEM_DEFAULTS_PATH}
 * may name: the engine writes such a file for the run and names it in the pane's environment, so
 * nothing of the person's own settings is written or read over.
 */
final class QwenHooks implements HookDialect {
  /** The variable Qwen Code reads its system defaults file from. */
  static final String SETTINGS_VARIABLE = "QWEN_CODE_SYSTEM_DEFAULTS_PATH";

  /** A defaults file larger than this is no settings file: the hooks go alone. */
  static final long MAX_OWN_DEFAULTS = 1 << 20;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ClaudeHooks sameShape = new ClaudeHooks();

  @Override
  public Optional<Report> read(JsonNode event, long nowMillis) {
    String name = event.path("hook_event_name").asText("");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("a Qwen Code hook event names its hook_event_name");
    }
    return switch (name) {
      case "UserPromptSubmit",
          "PreToolUse",
          "PostToolUse",
          "PermissionRequest",
          "Stop",
          "StopFailure" ->
          sameShape.read(normalised(event), nowMillis);
      case "PostToolUseFailure" -> sameShape.read(renamed(event, "PostToolUse"), nowMillis);
      case "Notification" ->
          event.path("notification_type").asText("").equals("permission_prompt")
              ? sameShape.read(event, nowMillis)
              : Optional.empty(); // idle_prompt follows StopFailure too: Stop says idle
      default -> Optional.empty(); // SessionStart, SessionEnd, PermissionDenied, ...: tmux tells
    };
  }

  /** Its question tool asks the person as Claude's AskUserQuestion does. */
  private static JsonNode normalised(JsonNode event) {
    if (event.path("tool_name").asText("").equals("ask_user_question")
        && event instanceof ObjectNode object) {
      return object.deepCopy().put("tool_name", "AskUserQuestion");
    }
    return event;
  }

  private static JsonNode renamed(JsonNode event, String name) {
    if (event instanceof ObjectNode object) {
      return object.deepCopy().put("hook_event_name", name);
    }
    return event;
  }

  /** The events that tell a state; the tool events take a matcher. */
  static final List<String> EVENTS =
      List.of(
          "UserPromptSubmit",
          "PreToolUse",
          "PermissionRequest",
          "PostToolUse",
          "PostToolUseFailure",
          "Notification",
          "Stop",
          "StopFailure");

  static final List<String> TOOL_EVENTS =
      List.of("PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure");

  /** Claude Code's HTTP hooks, which Qwen Code runs as they are. */
  String settings(String url) {
    return settings(url, EVENTS);
  }

  /**
   * A system defaults file of the run's own, named by {@value #SETTINGS_VARIABLE}: the engine's
   * hooks added to the defaults Qwen Code would read without the variable (the file the engine's
   * own environment names, else {@code system-defaults.json} beside its system settings), so an
   * administrator's defaults still apply to a session clique starts.
   */
  @Override
  public Install install(String url, Path hooksDir) {
    return Install.file(SETTINGS_VARIABLE, settingsOver(url, ownDefaults()));
  }

  /** {@link #settings} added to {@code own}, the JSON of a defaults file, or null for none. */
  static String settingsOver(String url, String own) {
    ObjectNode engine = (ObjectNode) parse(settings(url, EVENTS));
    JsonNode parsed = own == null ? null : parse(own);
    if (!(parsed instanceof ObjectNode merged)) {
      return engine.toString(); // none, or not an object Qwen Code would read either
    }
    JsonNode theirs = merged.path("hooks");
    ObjectNode hooks = theirs instanceof ObjectNode object ? object : merged.putObject("hooks");
    for (var event : engine.path("hooks").properties()) {
      JsonNode groups = hooks.path(event.getKey());
      ArrayNode all = groups instanceof ArrayNode array ? array : hooks.putArray(event.getKey());
      all.addAll((ArrayNode) event.getValue());
    }
    return merged.toString();
  }

  private static String settings(String url, List<String> events) {
    return ClaudeHooks.httpHooks(url, events, TOOL_EVENTS);
  }

  private static JsonNode parse(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      return null;
    }
  }

  /** The system defaults file Qwen Code reads when the variable is unset, if there is one. */
  private static String ownDefaults() {
    String named = System.getenv(SETTINGS_VARIABLE);
    Path file;
    if (named != null && !named.isBlank()) {
      file = Path.of(named);
    } else {
      String system = System.getenv("QWEN_CODE_SYSTEM_SETTINGS_PATH");
      Path settings =
          Path.of(system == null || system.isBlank() ? "/etc/qwen-code/settings.json" : system);
      file = settings.resolveSibling("system-defaults.json");
    }
    try {
      return Files.isRegularFile(file) && Files.size(file) < MAX_OWN_DEFAULTS
          ? Files.readString(file)
          : null;
    } catch (IOException | RuntimeException e) {
      return null; // unreadable to the engine: the hooks alone
    }
  }
}
