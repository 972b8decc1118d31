package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Claude Code's {@code projects/<slug>/<sessionId>.jsonl}: {@code user} lines the person typed and
 * the {@code text} blocks of {@code assistant} lines, without side chains, meta lines, compaction
 * summaries, tool output or command envelopes. Other blocks ({@code thinking}, {@code tool_use},
 * {@code tool_result}, {@code image}, server tools' results, ...) carry no prose of their own and
 * are passed over; a block of another type that carries a {@code text} is prose this reader would
 * drop, and is an {@link UnknownRecordException} naming the record's {@code version}.
 */
final class ClaudeTranscriptReader implements TranscriptReader {

  private static final Fields FIELDS =
      Fields.of(
          "type",
          "isSidechain",
          "isMeta",
          "isCompactSummary",
          "message.id",
          "message.content.type",
          "message.content.text",
          "version");

  private static final RawJson.StringField USER = new RawJson.StringField("type", "user");
  private static final RawJson.StringField ASSISTANT = new RawJson.StringField("type", "assistant");

  @Override
  public String cli() {
    return "Claude Code";
  }

  @Override
  public Fields fields() {
    return FIELDS;
  }

  /**
   * Only {@code user} and {@code assistant} lines hold turns; the larger part of a real file is
   * other records ({@code attachment}, {@code api-request-shape}, ... tens of KB each), which are
   * passed over by their bytes.
   */
  @Override
  public boolean mayMatter(byte[] bytes, int start, int end) {
    return USER.in(bytes, start, end) || ASSISTANT.in(bytes, start, end);
  }

  @Override
  public List<Entry> entries(JsonNode line) {
    Entry entry = entry(line);
    return entry == null ? List.of() : List.of(entry);
  }

  private static Entry entry(JsonNode line) {
    if (line.path("isSidechain").asBoolean(false)) {
      return null;
    }
    String type = line.path("type").asText();
    JsonNode message = line.path("message");
    JsonNode content = message.path("content");
    if (type.equals("user")) {
      if (line.path("isMeta").asBoolean(false) || line.path("isCompactSummary").asBoolean(false)) {
        return null;
      }
      requireKnownBlocks(line, type, content);
      String text;
      if (content.isTextual()) {
        String tidy = TurnList.tidy(content.textValue());
        text = typedByPerson(tidy) ? tidy : "";
      } else {
        // An array of only tool_result blocks has no text block, so it yields nothing.
        text = TranscriptReader.joinTexts(content, "text", ClaudeTranscriptReader::typedByPerson);
      }
      return text.isEmpty() ? null : Entry.turn(Turn.USER, text, null);
    }
    if (type.equals("assistant")) {
      requireKnownBlocks(line, type, content);
      String text =
          content.isTextual()
              ? TurnList.tidy(content.textValue())
              : TranscriptReader.joinTexts(content, "text", block -> true);
      return text.isEmpty()
          ? null
          : Entry.turn(Turn.ASSISTANT, text, message.path("id").textValue());
    }
    return null;
  }

  /** A content block that carries a {@code text} but is not a {@code text} block: unknown prose. */
  private static void requireKnownBlocks(JsonNode line, String type, JsonNode content) {
    if (!content.isArray()) {
      return;
    }
    for (JsonNode block : content) {
      JsonNode blockType = block.get("type");
      if (block.path("text").isTextual()
          && blockType != null
          && blockType.isTextual()
          && !blockType.textValue().equals("text")) {
        throw new UnknownRecordException(
            "a record of type \"" + type + "\"",
            "a content block of type \"" + blockType.textValue() + "\" with text",
            line.path("version").textValue());
      }
    }
  }

  /** Command and reminder envelopes, local-command caveats and interruption notes are not. */
  static boolean typedByPerson(String text) {
    return !text.isEmpty()
        && !text.startsWith("<")
        && !text.startsWith("Caveat:")
        && !text.startsWith("[Request interrupted");
  }

  @Override
  public TurnList turns(List<Entry> entries) {
    TurnList turns = new TurnList();
    // Claude Code writes one line per content block and may write a block twice.
    Set<List<String>> seen = new HashSet<>();
    for (Entry entry : entries) {
      if (entry.role().equals(Turn.ASSISTANT)
          && entry.id() != null
          && !seen.add(List.of(entry.id(), entry.text()))) {
        continue;
      }
      turns.add(entry.role(), entry.text());
    }
    return turns;
  }
}
