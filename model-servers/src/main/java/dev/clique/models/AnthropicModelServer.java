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
 * Anthropic's Messages API ({@code POST /v1/messages}, streamed as server-sent events or answered
 * whole) on loopback, for the real Claude Code started with {@code ANTHROPIC_BASE_URL} pointing
 * here.
 *
 * <p>Only turns of the main conversation consume the script: requests that offer Claude Code's own
 * {@code Bash} tool. Everything else Claude Code may ask is answered without touching it: a session
 * title or other side request (no tools, a small model), {@code /v1/messages/count_tokens}, the
 * {@code GET} connectivity check.
 *
 * <p>A {@link Step.Failure} or {@link Step.UsageLimit} fails the whole turn: Claude Code retries
 * some errors (529 three times, 429, 500 and 401 up to ten times, with backoff), always with the
 * same messages, and every such retry gets the same failure. The next turn (new messages) takes the
 * next step. A 403 {@code permission_error} is not retried: it is the quickest way to an error
 * screen.
 */
public final class AnthropicModelServer extends ScriptedModelServer {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Claude Code's shell tool: offered in every request of the main conversation. */
  public static final String SHELL_TOOL = "Bash";

  /** pi's shell tool, for a server that scripts pi through its {@code anthropic-messages} API. */
  public static final String PI_SHELL_TOOL = "bash";

  /** What a side request's answer (a title, a check) reports: not the main conversation's. */
  private static final Tokens SIDE = new Tokens(100, 20, 0, 0);

  private final AtomicInteger ids = new AtomicInteger();
  private final String shellTool;
  private Step failing;
  private String failingMessages;

  public AnthropicModelServer() throws IOException {
    this(SHELL_TOOL);
  }

  /**
   * A server for a CLI whose shell tool has another name (opencode's is {@code bash}): a request
   * that offers it is a turn of the main conversation, and a {@link Step.ShellCall} calls it.
   */
  public AnthropicModelServer(String shellTool) throws IOException {
    super(new Tokens(100, 20, 0, 0));
    this.shellTool = shellTool;
  }

  /** Whether {@code request} is a turn of the main conversation (it offers the shell tool). */
  public boolean isTurn(Received request) {
    if (!request.method().equals("POST") || !pathOf(request).equals("/v1/messages")) {
      return false;
    }
    try {
      return offersShellTool(JSON.readTree(request.body()));
    } catch (IOException e) {
      return false;
    }
  }

  /** The requests that were turns of the main conversation, in the order received. */
  public List<Received> turns() {
    return received().stream().filter(this::isTurn).toList();
  }

  @Override
  protected void answer(HttpExchange exchange, Received request) throws IOException {
    String path = pathOf(request);
    if (!request.method().equals("POST")) {
      // Claude Code's connectivity check (GET /api/hello) when non-essential traffic is allowed.
      json(exchange, 200, "{}");
      return;
    }
    if (path.equals("/v1/messages/count_tokens")) {
      json(exchange, 200, "{\"input_tokens\": 1000}");
      return;
    }
    if (!path.equals("/v1/messages")) {
      json(exchange, 404, error("not_found_error", "no such endpoint: " + path));
      return;
    }
    JsonNode body;
    try {
      body = JSON.readTree(request.body());
    } catch (IOException e) {
      json(exchange, 400, error("invalid_request_error", "the body is not JSON"));
      return;
    }
    boolean stream = body.path("stream").asBoolean(false);
    String model = body.path("model").asText("claude");
    if (!offersShellTool(body)) {
      reply(
          exchange,
          stream,
          model,
          SIDE,
          List.of(text("Scripted side answer")),
          "end_turn",
          1,
          Duration.ZERO);
      return;
    }
    Step step = stepFor(body.path("messages").toString());
    if (step instanceof Step.Text t) {
      reply(
          exchange, stream, model, tokens(), List.of(text(t.text())), "end_turn", 1, Duration.ZERO);
    } else if (step instanceof Step.SlowText t) {
      reply(
          exchange,
          stream,
          model,
          tokens(),
          List.of(text(t.text())),
          "end_turn",
          t.pieces(),
          t.duration());
    } else if (step instanceof Step.ShellCall call) {
      ObjectNode input = JSON.createObjectNode();
      input.put("command", call.command());
      input.put("description", call.description());
      reply(
          exchange,
          stream,
          model,
          tokens(),
          List.of(toolUse(shellTool, input)),
          "tool_use",
          1,
          Duration.ZERO);
    } else if (step instanceof Step.ToolCall call) {
      ObjectNode input = (ObjectNode) JSON.readTree(call.arguments());
      reply(
          exchange,
          stream,
          model,
          tokens(),
          List.of(toolUse(call.tool(), input)),
          "tool_use",
          1,
          Duration.ZERO);
    } else if (step instanceof Step.Failure failure) {
      json(exchange, failure.status(), error(failure.type(), failure.message()));
    } else if (step instanceof Step.UsageLimit limit) {
      usageLimit(exchange, limit);
    }
  }

