package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Qwen Code's {@code chats/<id>.jsonl} (0.24.4): one record a line, each with a {@code type}. The
 * {@code user} records the person typed ({@code provenance} {@code real_user}) and the text parts
 * of {@code assistant} records ({@code message.parts[].text}, Gemini's content shape) are the
 * conversation; a part marked {@code thought} is the model's reasoning, a {@code functionCall} or
 * {@code functionResponse} part a tool's, and {@code tool_result} and {@code system} records
 * (telemetry, snapshots) are not shown. A prompt whose turn failed stays in the file, unanswered,
 * as Qwen Code keeps it. A {@code user} record of a {@code provenance} this reader does not know
 * (0.24.4 writes {@code real_user}, {@code system} and {@code goal_runtime} ones) may or may not be
 * what the person typed: with text, it is an {@link UnknownRecordException} naming the record's
 * {@code version}.
 */
final class QwenTranscriptReader implements TranscriptReader {

  private static final Fields FIELDS =
      Fields.of(
          "type", "provenance", "message.parts.text", "message.parts.thought", "uuid", "version");

  private static final RawJson.StringField USER = new RawJson.StringField("type", "user");
  private static final RawJson.StringField ASSISTANT = new RawJson.StringField("type", "assistant");

  /** The provenance of what the person typed; records written before it was kept have none. */
  static final String TYPED = "real_user";

  /** The provenances of {@code user} records that are not what the person typed. */
  private static final List<String> NOT_TYPED = List.of("system", "goal_runtime", "goal_control");

  @Override
  public String cli() {
    return "Qwen Code";
  }

  @Override
  public Fields fields() {
    return FIELDS;
  }

  /** Only {@code user} and {@code assistant} records hold turns; tool output is passed over. */
  @Override
  public boolean mayMatter(byte[] bytes, int start, int end) {
    return USER.in(bytes, start, end) || ASSISTANT.in(bytes, start, end);
  }

  @Override
  public List<Entry> entries(JsonNode line) {
    String type = line.path("type").asText();
    JsonNode parts = line.path("message").path("parts");
    if (type.equals("user")) {
      JsonNode provenance = line.get("provenance");
      String text = TranscriptReader.joinTexts(parts, null, part -> true);
      if (provenance != null && !TYPED.equals(provenance.asText())) {
        if (!NOT_TYPED.contains(provenance.asText()) && !text.isEmpty()) {
          throw new UnknownRecordException(
              "a record of type \"user\"",
              "text of provenance \"" + provenance.asText() + "\"",
              line.path("version").textValue());
        }
        return List.of();
      }
      return text.isEmpty() ? List.of() : List.of(Entry.turn(Turn.USER, text, null));
    }
    if (type.equals("assistant")) {
      String text = spoken(parts);
      return text.isEmpty()
          ? List.of()
          : List.of(Entry.turn(Turn.ASSISTANT, text, line.path("uuid").textValue()));
    }
    return List.of();
  }

  /** The text parts that are not the model's reasoning, joined. */
  private static String spoken(JsonNode parts) {
    StringBuilder joined = new StringBuilder();
    for (JsonNode part : parts) {
      JsonNode text = part.get("text");
      if (text == null || !text.isTextual() || part.path("thought").asBoolean(false)) {
        continue;
      }
      String tidy = TurnList.tidy(text.textValue());
      if (tidy.isEmpty()) {
        continue;
      }
      if (joined.length() > 0) {
        joined.append(TurnList.SEPARATOR);
      }
      joined.append(tidy);
    }
    return joined.toString();
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
