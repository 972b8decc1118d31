package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/** Transcript lines in each CLI's shape, for tests that build files rather than read fixtures. */
final class Lines {

  private static final ObjectMapper JSON = new ObjectMapper();

  private Lines() {}

  static String claudeUser(String text) {
    ObjectNode line = JSON.createObjectNode().put("type", "user").put("isSidechain", false);
    line.putObject("message").put("role", "user").put("content", text);
    return line.toString();
  }

  static String claudeAssistant(String messageId, String text) {
    ObjectNode line = JSON.createObjectNode().put("type", "assistant").put("isSidechain", false);
    ObjectNode message = line.putObject("message").put("id", messageId).put("role", "assistant");
    message.putArray("content").addObject().put("type", "text").put("text", text);
    return line.toString();
  }

  /** An answer's record with its usage: {@code input} fresh tokens and {@code output} generated. */
  static String claudeAnswer(String messageId, long input, long output) {
    ObjectNode line = JSON.createObjectNode().put("type", "assistant").put("isSidechain", false);
    ObjectNode message =
        line.putObject("message")
            .put("id", messageId)
            .put("role", "assistant")
            .put("model", "claude-opus-5-5");
    message.putArray("content").addObject().put("type", "text").put("text", "answer " + messageId);
    message
        .putObject("usage")
        .put("input_tokens", input)
        .put("cache_creation_input_tokens", 0)
        .put("cache_read_input_tokens", 0)
        .put("output_tokens", output);
    return line.toString();
  }

  /** A sub-agent's answer, as its own file records it: a side chain carrying its agent's id. */
  static String claudeSubagentAnswer(String agentId, String messageId, long input, long output) {
    ObjectNode line = (ObjectNode) read(claudeAnswer(messageId, input, output));
    line.put("isSidechain", true).put("agentId", agentId);
    return line.toString();
  }

  private static JsonNode read(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String claudeToolResult(String output) {
    ObjectNode line = JSON.createObjectNode().put("type", "user");
    ArrayNode content = line.putObject("message").put("role", "user").putArray("content");
    content.addObject().put("type", "tool_result").put("tool_use_id", "t").put("content", output);
    return line.toString();
  }

  static String codexMeta(String id, String cwd, String started) {
    ObjectNode line = JSON.createObjectNode().put("timestamp", started).put("type", "session_meta");
    line.putObject("payload")
        .put("id", id)
        .put("timestamp", started)
        .put("cwd", cwd)
        .put("cli_version", "0.50.0");
    return line.toString();
  }

  static String codexMessage(String role, String text) {
    ObjectNode line =
        JSON.createObjectNode()
            .put("timestamp", "2026-08-01T10:00:01.000Z")
            .put("type", "response_item");
    ObjectNode payload = line.putObject("payload").put("type", "message").put("role", role);
    payload
        .putArray("content")
        .addObject()
        .put("type", role.equals("assistant") ? "output_text" : "input_text")
        .put("text", text);
    return line.toString();
  }

  static String geminiMeta(String sessionId, String started) {
    return JSON.createObjectNode()
        .put("sessionId", sessionId)
        .put("projectHash", "0")
        .put("startTime", started)
        .put("kind", "main")
        .toString();
  }

  static String geminiMessage(String id, String type, String text) {
    return JSON.createObjectNode().put("id", id).put("type", type).put("content", text).toString();
  }

  static Path write(Path file, List<String> lines) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    return file;
  }

  static void append(Path file, String text) throws IOException {
    Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
  }
}
