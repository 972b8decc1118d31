package dev.clique.mcp.tools;

import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON Schema pieces the five tools share. Output schemas describe the engine's answers as
 * HTTP-API.md does, including its nulls, and allow keys they do not name (a CLIque panel sends
 * more), so that a validating client accepts every answer of either engine.
 */
final class Schemas {
  private Schemas() {}

  /** Every tool only reads, repeatably, inside clique. */
  static final ToolAnnotations READ_ONLY =
      ToolAnnotations.builder()
          .readOnlyHint(true)
          .destructiveHint(false)
          .idempotentHint(true)
          .openWorldHint(false)
          .build();

  /** An input schema: only the declared arguments (the server refuses any other). */
  static Map<String, Object> input(Map<String, Object> properties, List<String> required) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", properties);
    if (!required.isEmpty()) {
      schema.put("required", required);
    }
    schema.put("additionalProperties", false);
    return schema;
  }

  static Map<String, Object> output(Map<String, Object> properties, List<String> required) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", properties);
    schema.put("required", required);
    return schema;
  }

  static Map<String, Object> sessionId() {
    return typed("string", "The session id, as list_sessions shows it.");
  }

  static Map<String, Object> type(String type) {
    return Map.of("type", type);
  }

  static Map<String, Object> typed(String type, String description) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", type);
    schema.put("description", description);
    return schema;
  }

  /** A string, or null when the engine has none (CLIque's {@code folder}, {@code mode}, ...). */
  static Map<String, Object> nullableString(String description) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", List.of("string", "null"));
    schema.put("description", description);
    return schema;
  }

  static Map<String, Object> arrayOf(Map<String, Object> items) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "array");
    schema.put("items", items);
    return schema;
  }

  /** Why a person is needed, or null: the engine's {@code attention} (a Python panel has none). */
  static Map<String, Object> attention() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("kind", typed("string", "permission, question, trust, first-run, error, ..."));
    p.put("detail", typed("string", "What it asks, e.g. the command it wants to run."));
    p.put("since", typed("number", "Since when, in unix seconds."));
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", List.of("object", "null"));
    schema.put("description", "Why a person is needed, when the session is waiting or erring.");
    schema.put("properties", p);
    return schema;
  }

  /** Which signal decided a session's state, and its evidence. */
  static Map<String, Object> stateSource() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("authority", typed("string", "hook, transcript, pane or process."));
    p.put("evidence", typed("string", "The hook event, record type or pane line that decided."));
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", List.of("object", "null"));
    schema.put("description", "Which signal decided the state, and its evidence.");
    schema.put("properties", p);
    return schema;
  }

  /** A session row of {@code GET /api/state}; the engine's other keys pass through. */
  /** How one engine of several answered {@code list_sessions}. */
  static Map<String, Object> engineReport() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("name", typed("string", "The engine's name, as the engines file gives it."));
    p.put("ok", typed("boolean", "Whether it answered: its sessions are listed."));
    p.put("error", nullableString("Why it did not answer: its sessions are missing."));
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", p);
    schema.put("required", List.of("name", "ok"));
    return schema;
  }

  static Map<String, Object> session() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("id", typed("string", "The session id."));
    p.put("name", typed("string", "The name given to the session."));
    p.put("cli", typed("string", "The CLI's catalogue id: claude, codex, gemini, shell, ..."));
    p.put("cli_label", typed("string", "The CLI's display name."));
    p.put("cwd", typed("string", "The working directory."));
    p.put("project", typed("string", "The last path element of cwd."));
    p.put("folder", nullableString("The folder the session is filed under, if any."));
    p.put("mode", nullableString("The CLI's permission mode, for CLIs that have modes."));
    p.put("created", typed("number", "When the session was made, in unix seconds."));
    p.put("alive", typed("boolean", "Whether a tmux session exists for it."));
    p.put("attached", typed("boolean", "Whether a terminal is attached to it."));
    p.put("command", nullableString("The pane's foreground command, when known."));
    p.put("activity", typed("number", "When the pane last printed something, in unix seconds."));
    p.put("cols", typed("integer", "The pane's width."));
    p.put("rows", typed("integer", "The pane's height."));
    p.put("busy", typed("boolean", "Whether it is producing output now."));
    p.put("signal", typed("string", "\"\", \"waiting\" or \"error\": an attention signal."));
    p.put("saying", typed("string", "For a waiting or erring session, the line it is stuck on."));
    p.put("state", typed("string", "working, waiting, error, idle or stopped."));
    p.put("rss", typed("integer", "Resident memory of the pane's processes, in bytes."));
    p.put("branch", typed("string", "The git branch of cwd, \"\" when none."));
    p.put("dirty", typed("integer", "How many paths are changed in cwd's git work tree."));
    // The engine's own, optional: a CLIque panel sends none of them.
    p.put("attention", attention());
    p.put("state_source", stateSource());
    Map<String, Object> exit = new LinkedHashMap<>();
    exit.put("type", List.of("integer", "null"));
    exit.put("description", "For a stopped session, how its process ended, when known.");
    p.put("exit_status", exit);
    p.put(
        "engine",
        typed(
            "string",
            "Over several engines: the engine the session runs on; its id is then"
                + " <engine>:<id>."));
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", p);
    schema.put("required", List.of("id", "state"));
    return schema;
  }
}
