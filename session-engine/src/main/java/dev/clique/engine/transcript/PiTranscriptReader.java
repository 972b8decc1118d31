package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * pi's session file ({@code sessions/--<cwd>--/<time>_<id>.jsonl}, version 3): a header line, then
 * entries that form a tree by {@code id} and {@code parentId}. The conversation is the path from
 * the last entry written (the leaf pi continues from) back to the root, so a branch left with
 * {@code /tree} is not part of it. Of that path, {@code message} entries with role {@code user} (a
 * string or {@code text} parts) and {@code assistant} ({@code text} parts; not thinking, not tool
 * calls) are turns; tool results, system messages, compactions, model changes and extension entries
 * show nothing but keep the path linked. An assistant message that failed has no text and shows
 * nothing.
 */
final class PiTranscriptReader implements TranscriptReader {

  /** The newest session file version this reader knows (the locator checks each file's). */
  static final int NEWEST_VERSION = 3;

  private static final Fields FIELDS =
      Fields.of(
          "type",
          "id",
          "parentId",
          "message.role",
          "message.content",
          "message.content.type",
          "message.content.text");

  @Override
  public String cli() {
    return "pi";
  }

  @Override
  public Fields fields() {
    return FIELDS;
  }

  @Override
  public List<Entry> entries(JsonNode line) {
    String type = line.path("type").asText("");
    if (type.equals("session")) {
      return List.of(); // the header: not part of the tree
    }
    JsonNode id = line.get("id");
    if (id == null || !id.isTextual()) {
      return List.of();
    }
    JsonNode parentNode = line.get("parentId");
    String parent = parentNode != null && parentNode.isTextual() ? parentNode.asText() : null;
    if (!type.equals("message")) {
      return List.of(Entry.node(null, "", id.asText(), parent));
    }
    JsonNode message = line.path("message");
    String role = message.path("role").asText("");
    JsonNode content = message.path("content");
    String text;
    String turnRole;
    if (role.equals("user")) {
      text =
          content.isTextual()
              ? TurnList.tidy(content.asText())
              : TranscriptReader.joinTexts(content, "text", t -> true);
      turnRole = Turn.USER;
    } else if (role.equals("assistant")) {
      text = TranscriptReader.joinTexts(content, "text", t -> true);
      turnRole = Turn.ASSISTANT;
    } else {
      return List.of(Entry.node(null, "", id.asText(), parent));
    }
    return List.of(Entry.node(text.isEmpty() ? null : turnRole, text, id.asText(), parent));
  }

  @Override
  public TurnList turns(List<Entry> entries) {
    Map<String, Entry> byId = new HashMap<>();
    Entry leaf = null;
    for (Entry entry : entries) {
      if (entry.id() != null) {
        byId.put(entry.id(), entry);
        leaf = entry;
      }
    }
    Deque<Entry> path = new ArrayDeque<>();
    Set<String> seen = new HashSet<>();
    // Up from the leaf while the window holds the parent: older entries are beyond the tail read.
    for (Entry at = leaf; at != null && seen.add(at.id()); at = byId.get(at.parent())) {
      path.addFirst(at);
      if (at.parent() == null) {
        break;
      }
    }
    TurnList turns = new TurnList();
    for (Entry entry : path) {
      if (entry.shown()) {
        turns.add(entry.role(), entry.text());
      }
    }
    return turns;
  }
}
