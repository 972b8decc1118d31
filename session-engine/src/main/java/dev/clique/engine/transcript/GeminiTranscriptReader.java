package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gemini CLI's {@code tmp/<project>/chats/session-*.jsonl}, a log of upserts read as Gemini CLI
 * 0.61.0's own loader reads it: a message {@code id} written again replaces the earlier copy in its
 * original place; {@code {"$rewindTo": id}} drops that message and all after it (all of them when
 * the id is unknown); {@code {"$set": {"messages": [...]}}} replaces the whole list, while any
 * other {@code $set} only touches metadata; the first line's metadata may carry messages of its
 * own. Messages of type {@code user} and {@code gemini} are shown, except the {@code
 * <session_context>} and {@code <hook_context>} envelopes it sends as user text; {@code info},
 * {@code error} and {@code warning} are not; a message of another type that carries text may be a
 * turn, and is an {@link UnknownRecordException} (Gemini CLI's files do not say which version wrote
 * them). The older single-document {@code .json} files hold the same messages in {@code messages}.
 */
final class GeminiTranscriptReader implements TranscriptReader {

  private static final Fields FIELDS =
      Fields.of(
          "$rewindTo",
          "id",
          "type",
          "content.text",
          "$set.messages.id",
          "$set.messages.type",
          "$set.messages.content.text",
          "sessionId",
          "projectHash",
          "messages.id",
          "messages.type",
          "messages.content.text");

  private static final Fields DOCUMENT_FIELDS =
      Fields.of("messages.id", "messages.type", "messages.content.text");

  /** User text Gemini CLI writes itself, and hides from its own view of the conversation. */
  private static final List<String> ENVELOPES = List.of("<session_context>", "<hook_context>");

  /** The message types Gemini CLI writes that are not turns. */
  private static final List<String> NOT_TURNS = List.of("info", "error", "warning");

  @Override
  public String cli() {
    return "Gemini CLI";
  }

  @Override
  public Fields fields() {
    return FIELDS;
  }

  @Override
  public Fields documentFields() {
    return DOCUMENT_FIELDS;
  }

  /** In the loader's order: a rewind, a message, a {@code $set}, the first line's metadata. */
  @Override
  public List<Entry> entries(JsonNode line) {
    JsonNode rewind = line.get("$rewindTo");
    if (rewind != null && rewind.isTextual()) {
      return List.of(Entry.rewindTo(rewind.textValue()));
    }
    Entry message = message(line);
    if (message != null) {
      return List.of(message);
    }
    JsonNode set = line.get("$set");
    if (set != null && set.isObject()) {
      JsonNode messages = set.get("messages");
      if (messages == null || !messages.isArray()) {
        return List.of();
      }
      List<Entry> entries = new ArrayList<>(messages.size() + 1);
      entries.add(Entry.reset());
      addMessages(messages, entries);
      return entries;
    }
    if (line.path("sessionId").isTextual() && line.path("projectHash").isTextual()) {
      List<Entry> entries = new ArrayList<>();
      addMessages(line.path("messages"), entries);
      return entries;
    }
    return List.of();
  }

  private static void addMessages(JsonNode messages, List<Entry> entries) {
    if (!messages.isArray()) {
      return;
    }
    for (JsonNode item : messages) {
      Entry entry = message(item);
      if (entry != null) {
        entries.add(entry);
      }
    }
  }

  /** The entry of a message record (one with a string {@code id}), else {@code null}. */
  private static Entry message(JsonNode record) {
    JsonNode id = record.get("id");
    if (id == null || !id.isTextual()) {
      return null;
    }
    String role =
        switch (record.path("type").asText()) {
          case "user" -> Turn.USER;
          case "gemini" -> Turn.ASSISTANT;
          default -> null;
        };
    if (role == null) {
      String type = record.path("type").asText();
      if (!NOT_TURNS.contains(type) && !text(record.path("content")).isEmpty()) {
        throw new UnknownRecordException(
            type.isEmpty() ? "a message without a type" : "a message of type \"" + type + "\"",
            "text",
            null);
      }
      return Entry.silent(id.textValue());
    }
    String text = text(record.path("content"));
    if (role.equals(Turn.USER) && ENVELOPES.stream().anyMatch(text::startsWith)) {
      return Entry.silent(id.textValue());
    }
    return Entry.turn(role, text, id.textValue());
  }

  private static String text(JsonNode content) {
    if (content.isTextual()) {
      return TurnList.tidy(content.textValue());
    }
    StringBuilder text = new StringBuilder();
    for (JsonNode part : content) {
      JsonNode partText = part.get("text");
      if (partText != null && partText.isTextual()) {
        text.append(partText.textValue());
      }
    }
    return TurnList.tidy(text.toString());
  }

  @Override
  public TurnList turns(List<Entry> entries) {
    // LinkedHashMap keeps a key's first position when it is put again: the last copy wins in
    // place, as in the JavaScript Map Gemini CLI loads into.
    Map<String, Entry> messages = new LinkedHashMap<>();
    for (Entry entry : entries) {
      if (entry.resets()) {
        messages.clear();
      } else if (!entry.rewind()) {
        messages.put(entry.id(), entry);
      } else if (messages.containsKey(entry.id())) {
        boolean dropping = false;
        for (Iterator<String> ids = messages.keySet().iterator(); ids.hasNext(); ) {
          dropping |= ids.next().equals(entry.id());
          if (dropping) {
            ids.remove();
          }
        }
      } else {
        // Gemini CLI clears everything on an unknown target; in a tail window the target is
        // older than every message we hold, so that is right here too.
        messages.clear();
      }
    }
    TurnList turns = new TurnList();
    for (Entry entry : messages.values()) {
      if (entry.shown()) {
        turns.add(entry.role(), entry.text());
      }
    }
    return turns;
  }

  @Override
  public List<Entry> documentEntries(JsonNode document) {
    List<Entry> entries = new ArrayList<>();
    addMessages(document.path("messages"), entries);
    return entries;
  }
}