  /**
   * Anthropic's 429: a {@code rate_limit_error} body, {@code retry-after} in seconds and the
   * request limit's {@code anthropic-ratelimit-requests-*} headers, as the API sends them to an API
   * key over its limit.
   */
  private void usageLimit(HttpExchange exchange, Step.UsageLimit limit) throws IOException {
    long wait = Math.max(0, limit.resetsAt().getEpochSecond() - Instant.now().getEpochSecond());
    ObjectNode body = JSON.createObjectNode().put("type", "error");
    body.putObject("error").put("type", "rate_limit_error").put("message", limit.message());
    body.put("request_id", "req_clique" + ids.incrementAndGet());
    json(
        exchange,
        429,
        JSON.writeValueAsString(body),
        Map.of(
            "retry-after",
            Long.toString(wait),
            "anthropic-ratelimit-requests-limit",
            "50",
            "anthropic-ratelimit-requests-remaining",
            "0",
            "anthropic-ratelimit-requests-reset",
            limit.resetsAt().toString()));
  }

  /**
   * The step for a turn: a retry of the turn that failed fails again; a new turn takes the next.
   */
  private synchronized Step stepFor(String messages) {
    if (failing != null && messages.equals(failingMessages)) {
      return failing;
    }
    Step step = nextStep();
    if (step instanceof Step.Failure || step instanceof Step.UsageLimit) {
      failing = step;
      failingMessages = messages;
    } else {
      failing = null;
      failingMessages = null;
    }
    return step;
  }

  /**
   * Answers with {@code content}; streamed, a text block is split into {@code pieces} deltas and
   * the whole stream spread over {@code duration}.
   */
  private void reply(
      HttpExchange exchange,
      boolean stream,
      String model,
      Tokens tokens,
      List<ObjectNode> content,
      String stopReason,
      int pieces,
      Duration duration)
      throws IOException {
    String id = "msg_clique" + ids.incrementAndGet();
    if (!stream) {
      ObjectNode message = message(id, model, tokens);
      ArrayNode blocks = message.putArray("content");
      content.forEach(blocks::add);
      message.put("stop_reason", stopReason);
      json(exchange, 200, JSON.writeValueAsString(message));
      return;
    }
    List<String> events = new ArrayList<>();
    ObjectNode start = JSON.createObjectNode().put("type", "message_start");
    start.set("message", message(id, model, tokens));
    events.add(event(start));
    for (int index = 0; index < content.size(); index++) {
      ObjectNode block = content.get(index);
      boolean isText = block.path("type").asText().equals("text");
      ObjectNode opened = JSON.createObjectNode().put("type", "content_block_start");
      opened.put("index", index);
      ObjectNode empty = block.deepCopy();
      if (isText) {
        empty.put("text", "");
      } else {
        empty.putObject("input");
      }
      opened.set("content_block", empty);
      events.add(event(opened));
      if (isText) {
        for (String piece : split(block.path("text").asText(), Math.max(1, pieces))) {
          ObjectNode delta = JSON.createObjectNode().put("type", "text_delta").put("text", piece);
          events.add(event(delta(index, delta)));
        }
      } else {
        ObjectNode delta =
            JSON.createObjectNode()
                .put("type", "input_json_delta")
                .put("partial_json", JSON.writeValueAsString(block.path("input")));
        events.add(event(delta(index, delta)));
      }
      events.add(
          event(JSON.createObjectNode().put("type", "content_block_stop").put("index", index)));
    }
    ObjectNode done = JSON.createObjectNode().put("type", "message_delta");
    done.putObject("delta").put("stop_reason", stopReason).putNull("stop_sequence");
    done.set("usage", usage(tokens));
    events.add(event(done));
    events.add(event(JSON.createObjectNode().put("type", "message_stop")));
    sse(exchange, events, duration.dividedBy(events.size()));
  }

