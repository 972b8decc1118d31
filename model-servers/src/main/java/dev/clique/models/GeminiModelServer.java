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

/**
 * The Gemini API ({@code /v1beta/models/{model}:streamGenerateContent?alt=sse}, {@code
 * :generateContent}, {@code :countTokens}) as Gemini CLI 0.61.0 calls it with {@code
 * GOOGLE_GEMINI_BASE_URL}.
 *
 * <p>Only a main turn consumes a script step: a streamed request that declares the CLI's tools. The
 * CLI's side requests are answered without touching the script: its model router asks {@code
 * :generateContent} for a JSON complexity score before every turn, other helpers ask for small JSON
 * objects (a next-speaker check, a title), and token counts may be asked for. A JSON request gets
 * an object that fills its schema's required properties with plain values.
 */
public final class GeminiModelServer extends ScriptedModelServer {
  /** The shell tool Gemini CLI 0.61.0 declares ({@code command}, {@code description}, ...). */
  public static final String SHELL_TOOL = "run_shell_command";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** What a side request's answer (the router's score, a check) reports. */
  private static final Tokens SIDE = new Tokens(100, 10, 0, 0);

  public GeminiModelServer() throws IOException {
    super(new Tokens(100, 10, 0, 0));
  }

  /** Whether a request the server received was a main turn (one that consumed a script step). */
  public static boolean isMainTurn(Received request) {
    return request.method().equals("POST")
        && request.path().contains(":streamGenerateContent")
        && request.body().contains("\"functionDeclarations\"");
  }

  /** How many main turns have been asked for so far. */
  public long mainTurns() {
    return received().stream().filter(GeminiModelServer::isMainTurn).count();
  }

  @Override
  protected void answer(HttpExchange exchange, Received request) throws IOException {
    String path = request.path();
    if (!request.method().equals("POST")) {
      error(exchange, 404, "NOT_FOUND", "no such method: " + path);
    } else if (path.contains(":countTokens")) {
      json(exchange, 200, "{\"totalTokens\": " + Math.max(1, request.body().length() / 4) + "}");
    } else if (isMainTurn(request)) {
      turn(exchange, nextStep(), request);
    } else if (path.contains(":streamGenerateContent")) {
      sse(exchange, List.of(frame(textParts(sideAnswer(request)), true, SIDE)), Duration.ZERO);
    } else if (path.contains(":generateContent")) {
      json(exchange, 200, response(textParts(sideAnswer(request)), true, SIDE).toString());
    } else {
      error(exchange, 404, "NOT_FOUND", "no such method: " + path);
    }
  }

  private void turn(HttpExchange exchange, Step step, Received request) throws IOException {
    if (step instanceof Step.Text text) {
      sse(exchange, List.of(frame(textParts(text.text()), true, tokens())), Duration.ZERO);
    } else if (step instanceof Step.SlowText slow) {
      List<String> pieces = split(slow.text(), Math.max(1, slow.pieces()));
      List<String> frames = new ArrayList<>();
      for (int i = 0; i < pieces.size(); i++) {
        frames.add(frame(textParts(pieces.get(i)), i == pieces.size() - 1, tokens()));
      }
      sse(exchange, frames, slow.duration().dividedBy(Math.max(1, pieces.size())));
    } else if (step instanceof Step.ShellCall call) {
      ObjectNode part = JSON.createObjectNode();
      ObjectNode functionCall = part.putObject("functionCall");
      functionCall.put("name", SHELL_TOOL);
      ObjectNode args = functionCall.putObject("args");
      args.put("command", call.command());
      args.put("description", call.description());
      sse(
          exchange,
          List.of(frame(JSON.createArrayNode().add(part), true, tokens())),
          Duration.ZERO);
    } else if (step instanceof Step.ToolCall call) {
      ObjectNode part = JSON.createObjectNode();
      ObjectNode functionCall = part.putObject("functionCall");
      functionCall.put("name", declaredName(JSON.readTree(request.body()), call.tool()));
      functionCall.set("args", JSON.readTree(call.arguments()));
      sse(
          exchange,
          List.of(frame(JSON.createArrayNode().add(part), true, tokens())),
          Duration.ZERO);
    } else if (step instanceof Step.Failure failure) {
      error(exchange, failure.status(), failure.type(), failure.message());
    } else if (step instanceof Step.UsageLimit limit) {
      usageLimit(exchange, limit);
    }
  }

  /**
   * The Gemini API's 429 for a daily quota used up: {@code RESOURCE_EXHAUSTED} with a {@code
   * QuotaFailure} naming the per-day quota, a help link and a {@code RetryInfo}, as Google sends
   * it.
   */
  private static void usageLimit(HttpExchange exchange, Step.UsageLimit limit) throws IOException {
    long wait = Math.max(0, limit.resetsAt().getEpochSecond() - Instant.now().getEpochSecond());
    ObjectNode body = JSON.createObjectNode();
    ObjectNode error = body.putObject("error");
    error.put("code", 429).put("message", limit.message()).put("status", "RESOURCE_EXHAUSTED");
    ArrayNode details = error.putArray("details");
    ObjectNode violation =
        details
            .addObject()
            .put("@type", "type.googleapis.com/google.rpc.QuotaFailure")
            .putArray("violations")
            .addObject();
    violation
        .put("quotaMetric", "generativelanguage.googleapis.com/generate_content_free_tier_requests")
        .put("quotaId", "GenerateRequestsPerDayPerProjectPerModel-FreeTier")
        .put("quotaValue", "100");
    violation.putObject("quotaDimensions").put("location", "global").put("model", "gemini-pro");
    details
        .addObject()
        .put("@type", "type.googleapis.com/google.rpc.Help")
        .putArray("links")
        .addObject()
        .put("description", "Learn more about Gemini API quotas")
        .put("url", "https://ai.google.dev/gemini-api/docs/rate-limits");
    details
        .addObject()
        .put("@type", "type.googleapis.com/google.rpc.RetryInfo")
        .put("retryDelay", wait + "s");
    json(exchange, 429, body.toString());
  }

  /**
   * The name the request declares a tool by: the tool's own, or one that ends with it after an
   * underscore (how the CLI may prefix an MCP server's tools); the tool's own when none does.
   */
  private static String declaredName(JsonNode body, String tool) {
    String found = tool;
    for (JsonNode group : body.path("tools")) {
      for (JsonNode declaration : group.path("functionDeclarations")) {
        String name = declaration.path("name").asText();
        if (name.equals(tool)) {
          return name;
        }
        if (name.endsWith("_" + tool)) {
          found = name;
        }
      }
    }
    return found;
  }

  /** Google's error body: {@code {"error": {"code", "message", "status"}}}. */
  private static void error(HttpExchange exchange, int status, String type, String message)
      throws IOException {
    ObjectNode body = JSON.createObjectNode();
    ObjectNode error = body.putObject("error");
    error.put("code", status);
    error.put("message", message);
    error.put("status", type);
    json(exchange, status, body.toString());
  }

  private static ArrayNode textParts(String text) {
    ArrayNode parts = JSON.createArrayNode();
    parts.addObject().put("text", text);
    return parts;
  }

  /** One SSE frame of a {@code GenerateContentResponse}. */
  private static String frame(ArrayNode parts, boolean last, Tokens tokens) {
    return "data: " + response(parts, last, tokens) + "\r\n\r\n";
  }

  /** A {@code GenerateContentResponse}; the last one of a turn carries the finish reason. */
  private static ObjectNode response(ArrayNode parts, boolean last, Tokens tokens) {
    ObjectNode response = JSON.createObjectNode();
    ObjectNode candidate = response.putArray("candidates").addObject();
    ObjectNode content = candidate.putObject("content");
    content.set("parts", parts);
    content.put("role", "model");
    candidate.put("index", 0);
    if (last) {
      candidate.put("finishReason", "STOP");
    }
    ObjectNode usage = response.putObject("usageMetadata");
    // Gemini counts the cached part inside the prompt's tokens.
    long prompt = tokens.input() + tokens.cacheRead();
    usage.put("promptTokenCount", prompt);
    if (tokens.cacheRead() > 0) {
      usage.put("cachedContentTokenCount", tokens.cacheRead());
    }
    usage.put("candidatesTokenCount", tokens.output());
    usage.put("totalTokenCount", prompt + tokens.output());
    response.put("modelVersion", "scripted");
    return response;
  }

  /**
   * A side request's answer: for a JSON request, an object with every required property of its
   * schema (the router's {@code complexity_score}, a next-speaker check's {@code next_speaker});
   * otherwise a short text.
   */
  private static String sideAnswer(Received request) {
    JsonNode body;
    try {
      body = JSON.readTree(request.body());
    } catch (IOException e) {
      return "OK";
    }
    JsonNode config = body.path("generationConfig");
    JsonNode schema = config.path("responseJsonSchema");
    if (schema.isMissingNode()) {
      schema = config.path("responseSchema");
    }
    if (!config.path("responseMimeType").asText().equals("application/json")
        && schema.isMissingNode()) {
      return "OK";
    }
    ObjectNode answer = JSON.createObjectNode();
    JsonNode properties = schema.path("properties");
    for (Map.Entry<String, JsonNode> property : properties.properties()) {
      String name = property.getKey();
      String type = property.getValue().path("type").asText("STRING").toUpperCase();
      switch (name) {
        case "next_speaker" -> answer.put(name, "user");
        case "model_choice" -> answer.put(name, "flash");
        default -> {
          switch (type) {
            case "INTEGER", "NUMBER" -> answer.put(name, 10);
            case "BOOLEAN" -> answer.put(name, false);
            case "ARRAY" -> answer.putArray(name);
            case "OBJECT" -> answer.putObject(name);
            default -> answer.put(name, "A simple, direct request.");
          }
        }
      }
    }
    return answer.toString();
  }

  /** {@code text} cut into {@code pieces} parts at word boundaries, spaces kept. */
  private static List<String> split(String text, int pieces) {
    String[] words = text.split("(?<= )");
    List<String> parts = new ArrayList<>();
    int per = Math.max(1, (int) Math.ceil(words.length / (double) pieces));
    for (int i = 0; i < words.length; i += per) {
      parts.add(String.join("", List.of(words).subList(i, Math.min(words.length, i + per))));
    }
    return parts.isEmpty() ? List.of(text) : parts;
  }
}
