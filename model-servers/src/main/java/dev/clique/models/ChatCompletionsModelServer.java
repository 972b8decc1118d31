package dev.clique.models;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
 * OpenAI's Chat Completions API ({@code POST /v1/chat/completions}), which most OpenAI-compatible
 * clients speak (Qwen Code, opencode's openai-compatible provider, pi, ...), answering from the
 * script. {@code GET /v1/models} lists the one model {@value #MODEL}.
 *
 * <p>A streamed request ({@code "stream": true}) is answered with {@code chat.completion.chunk}
 * events: the role, the text in deltas (or one tool call, its arguments in one delta), a last chunk
 * with the {@code finish_reason}, then one with no choices and the {@code usage} (as {@code
 * stream_options.include_usage} asks; sent either way, which clients ignore when they did not ask),
 * and {@code data: [DONE]}. A request without {@code stream} gets one {@code chat.completion}.
 *
 * <p>Only a turn of the conversation takes a step of the script: a request that declares tools
 * (clients also ask the same endpoint for titles, summaries or "who speaks next", without tools),
 * and such side requests get {@link #sideAnswer()}. {@link Step.ShellCall} becomes a call of the
 * shell tool the request declares ({@code run_shell_command}, {@code bash}, {@code shell}, ...)
 * with {@code command} and {@code description}; {@link Step.Failure} answers with its status and an
 * OpenAI error body (a client may retry a 429 or a 500 and take the next step for it: script a
 * failure once per attempt the client makes).
 */
public final class ChatCompletionsModelServer extends ScriptedModelServer {
  /** The one model this server lists and answers as, unless a request names another. */
  public static final String MODEL = "gpt-test";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The shell tools clients declare, most specific first. */
  private static final List<String> SHELL_TOOLS =
      List.of("run_shell_command", "bash", "Bash", "shell", "exec_command");

  private final AtomicInteger ids = new AtomicInteger();

  public ChatCompletionsModelServer() throws IOException {
    super(new Tokens(10, 5, 0, 0));
  }

  /** {@code http://127.0.0.1:PORT/v1}: the base URL an OpenAI client is given. */
  public String baseUrl() {
    return url() + "/v1";
  }

  /** Whether {@code request} is a turn of the conversation: a completion that declares tools. */
  public static boolean mainTurn(Received request) {
    if (!"POST".equals(request.method()) || !request.path().startsWith("/v1/chat/completions")) {
      return false;
    }
    try {
      return JSON.readTree(request.body()).path("tools").size() > 0;
    } catch (IOException e) {
      return false;
    }
  }

  /** The turns of the conversation the server has answered so far, oldest first. */
  public List<Received> mainTurns() {
    return received().stream().filter(ChatCompletionsModelServer::mainTurn).toList();
  }

  /** The text of the last {@code user} message of a request (a string, or its text parts). */
  public static String lastUserText(Received request) {
    try {
      String last = "";
      for (JsonNode message : JSON.readTree(request.body()).path("messages")) {
        if (!"user".equals(message.path("role").asText())) {
          continue;
        }
        JsonNode content = message.path("content");
        if (content.isTextual()) {
          last = content.asText();
        } else {
          StringBuilder text = new StringBuilder();
          for (JsonNode part : content) {
            if ("text".equals(part.path("type").asText())) {
              text.append(part.path("text").asText());
            }
          }
          if (text.length() > 0) {
            last = text.toString();
          }
        }
      }
      return last;
    } catch (IOException e) {
      return "";
    }
  }

  /** What a side request (no tools: a title, a summary, a check) is answered with. */
  public static String sideAnswer() {
    return "Scripted";
  }

  @Override
  protected void answer(HttpExchange exchange, Received request) throws IOException {
    String path = request.path();
    if ("GET".equals(request.method()) && path.startsWith("/v1/models")) {
      json(
          exchange,
          200,
          "{\"object\":\"list\",\"data\":[{\"id\":\""
              + MODEL
              + "\",\"object\":\"model\",\"created\":0,\"owned_by\":\"scripted\"}]}");
      return;
    }
    if (!"POST".equals(request.method()) || !path.startsWith("/v1/chat/completions")) {
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
    Step step = mainTurn(request) ? nextStep() : new Step.Text(sideAnswer());
    String model = body.path("model").asText(MODEL);
    boolean stream = body.path("stream").asBoolean(false);
    if (step instanceof Step.Failure f) {
      ObjectNode error = JSON.createObjectNode();
      error
          .putObject("error")
          .put("message", f.message())
          .put("type", f.type())
          .putNull("param")
          .putNull("code");
      json(exchange, f.status(), JSON.writeValueAsString(error));
      return;
    }
    if (step instanceof Step.UsageLimit limit) {
      // OpenAI's 429 for a request rate limit, with its retry-after and x-ratelimit-* headers.
      long wait = Math.max(0, limit.resetsAt().getEpochSecond() - Instant.now().getEpochSecond());
      ObjectNode error = JSON.createObjectNode();
      error
          .putObject("error")
          .put("message", limit.message())
          .put("type", "requests")
          .putNull("param")
          .put("code", "rate_limit_exceeded");
      json(
          exchange,
          429,
          JSON.writeValueAsString(error),
          Map.of(
              "retry-after",
              Long.toString(wait),
              "x-ratelimit-remaining-requests",
              "0",
              "x-ratelimit-reset-requests",
              wait + "s"));
      return;
    }
    Answer answer = answer(body, step);
    if (!stream) {
      json(exchange, 200, JSON.writeValueAsString(completion(model, answer)));
    } else if (step instanceof Step.SlowText s) {
      List<String> events = chunks(model, answer, Math.max(1, s.pieces()));
      // the gap falls between every event: the whole answer is spread over the duration
      sse(exchange, events, s.duration().dividedBy(events.size()));
    } else {
      sse(exchange, chunks(model, answer, 1), Duration.ZERO);
    }
  }

  /** The step as what the assistant says: text, or one call of a tool with JSON arguments. */
  private record Answer(String text, String tool, String arguments) {}

  private Answer answer(JsonNode request, Step step) {
    if (step instanceof Step.Text t) {
      return new Answer(t.text(), null, null);
    }
    if (step instanceof Step.SlowText s) {
      return new Answer(s.text(), null, null);
    }
    if (step instanceof Step.ToolCall c) {
      return new Answer(null, c.tool(), c.arguments());
    }
    Step.ShellCall call = (Step.ShellCall) step;
    List<String> declared = new ArrayList<>();
    request.path("tools").forEach(t -> declared.add(t.path("function").path("name").asText()));
    String tool = SHELL_TOOLS.stream().filter(declared::contains).findFirst().orElse("bash");
    ObjectNode arguments = JSON.createObjectNode();
    arguments.put(tool.equals("exec_command") ? "cmd" : "command", call.command());
    arguments.put("description", call.description());
    return new Answer(null, tool, arguments.toString());
  }

  private List<String> chunks(String model, Answer answer, int pieces) {
    String id = "chatcmpl-" + ids.incrementAndGet();
    List<String> events = new ArrayList<>();
    ObjectNode first = JSON.createObjectNode().put("role", "assistant");
    if (answer.tool() == null) {
      first.put("content", "");
      events.add(chunk(id, model, first, null));
      String text = answer.text();
      for (int i = 0; i < pieces; i++) {
        String delta = text.substring(i * text.length() / pieces, (i + 1) * text.length() / pieces);
        events.add(chunk(id, model, JSON.createObjectNode().put("content", delta), null));
      }
      events.add(chunk(id, model, JSON.createObjectNode(), "stop"));
    } else {
      String callId = "call_" + ids.incrementAndGet();
      first.putNull("content");
      ObjectNode call = first.putArray("tool_calls").addObject();
      call.put("index", 0).put("id", callId).put("type", "function");
      call.putObject("function").put("name", answer.tool()).put("arguments", "");
      events.add(chunk(id, model, first, null));
      ObjectNode arguments = JSON.createObjectNode();
      arguments
          .putArray("tool_calls")
          .addObject()
          .put("index", 0)
          .putObject("function")
          .put("arguments", answer.arguments());
      events.add(chunk(id, model, arguments, null));
      events.add(chunk(id, model, JSON.createObjectNode(), "tool_calls"));
    }
    ObjectNode usage = base(id, model, "chat.completion.chunk");
    usage.putArray("choices");
    usage.set("usage", usage());
    events.add("data: " + usage + "\n\n");
    events.add("data: [DONE]\n\n");
    return events;
  }

  /** One SSE frame of a {@code chat.completion.chunk} with one choice. */
  private static String chunk(String id, String model, ObjectNode delta, String finishReason) {
    ObjectNode chunk = base(id, model, "chat.completion.chunk");
    ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0);
    choice.set("delta", delta);
    if (finishReason == null) {
      choice.putNull("finish_reason");
    } else {
      choice.put("finish_reason", finishReason);
    }
    return "data: " + chunk + "\n\n";
  }

  private ObjectNode completion(String model, Answer answer) {
    ObjectNode completion = base("chatcmpl-" + ids.incrementAndGet(), model, "chat.completion");
    ObjectNode choice = completion.putArray("choices").addObject().put("index", 0);
    ObjectNode message = choice.putObject("message").put("role", "assistant");
    if (answer.tool() == null) {
      message.put("content", answer.text());
      choice.put("finish_reason", "stop");
    } else {
      message.putNull("content");
      ObjectNode call = message.putArray("tool_calls").addObject();
      call.put("id", "call_" + ids.incrementAndGet()).put("type", "function");
      call.putObject("function").put("name", answer.tool()).put("arguments", answer.arguments());
      choice.put("finish_reason", "tool_calls");
    }
    completion.set("usage", usage());
    return completion;
  }

  private static ObjectNode base(String id, String model, String object) {
    return JSON.createObjectNode()
        .put("id", id)
        .put("object", object)
        .put("created", System.currentTimeMillis() / 1000)
        .put("model", model);
  }

  /**
   * The counts {@link #tokens()} says, as OpenAI writes them: the cached part inside the prompt.
   */
  private ObjectNode usage() {
    Tokens tokens = tokens();
    long prompt = tokens.input() + tokens.cacheRead();
    ObjectNode usage =
        JSON.createObjectNode()
            .put("prompt_tokens", prompt)
            .put("completion_tokens", tokens.output())
            .put("total_tokens", prompt + tokens.output());
    usage.putObject("prompt_tokens_details").put("cached_tokens", tokens.cacheRead());
    return usage;
  }
}
