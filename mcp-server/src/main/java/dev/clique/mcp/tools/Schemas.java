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
    return typed(
        "string",
        "The session's id or name, as list_sessions shows them (an id wins over a name; a name"
            + " two sessions share is refused, naming their ids).");
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
    p.put(
        "kind", typed("string", "permission, question, trust, first-run, usage_limit, error, ..."));
    p.put(
        "detail",
        typed(
            "string",
            "What it asks, e.g. the command it wants to run; on a usage_limit the CLI's words."));
    p.put("since", typed("number", "Since when, in unix seconds."));
    p.put(
        "resets_at",
        typed(
            "string",
            "When a usage_limit lifts (ISO-8601), only where the CLI said it; absent otherwise."));
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", List.of("object", "null"));
    schema.put("description", "Why a person is needed, when the session is waiting or erring.");
    schema.put("properties", p);
    return schema;
  }

  /**
   * Which session a name given as {@code id} named: optional in the answers of the four tools that
   * take one, present only when it was not the id itself.
   */
  static Map<String, Object> resolved() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("given", typed("string", "What was given as id."));
    p.put("by", typed("string", "name, or id prefix (the start of the session's id)."));
    p.put("id", typed("string", "The id of the session it named, which this answer is for."));
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put(
        "description",
        "Present when id was not a session's id but its name (or the start of its id): the"
            + " session this answer is for.");
    schema.put("properties", p);
    schema.put("required", List.of("given", "by", "id"));
    return schema;
  }

  /** Which signal decided a session's state, and its evidence. */
  static Map<String, Object> stateSource() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put(
        "authority",
        typed(
            "string",
            "hook, transcript, pane or process; registry for a Claude Code outside tmux (its"
                + " sessions/<pid>.json)."));
    p.put("evidence", typed("string", "The hook event, record type or pane line that decided."));
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", List.of("object", "null"));
    schema.put("description", "Which signal decided the state, and its evidence.");
    schema.put("properties", p);
    return schema;
  }

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

  /**
   * What a session used, as its CLI recorded it; optional (a shell, a CLI that has not answered, a
   * Python panel have none), and each count only when the CLI records it.
   */
  static Map<String, Object> usage() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("input_tokens", typed("integer", "Input tokens that were not cached, summed."));
    p.put("output_tokens", typed("integer", "Generated tokens, reasoning included, summed."));
    p.put("context_tokens", typed("integer", "The whole input of the last request."));
    p.put("context_window", typed("integer", "The model's context window, when recorded."));
    p.put("model", typed("string", "The model of the last answer."));
    p.put("cache_read_tokens", typed("integer", "Input tokens read from the prompt cache."));
    p.put("cache_write_tokens", typed("integer", "Input tokens written to the prompt cache."));
    p.put("reasoning_tokens", typed("integer", "The part of output_tokens spent thinking."));
    p.put(
        "turns",
        typed(
            "integer",
            "How many answers of the session's own conversation the sums cover (its sub-agents' are"
                + " in the sums, not here)."));
    p.put(
        "source",
        typed(
            "string",
            "The file read: claude transcript, codex rollout, ...; and the records left out of"
                + " the sums, if any (\"; left out: 1 record cut short\")."));
    p.put("partial", typed("boolean", "True when only the end of a huge file was summed."));
    p.put(
        "cost_usd_estimate",
        typed(
            "number",
            "What these tokens would cost at the model's list prices, in US dollars; absent when"
                + " the model or a count is unknown. Subscriptions are not billed this way."));
    return usageSchema(
        p, "Tokens the session used, summed over its conversation, as its CLI recorded them.");
  }

  /** {@link #usage()} as {@code list_sessions} shows it: two figures. */
  static Map<String, Object> briefUsage() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put(
        "tokens",
        typed(
            "integer", "Tokens the model took in or wrote (input, cache writes, output), summed."));
    p.put(
        "context_percent",
        typed("integer", "How full the context window was at the last request."));
    p.put(
        "context_tokens",
        typed("integer", "The whole input of the last request, when the window is unknown."));
    return usageSchema(
        p, "Tokens the session used and how full its context is (get_session has the rest).");
  }

  private static Map<String, Object> usageSchema(Map<String, Object> p, String description) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("description", description);
    schema.put("properties", p);
    return schema;
  }

  /** The usage limits the session's CLI was last told of (Codex's rate-limit windows). */
  static Map<String, Object> limits() {
    Map<String, Object> w = new LinkedHashMap<>();
    w.put("name", typed("string", "The CLI's name for the window: primary, secondary."));
    w.put("used_percent", typed("number", "How much of it is used, 0 to 100."));
    w.put("window_minutes", typed("integer", "How long the window is."));
    w.put("resets_at", typed("number", "When it starts afresh, in unix seconds."));
    Map<String, Object> window = new LinkedHashMap<>();
    window.put("type", "object");
    window.put("properties", w);
    window.put("required", List.of("name", "used_percent"));
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("windows", arrayOf(window));
    p.put("as_of", typed("number", "When the CLI recorded them, in unix seconds."));
    p.put("source", typed("string", "The file read, e.g. codex rollout."));
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("description", "The usage limits the CLI was last told of, for its account.");
    schema.put("properties", p);
    return schema;
  }

  /** A session row of {@code GET /api/state}, as {@code get_session} shows it. */
  static Map<String, Object> session() {
    Map<String, Object> schema = session(usage());
    properties(schema).put("limits", limits());
    properties(schema).put("resolved", resolved());
    return schema;
  }

  /** A session row as {@code list_sessions} shows it: its usage in brief, no limits. */
  static Map<String, Object> listedSession() {
    return session(briefUsage());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> properties(Map<String, Object> schema) {
    return (Map<String, Object>) schema.get("properties");
  }

  private static Map<String, Object> session(Map<String, Object> usage) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("id", typed("string", "The session id."));
    p.put("name", typed("string", "The name given to the session."));
    p.put("cli", typed("string", "The CLI's catalogue id: claude, codex, gemini, shell, ..."));
    p.put("cli_label", typed("string", "The CLI's display name."));
    p.put(
        "cli_version",
        nullableString("The version of the program in the pane (2.1.328), null while unknown."));
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
    p.put("usage", usage);
    Map<String, Object> source = new LinkedHashMap<>();
    source.put("type", List.of("object", "null"));
    source.put(
        "description",
        "Where a session clique did not start runs: another tmux server's pane (socket, session,"
            + " window, pane), or a terminal outside tmux (tty, pid, terminal: the program that"
            + " draws it, when known), which is read-only and has no screen; null for clique's own.");
    p.put("source", source);
    p.put(
        "adopted",
        Map.of(
            "type",
            List.of("boolean", "null"),
            "description",
            "For a session clique did not start, whether it was adopted (made operable)."));
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", p);
    schema.put("required", List.of("id", "state"));
    return schema;
  }
}
