package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * GitHub Copilot CLI's {@code session-state/<id>/events.jsonl} (1.0.102): one event per line,
 * {@code {"type": ..., "data": {...}}}. A {@code user.message}'s {@code content} is what the person
 * typed (its {@code transformedContent} is what the model was sent, with Copilot's envelopes); an
 * {@code assistant.message}'s {@code content} is the model's prose, empty when it only asked for
 * tools. Hook, tool, permission, usage and system events show nothing.
 */
final class CopilotTranscriptReader implements TranscriptReader {

  private static final Fields FIELDS = Fields.of("type", "id", "data.content");

  private static final RawJson.StringField USER_MESSAGE =
      new RawJson.StringField("type", "user.message");
  private static final RawJson.StringField ASSISTANT_MESSAGE =
      new RawJson.StringField("type", "assistant.message");

  /** The newest {@code session.start} {@code version} (of the events format) this reader knows. */
  static final int NEWEST_VERSION = 1;

  @Override
  public String cli() {
    return "GitHub Copilot CLI";
  }

  @Override
  public Fields fields() {
    return FIELDS;
  }

  @Override
  public boolean mayMatter(byte[] bytes, int start, int end) {
    return USER_MESSAGE.in(bytes, start, end) || ASSISTANT_MESSAGE.in(bytes, start, end);
  }

  @Override
  public List<Entry> entries(JsonNode line) {
    String type = line.path("type").asText("");
    String role =
        switch (type) {
          case "user.message" -> Turn.USER;
          case "assistant.message" -> Turn.ASSISTANT;
          default -> null;
        };
    JsonNode content = line.path("data").path("content");
    if (role == null || !content.isTextual()) {
      return List.of();
    }
    String text = TurnList.tidy(content.textValue());
    return text.isEmpty() ? List.of() : List.of(Entry.turn(role, text, line.path("id").asText()));
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
