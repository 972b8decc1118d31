package dev.clique.models;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * OpenAI's Responses API as Codex speaks it ({@code POST /v1/responses}, {@code stream: true},
 * server-sent events), answering from the script.
 *
 * <p>Only a turn of the person's own thread takes a step of the script: Codex 0.169.0 also asks the
 * same endpoint for a thread title on every prompt (header {@code x-codex-turn-metadata} with
 * {@code "thread_source":"thread_title"}, no tools), which gets a short title here. The request
 * that carries a tool's output back is a turn of the person's thread and takes the next step.
 *
 * <p>{@link Step.ShellCall} becomes a call of the shell tool the request declares ({@code
 * exec_command} with {@code cmd}, or the older {@code shell} with an argv), asking to run outside
 * the sandbox ({@code sandbox_permissions: "require_escalated"}, the description as its {@code
 * justification}): with {@code approval_policy = "on-request"} Codex asks the person first.
 */
public final class OpenAiModelServer extends ScriptedModelServer {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What a side request's answer (a thread title) reports: not the person's thread's. */
  private static final Tokens SIDE = new Tokens(10, 5, 0, 0);

  private final AtomicInteger ids = new AtomicInteger();

  public OpenAiModelServer() throws IOException {
    super(new Tokens(10, 5, 0, 0));
  }

  /** {@code http://127.0.0.1:PORT/v1}: a {@code base_url} for Codex's {@code model_providers}. */
  public String baseUrl() {
    return url() + "/v1";
  }

  /**
   * The {@code config.toml} of a Codex that reaches nothing but this server on loopback: no update
   * check, analytics, feedback, plugins or daemon. {@code features}: more lines of its {@code
   * [features]} table (TOML takes a table once); callers append tables of their own after it.
   */
  public String codexConfig(String features) {
    return """
        model = "gpt-test"
        model_provider = "scripted"
        check_for_update_on_startup = false
        chatgpt_base_url = "%s/backend-api/"

        [model_providers.scripted]
        name = "Scripted"
        base_url = "%s"
        wire_api = "responses"
        env_key = "SCRIPTED_OPENAI_KEY"
        request_max_retries = 0
        stream_max_retries = 0

        [analytics]
        enabled = false

        [feedback]
        enabled = false

        [features]
        plugins = false
        daemon_auto_start = false
        %s
        [tui]
        show_tooltips = false
        """
        .formatted(url(), baseUrl(), features.isEmpty() ? "" : features.strip() + "\n");
  }

  /** Whether {@code request} is a turn of the person's thread (not a title or other side call). */
  public static boolean mainTurn(Received request) {
    if (!"POST".equals(request.method()) || !request.path().startsWith("/v1/responses")) {
      return false;
    }
    String metadata = header(request, "x-codex-turn-metadata");
    if (metadata != null) {
      try {
        String source = JSON.readTree(metadata).path("thread_source").asText("");
        return source.isEmpty() || source.equals("user");
      } catch (IOException e) {
        // not JSON: judge by the body below
      }
    }
    try {
      return JSON.readTree(request.body()).path("tools").size() > 0;
    } catch (IOException e) {
      return false;
    }
  }

  /** The person's turns the server has answered so far, oldest first. */
  public List<Received> mainTurns() {
    return received().stream().filter(OpenAiModelServer::mainTurn).toList();
  }

  /** The text of the last {@code input_text} of a {@code user} message in a turn's body. */
  public static String lastUserText(Received request) {
    try {
      String last = "";
      for (JsonNode item : JSON.readTree(request.body()).path("input")) {
        if ("message".equals(item.path("type").asText())
            && "user".equals(item.path("role").asText())) {
          for (JsonNode part : item.path("content")) {
            if ("input_text".equals(part.path("type").asText())) {
              last = part.path("text").asText();
            }
          }
        }
      }
      return last;
    } catch (IOException e) {
      return "";
    }
  }

