package dev.clique.engine.hooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.engine.state.Report;
import dev.clique.engine.state.SessionState;
import dev.clique.engine.state.StateSource;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Codex's hooks (0.169.0). Its events have the shape of Claude Code's, plus {@code Interrupt} (the
 * person pressed Esc); it has no Notification and no StopFailure (a failed turn fires nothing: the
 * pane's "■" line says it).
 *
 * <p>Codex runs only command hooks, and only trusted ones: the engine passes them as one {@code -c
 * hooks={...}} override together with the trust Codex would record for them ({@code hooks.state},
 * the SHA-256 of each hook's definition), so no file is written and no review screen opens. Each
 * command is the {@link HookRelay}.
 */
final class CodexHooks implements HookDialect {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The events that tell a state, with the label Codex keys their trust by. */
  private static final List<List<String>> EVENTS =
      List.of(
          List.of("UserPromptSubmit", "user_prompt_submit"),
          List.of("PreToolUse", "pre_tool_use"),
          List.of("PermissionRequest", "permission_request"),
          List.of("PostToolUse", "post_tool_use"),
          List.of("Stop", "stop"),
          List.of("Interrupt", "interrupt"));

  /** Where Codex says {@code -c} overrides come from, in the keys of {@code hooks.state}. */
  static final String SOURCE = "/<session-flags>/config.toml";

  /**
   * Each hook names its timeout, which its trusted hash covers: left out, Codex would fill in its
   * own default, which differs by event (600 s, but 1 s for Interrupt, which it clamps to 3 s).
   */
  static final int TIMEOUT_SECONDS = 3;

  private final ClaudeHooks sameShape = new ClaudeHooks();

  @Override
  public Optional<Report> read(JsonNode event, long nowMillis) {
    String name = event.path("hook_event_name").asText("");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("a Codex hook event names its hook_event_name");
    }
    return switch (name) {
      case "Interrupt" -> Optional.of(new Report(SessionState.IDLE, null, StateSource.HOOK, name));
      case "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "Stop" ->
          sameShape.read(event, nowMillis);
      default -> Optional.empty(); // SessionStart (with the first prompt), SessionEnd: tmux tells
    };
  }

  /** {@code hooks={UserPromptSubmit=[...], ..., state={...}}}: one {@code -c} value. */
  @Override
  public Install install(String url, Path hooksDir) {
    return Install.argument(settings(url));
  }

  String settings(String url) {
    String command = HookRelay.command(url);
    StringBuilder toml = new StringBuilder("hooks={");
    StringBuilder state = new StringBuilder("state={");
    for (int i = 0; i < EVENTS.size(); i++) {
      String event = EVENTS.get(i).get(0);
      String label = EVENTS.get(i).get(1);
      String separator = i == 0 ? "" : ",";
      toml.append(separator)
          .append(event)
          .append("=[{hooks=[{type=\"command\",command=")
          .append(tomlString(command))
          .append(",timeout=")
          .append(TIMEOUT_SECONDS)
          .append("}]}]");
      state
          .append(separator)
          .append(tomlString(SOURCE + ":" + label + ":0:0"))
          .append("={trusted_hash=\"sha256:")
          .append(trustedHash(label, command, TIMEOUT_SECONDS))
          .append("\"}");
    }
    return toml.append(',').append(state).append("}}").toString();
  }

  /**
   * What Codex records as a hook group's trust: the SHA-256 of its definition as compact JSON with
   * sorted keys (checked against the hashes its own "Trust all" writes).
   */
  static String trustedHash(String label, String command, int timeoutSeconds) {
    ObjectNode hook = JSON.createObjectNode();
    hook.put("async", false);
    hook.put("command", command);
    hook.put("timeout", timeoutSeconds);
    hook.put("type", "command");
    ObjectNode group = JSON.createObjectNode();
    group.put("event_name", label);
    group.putArray("hooks").add(hook);
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(JSON.writeValueAsString(group).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException | com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot hash a Codex hook: " + e.getMessage(), e);
    }
  }

  private static String tomlString(String value) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : value.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        default -> out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
