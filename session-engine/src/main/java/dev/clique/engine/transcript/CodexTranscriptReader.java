package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Codex's {@code sessions/YYYY/MM/DD/rollout-*.jsonl}: {@code response_item} messages, the user's
 * {@code input_text} and the assistant's {@code output_text}. {@code event_msg} lines repeat the
 * same messages and are not read; developer messages and the environment and instruction envelopes
 * Codex sends as user text are dropped. A content item of a type other than {@code input_text} and
 * {@code output_text} that carries a {@code text} is prose this reader would drop: an {@link
 * UnknownRecordException}, named with the {@code cli_version} of the file's {@code session_meta}.
 */
final class CodexTranscriptReader implements TranscriptReader {

  private static final List<String> ENVELOPES =
      List.of(
          "<environment_context>",
          "<user_instructions>",
          "<user_shell_command>",
          "# AGENTS.md instructions for");

  private static final Fields FIELDS =
      Fields.of(
          "type", "payload.type", "payload.role", "payload.content.type", "payload.content.text");

  private static final List<String> TEXT_ITEMS = List.of("input_text", "output_text");

  @Override
  public String cli() {
    return "Codex";
  }

  @Override
  public List<String> versionInHead() {
    return List.of("/payload/cli_version");
  }

  @Override
  public Fields fields() {
    return FIELDS;
  }

  @Override
  public List<Entry> entries(JsonNode line) {
    Entry entry = entry(line);
    return entry == null ? List.of() : List.of(entry);
  }

  private static Entry entry(JsonNode line) {
    if (!"response_item".equals(line.path("type").textValue())) {
      return null;
    }
    JsonNode payload = line.path("payload");
    if (!"message".equals(payload.path("type").textValue())) {
      return null;
    }
    String role = payload.path("role").asText();
    JsonNode content = payload.path("content");
    if (role.equals("user") || role.equals("assistant")) {
      for (JsonNode item : content) {
        JsonNode type = item.get("type");
        if (item.path("text").isTextual()
            && type != null
            && type.isTextual()
            && !TEXT_ITEMS.contains(type.textValue())) {
          throw new UnknownRecordException(
              "a message of role \"" + role + "\"",
              "a content item of type \"" + type.textValue() + "\" with text",
              null);
        }
      }
    }
    String text;
    if (role.equals("user")) {
      text =
          TranscriptReader.joinTexts(content, "input_text", CodexTranscriptReader::typedByPerson);
      role = Turn.USER;
    } else if (role.equals("assistant")) {
      text = TranscriptReader.joinTexts(content, "output_text", t -> true);
      role = Turn.ASSISTANT;
    } else {
      return null;
    }
    return text.isEmpty() ? null : Entry.turn(role, text, null);
  }

  static boolean typedByPerson(String text) {
    for (String envelope : ENVELOPES) {
      if (text.startsWith(envelope)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public TurnList turns(List<Entry> entries) {
    TurnList turns = new TurnList();
    for (Entry entry : entries) {
      turns.add(entry.role(), entry.text());
    }
    return turns;
  }
}