  @Override
  protected void answer(HttpExchange exchange, Received request) throws IOException {
    String path = request.path();
    if ("GET".equals(request.method()) && path.startsWith("/v1/models")) {
      json(
          exchange,
          200,
          "{\"object\":\"list\",\"data\":[{\"id\":\"gpt-test\",\"object\":\"model\",\"created\":0,"
              + "\"owned_by\":\"scripted\"}]}");
      return;
    }
    if (!"POST".equals(request.method()) || !path.startsWith("/v1/responses")) {
      json(exchange, 404, "{\"error\":{\"type\":\"not_found\",\"message\":\"no such route\"}}");
      return;
    }
    JsonNode body;
    try {
      body = JSON.readTree(request.body());
    } catch (IOException e) {
      json(exchange, 400, "{\"error\":{\"type\":\"invalid_request_error\",\"message\":\"json\"}}");
      return;
    }
    boolean main = mainTurn(request);
    Step step = main ? nextStep() : new Step.Text("Scripted title");
    String model = body.path("model").asText("gpt-test");
    Tokens tokens = main ? tokens() : SIDE;
    if (step instanceof Step.Failure f) {
      ObjectNode error = JSON.createObjectNode();
      error.putObject("error").put("type", f.type()).put("message", f.message()).putNull("code");
      json(exchange, f.status(), JSON.writeValueAsString(error));
    } else if (step instanceof Step.UsageLimit limit) {
      usageLimit(exchange, limit);
    } else if (step instanceof Step.SlowText s) {
      List<String> events = message(model, tokens, s.text(), Math.max(1, s.pieces()));
      // the gap falls between every event: the whole answer is spread over the duration
      sse(exchange, events, s.duration().dividedBy(events.size()));
    } else if (step instanceof Step.ShellCall c) {
      sse(exchange, shellCall(model, tokens, body, c), Duration.ZERO);
    } else if (step instanceof Step.Text t) {
      sse(exchange, message(model, tokens, t.text(), 1), Duration.ZERO);
    } else if (step instanceof Step.ToolCall c) {
      sse(exchange, toolCall(model, tokens, body, c), Duration.ZERO);
    }
  }

  /**
   * ChatGPT's usage limit as Codex reads it: a 429 whose body's error is {@code
   * usage_limit_reached} with the plan and when it lifts ({@code resets_at} in unix seconds, {@code
   * resets_in_seconds}), and the {@code x-codex-*} headers of the account's rate-limit windows (the
   * five-hour one used up).
   */
  private static void usageLimit(HttpExchange exchange, Step.UsageLimit limit) throws IOException {
    long resetsAt = limit.resetsAt().getEpochSecond();
    long in = Math.max(0, resetsAt - Instant.now().getEpochSecond());
    ObjectNode body = JSON.createObjectNode();
    body.putObject("error")
        .put("type", "usage_limit_reached")
        .put("message", limit.message())
        .put("plan_type", "plus")
        .put("resets_at", resetsAt)
        .put("resets_in_seconds", in);
    json(
        exchange,
        429,
        JSON.writeValueAsString(body),
        Map.of(
            "x-codex-primary-used-percent", "100",
            "x-codex-primary-window-minutes", "300",
            "x-codex-primary-reset-at", Long.toString(resetsAt),
            "x-codex-secondary-used-percent", "40",
            "x-codex-secondary-window-minutes", "10080"));
  }

  /**
   * A call of the tool the request declares by that name: a function of its own, or one inside a
   * namespace (Codex 0.169.0 offers an MCP server's tools as the namespace {@code mcp__<server>}),
   * named as the call must name it.
   */
  private List<String> toolCall(String model, Tokens tokens, JsonNode request, Step.ToolCall call) {
    String namespace = null;
    for (JsonNode tool : request.path("tools")) {
      if (tool.path("type").asText().equals("namespace")) {
        for (JsonNode inner : tool.path("tools")) {
          if (inner.path("name").asText().equals(call.tool())) {
            namespace = tool.path("name").asText();
          }
        }
      }
    }
    ObjectNode item = JSON.createObjectNode();
    item.put("id", "fc_" + ids.incrementAndGet())
        .put("type", "function_call")
        .put("status", "completed")
        .put("call_id", "call_" + ids.incrementAndGet())
        .put("name", call.tool());
    if (namespace != null) {
      item.put("namespace", namespace);
    }
    item.put("arguments", call.arguments());
    return functionCall(model, tokens, item);
  }

  private List<String> functionCall(String model, Tokens tokens, ObjectNode item) {
    String responseId = "resp_" + ids.incrementAndGet();
    ObjectNode inProgress = item.deepCopy().put("status", "in_progress").put("arguments", "");
    List<String> events = new ArrayList<>();
    events.add(event("response.created", created(responseId, model)));
    ObjectNode added = JSON.createObjectNode().put("output_index", 0);
    added.set("item", inProgress);
    events.add(event("response.output_item.added", added));
    ObjectNode done = JSON.createObjectNode().put("output_index", 0);
    done.set("item", item);
    events.add(event("response.output_item.done", done));
    events.add(event("response.completed", completed(responseId, model, tokens, item)));
    return events;
  }