  private static ObjectNode message(String id, String model, Tokens tokens) {
    ObjectNode message = JSON.createObjectNode();
    message.put("id", id).put("type", "message").put("role", "assistant").put("model", model);
    message.putArray("content");
    message.putNull("stop_reason").putNull("stop_sequence");
    message.set("usage", usage(tokens));
    return message;
  }

  /**
   * A response's {@code usage}, the same in {@code message_start} and {@code message_delta}: the
   * whole answer's counts (a client keeps either), cache counts apart from the input.
   */
  private static ObjectNode usage(Tokens tokens) {
    return JSON.createObjectNode()
        .put("input_tokens", tokens.input())
        .put("cache_creation_input_tokens", tokens.cacheWrite())
        .put("cache_read_input_tokens", tokens.cacheRead())
        .put("output_tokens", tokens.output());
  }

  private static ObjectNode text(String text) {
    return JSON.createObjectNode().put("type", "text").put("text", text);
  }

  private ObjectNode toolUse(String name, ObjectNode input) {
    ObjectNode block = JSON.createObjectNode().put("type", "tool_use");
    block.put("id", String.format("toolu_clique%012d", ids.incrementAndGet()));
    block.put("name", name);
    block.set("input", input);
    return block;
  }

  private static ObjectNode delta(int index, ObjectNode delta) {
    ObjectNode event = JSON.createObjectNode().put("type", "content_block_delta");
    event.put("index", index);
    event.set("delta", delta);
    return event;
  }

  /** One SSE frame, named by its {@code type} as Anthropic's stream names them. */
  private static String event(ObjectNode data) throws IOException {
    return "event: "
        + data.path("type").asText()
        + "\ndata: "
        + JSON.writeValueAsString(data)
        + "\n\n";
  }

  private static List<String> split(String text, int pieces) {
    List<String> parts = new ArrayList<>();
    int size = Math.max(1, (text.length() + pieces - 1) / pieces);
    for (int i = 0; i < text.length(); i += size) {
      parts.add(text.substring(i, Math.min(text.length(), i + size)));
    }
    if (parts.isEmpty()) {
      parts.add("");
    }
    return parts;
  }

  private static String error(String type, String message) throws IOException {
    ObjectNode error = JSON.createObjectNode().put("type", "error");
    error.putObject("error").put("type", type).put("message", message);
    return JSON.writeValueAsString(error);
  }

  private boolean offersShellTool(JsonNode body) {
    for (JsonNode tool : body.path("tools")) {
      if (shellTool.equals(tool.path("name").asText())) {
        return true;
      }
    }
    return false;
  }

  private static String pathOf(Received request) {
    String path = request.path();
    int query = path.indexOf('?');
    return query < 0 ? path : path.substring(0, query);
  }
}
