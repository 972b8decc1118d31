package dev.clique.engine.hooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.engine.json.EngineJson;
import dev.clique.engine.state.Attention;
import dev.clique.engine.state.Report;
import dev.clique.engine.state.SessionState;
import dev.clique.engine.state.StateSource;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Claude Code's hooks. The engine passes them with {@code --settings} as HTTP hooks: Claude POSTs
 * each event's JSON to the engine itself, with the session's token taken from the pane's
 * environment by name, so no program runs and no token is written anywhere.
 */
final class ClaudeHooks implements HookDialect {
  private static final ObjectMapper JSON = EngineJson.mapper();

  /** The events that tell a state; the tool events take a matcher. */
  static final List<String> EVENTS =
      List.of(
          "UserPromptSubmit",
          "PreToolUse",
          "PermissionRequest",
          "PostToolUse",
          "Notification",
          "Stop",
          "StopFailure",
          "SessionEnd");

  static final List<String> TOOL_EVENTS = List.of("PreToolUse", "PermissionRequest", "PostToolUse");

  static final String TOKEN_VARIABLE = "CLIQUE_ATTENTION_TOKEN";

  @Override
  public Optional<Report> read(JsonNode event, long nowMillis) {
    String name = event.path("hook_event_name").asText("");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("a Claude Code hook event names its hook_event_name");
    }
    return switch (name) {
      case "UserPromptSubmit" -> working(name);
      case "PreToolUse", "PostToolUse" -> working(name + " " + tool(event));
      case "PermissionRequest" ->
          Optional.of(
              tool(event).equals("AskUserQuestion")
                  ? waiting("question", question(event), nowMillis, name + " AskUserQuestion")
                  : waiting("permission", toolDetail(event), nowMillis, name + " " + tool(event)));
      case "Notification" -> notification(event, nowMillis);
      case "Stop" -> Optional.of(new Report(SessionState.IDLE, null, StateSource.HOOK, name));
      case "StopFailure" -> {
        String type = errorType(event);
        if (type.equals("rate_limit")) {
          // Its vendor's usage or rate limit: nothing is broken, a person waits or switches.
          yield Optional.of(
              waiting(
                  Attention.USAGE_LIMIT, limitWords(event, type), nowMillis, name + " " + type));
        }
        yield Optional.of(
            new Report(
                SessionState.ERROR,
                new Attention("error", type, nowMillis),
                StateSource.HOOK,
                name + " " + type));
      }
      default -> Optional.empty(); // SessionStart, SessionEnd, PreCompact, ...: tmux tells the rest
    };
  }

  private static Optional<Report> notification(JsonNode event, long nowMillis) {
    String type = event.path("notification_type").asText("");
    String message = event.path("message").asText("");
    String evidence = ("Notification " + type).strip();
    return switch (type) {
      case "permission_prompt" -> Optional.of(waiting("permission", message, nowMillis, evidence));
      case "elicitation_dialog" -> Optional.of(waiting("question", message, nowMillis, evidence));
      case "idle_prompt" ->
          Optional.of(new Report(SessionState.IDLE, null, StateSource.HOOK, evidence));
      default -> Optional.empty();
    };
  }

  private static Optional<Report> working(String evidence) {
    return Optional.of(new Report(SessionState.WORKING, null, StateSource.HOOK, evidence));
  }

  private static Report waiting(String kind, String detail, long nowMillis, String evidence) {
    return new Report(
        SessionState.WAITING, new Attention(kind, detail, nowMillis), StateSource.HOOK, evidence);
  }

  private static String tool(JsonNode event) {
    return event.path("tool_name").asText("a tool");
  }

  /** The first question Claude asks with its AskUserQuestion tool. */
  private static String question(JsonNode event) {
    JsonNode first = event.path("tool_input").path("questions").path(0);
    return first.path("question").asText("a question");
  }

  /** {@code Bash: python3 -c ...}: the tool and what it would do. */
  private static String toolDetail(JsonNode event) {
    JsonNode input = event.path("tool_input");
    for (String field : List.of("command", "file_path", "url", "pattern", "prompt")) {
      if (input.path(field).isTextual()) {
        return tool(event) + ": " + input.path(field).asText();
      }
    }
    return tool(event);
  }

  /**
   * What Claude said of the limit: its last message ({@code API Error: Request rejected (429) ·
   * ...}, as on its screen), else the error's details, else its type.
   */
  private static String limitWords(JsonNode event, String type) {
    for (String field : List.of("last_assistant_message", "error_details")) {
      JsonNode value = event.path(field);
      if (value.isTextual() && !value.asText().isBlank()) {
        return value.asText();
      }
    }
    return type;
  }

  /** The API error Claude stopped on: {@code rate_limit}, {@code authentication_failed}, ... */
  private static String errorType(JsonNode event) {
    for (String field : List.of("error_type", "error", "reason")) {
      JsonNode value = event.path(field);
      if (value.isTextual() && !value.asText().isBlank()) {
        return value.asText().strip().toLowerCase(Locale.ROOT);
      }
      if (value.isObject() && value.path("type").isTextual()) {
        return value.path("type").asText();
      }
    }
    return "unknown";
  }

  /** The value of {@code --settings}: an HTTP hook to {@code url} for each event. */
  String settings(String url) {
    return httpHooks(url, EVENTS, TOOL_EVENTS);
  }

  @Override
  public Install install(String url, Path hooksDir) {
    return Install.argument(settings(url));
  }

  /**
   * {@code {"hooks": {...}}}: an HTTP hook for each of {@code events} that POSTs to {@code url}
   * with the session's token from the pane's environment, every tool matched for {@code
   * toolEvents}.
   */
  static String httpHooks(String url, List<String> events, List<String> toolEvents) {
    ObjectNode hooks = JSON.createObjectNode();
    for (String event : events) {
      ObjectNode hook = JSON.createObjectNode();
      hook.put("type", "http");
      hook.put("url", url);
      hook.putObject("headers").put("Authorization", "Bearer $" + TOKEN_VARIABLE);
      hook.putArray("allowedEnvVars").add(TOKEN_VARIABLE);
      hook.put("timeout", 5);
      ObjectNode group = JSON.createObjectNode();
      if (toolEvents.contains(event)) {
        group.put("matcher", "*");
      }
      group.putArray("hooks").add(hook);
      ArrayNode groups = hooks.putArray(event);
      groups.add(group);
    }
    ObjectNode settings = JSON.createObjectNode();
    settings.set("hooks", hooks);
    return settings.toString();
  }
}
