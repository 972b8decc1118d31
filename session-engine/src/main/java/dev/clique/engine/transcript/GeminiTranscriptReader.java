package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gemini CLI's {@code tmp/<project>/chats/session-*.jsonl}, a log of upserts: a message {@code id}
 * written again replaces the earlier copy in its original place, {@code {"$rewindTo": id}} drops
 * that message and all after it, {@code {"$set": ...}} only touches metadata. Messages of type
 * {@code user} and {@code gemini} are shown; {@code info}, {@code error} and {@code warning} are
 * not. The older single-document {@code .json} files hold the same messages in {@code messages}.
 */
final class GeminiTranscriptReader implements TranscriptReader {

  private static final Fields FIELDS = Fields.of("$rewindTo", "id", "type", "content.text");

  private static final Fields DOCUMENT_FIELDS =
      Fields.of("messages.id", "messages.type", "messages.content.text");

  @Override
  public Fields fields() {
    return FIELDS;
  }

  @Override
  public Fields documentFields() {
    return DOCUMENT_FIELDS;
  }

  @Override
  public Entry entry(JsonNode line) {
    JsonNode rewind = line.get("$rewindTo");
    if (rewind != null && rewind.isTextual()) {
      return Entry.rewindTo(rewind.textValue());
    }
    JsonNode id = line.get("id");
    if (id == null || !id.isTextual()) {
      return null; // metadata and $set lines
    }
    String role =
        switch (line.path("type").asText()) {
          case "user" -> Turn.USER;
          case "gemini" -> Turn.ASSISTANT;
          default -> null;
        };
    if (role == null) {
      return Entry.silent(id.textValue());
    }
    return Entry.turn(role, text(line.path("content")), id.textValue());
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
  public List<Turn> turns(List<Entry> entries) {
    // LinkedHashMap keeps a key's first position when it is put again: the last copy wins in
    // place.
    Map<String, Entry> messages = new LinkedHashMap<>();
    for (Entry entry : entries) {
      if (!entry.rewind()) {
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
    return turns.lastTurns();
  }

  @Override
  public List<Entry> documentEntries(JsonNode document) {
    List<Entry> entries = new ArrayList<>();
    for (JsonNode message : document.path("messages")) {
      if (message.isObject()) {
        Entry entry = entry(message);
        if (entry != null) {
          entries.add(entry);
        }
      }
    }
    return entries;
  }
}
