package dev.clique.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The conversation Qwen Code recorded in its chat file, read here on its own terms: every line a
 * record; what the person typed ({@code type} {@code user}, {@code provenance} {@code real_user})
 * and the model's text parts ({@code type} {@code assistant}, parts not marked {@code thought}), in
 * the file's order, consecutive texts of one speaker joined by a blank line.
 */
final class QwenOwnRecord {
  private static final ObjectMapper JSON = new ObjectMapper();

  private QwenOwnRecord() {}

  /** The turns of {@code chat}, as {@code [{"role", "text"}, ...]}. */
  static ArrayNode turns(Path chat) throws IOException {
    ArrayNode turns = JSON.createArrayNode();
    for (String line : Files.readAllLines(chat)) {
      JsonNode record = JSON.readTree(line);
      String type = record.path("type").asText();
      String role;
      if (type.equals("user") && record.path("provenance").asText().equals("real_user")) {
        role = "user";
      } else if (type.equals("assistant")) {
        role = "assistant";
      } else {
        continue;
      }
      StringBuilder text = new StringBuilder();
      for (JsonNode part : record.path("message").path("parts")) {
        if (part.path("text").isTextual() && !part.path("thought").asBoolean(false)) {
          String piece = part.path("text").asText().strip();
          if (!piece.isEmpty()) {
            text.append(text.length() == 0 ? "" : "\n\n").append(piece);
          }
        }
      }
      if (text.length() == 0) {
        continue;
      }
      JsonNode last = turns.isEmpty() ? null : turns.get(turns.size() - 1);
      if (last != null && last.path("role").asText().equals(role)) {
        ((com.fasterxml.jackson.databind.node.ObjectNode) last)
            .put("text", last.path("text").asText() + "\n\n" + text);
      } else {
        turns.addObject().put("role", role).put("text", text.toString());
      }
    }
    return turns;
  }
}