  private List<String> message(String model, Tokens tokens, String text, int pieces) {
    String responseId = "resp_" + ids.incrementAndGet();
    String itemId = "msg_" + ids.incrementAndGet();
    List<String> events = new ArrayList<>();
    events.add(event("response.created", created(responseId, model)));
    ObjectNode added = JSON.createObjectNode().put("output_index", 0);
    added
        .putObject("item")
        .put("id", itemId)
        .put("type", "message")
        .put("role", "assistant")
        .put("status", "in_progress")
        .putArray("content");
    events.add(event("response.output_item.added", added));
    ObjectNode part = JSON.createObjectNode().put("item_id", itemId).put("output_index", 0);
    part.put("content_index", 0)
        .putObject("part")
        .put("type", "output_text")
        .put("text", "")
        .putArray("annotations");
    events.add(event("response.content_part.added", part));
    int length = text.length();
    for (int i = 0; i < pieces; i++) {
      String delta = text.substring(i * length / pieces, (i + 1) * length / pieces);
      events.add(
          event(
              "response.output_text.delta",
              JSON.createObjectNode()
                  .put("item_id", itemId)
                  .put("output_index", 0)
                  .put("content_index", 0)
                  .put("delta", delta)));
    }
    events.add(
        event(
            "response.output_text.done",
            JSON.createObjectNode()
                .put("item_id", itemId)
                .put("output_index", 0)
                .put("content_index", 0)
                .put("text", text)));
    ObjectNode item = JSON.createObjectNode();
    item.put("id", itemId)
        .put("type", "message")
        .put("role", "assistant")
        .put("status", "completed")
        .putArray("content")
        .addObject()
        .put("type", "output_text")
        .put("text", text)
        .putArray("annotations");
    ObjectNode done = JSON.createObjectNode().put("output_index", 0);
    done.set("item", item);
    events.add(event("response.output_item.done", done));
    events.add(event("response.completed", completed(responseId, model, tokens, item)));
    return events;
  }

  private List<String> shellCall(
      String model, Tokens tokens, JsonNode request, Step.ShellCall call) {
    ObjectNode arguments = JSON.createObjectNode();
    String tool = "exec_command";
    List<String> declared = new ArrayList<>();
    request.path("tools").forEach(t -> declared.add(t.path("name").asText()));
    if (!declared.contains("exec_command") && declared.contains("shell")) {
      tool = "shell";
      arguments.putArray("command").add("bash").add("-lc").add(call.command());
    } else {
      arguments.put("cmd", call.command());
    }
    arguments.put("sandbox_permissions", "require_escalated");
    arguments.put("justification", call.description());
    ObjectNode item = JSON.createObjectNode();
    item.put("id", "fc_" + ids.incrementAndGet())
        .put("type", "function_call")
        .put("status", "completed")
        .put("call_id", "call_" + ids.incrementAndGet())
        .put("name", tool)
        .put("arguments", arguments.toString());
    return functionCall(model, tokens, item);
  }

  private static ObjectNode created(String responseId, String model) {
    ObjectNode data = JSON.createObjectNode();
    data.putObject("response")
        .put("id", responseId)
        .put("object", "response")
        .put("created_at", System.currentTimeMillis() / 1000)
        .put("status", "in_progress")
        .put("model", model)
        .putArray("output");
    return data;
  }

  private static ObjectNode completed(
      String responseId, String model, Tokens tokens, ObjectNode item) {
    ObjectNode data = JSON.createObjectNode();
    ObjectNode response =
        data.putObject("response")
            .put("id", responseId)
            .put("object", "response")
            .put("created_at", System.currentTimeMillis() / 1000)
            .put("status", "completed")
            .put("model", model);
    ArrayNode output = response.putArray("output");
    output.add(item);
    // OpenAI counts the cached part inside input_tokens.
    long input = tokens.input() + tokens.cacheRead();
    ObjectNode usage = response.putObject("usage").put("input_tokens", input);
    usage.putObject("input_tokens_details").put("cached_tokens", tokens.cacheRead());
    usage.put("output_tokens", tokens.output());
    usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
    usage.put("total_tokens", input + tokens.output());
    return data;
  }

  /** One SSE frame: {@code event: NAME} and its data with {@code type} set to the same name. */
  private static String event(String name, ObjectNode data) {
    ObjectNode typed = JSON.createObjectNode().put("type", name);
    typed.setAll(data);
    return "event: " + name + "\ndata: " + typed + "\n\n";
  }

  private static String header(Received request, String name) {
    for (var entry : request.headers().entrySet()) {
      if (entry.getKey().equalsIgnoreCase(name) && !entry.getValue().isEmpty()) {
        return entry.getValue().get(0);
      }
    }
    return null;
  }
}
