package dev.clique.engine.transcript;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads a few string (or whole-number, as text) fields from the first JSON object of a file
 * (Codex's {@code session_meta} line, Gemini's metadata line or document) without reading the rest:
 * at most {@link #MAX_HEAD_BYTES}, parsed as a stream so a long or cut line still yields the fields
 * that come first. A head, once complete, never changes, so it is remembered by file.
 */
final class HeadFields {

  static final int FIRST_READ_BYTES = 8 * 1024;
  static final int MAX_HEAD_BYTES = 64 * 1024;
  static final int MAX_REMEMBERED = 4096;

  private record Key(Path file, Object fileKey, List<String> pointers) {}

  private final AtomicLong bytesRead;
  private final Map<Key, Map<String, String>> remembered = RecentlyUsed.map(MAX_REMEMBERED);

  HeadFields(AtomicLong bytesRead) {
    this.bytesRead = bytesRead;
  }

  /**
   * The string values at the given JSON pointers (like {@code /payload/id}) in the file's first
   * object; pointers not found are absent from the map.
   */
  Map<String, String> read(Path file, List<String> pointers) throws IOException {
    BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
    Key key = new Key(file, attributes.fileKey(), pointers);
    synchronized (remembered) {
      Map<String, String> known = remembered.get(key);
      if (known != null) {
        return known;
      }
    }
    Map<String, String> found = new HashMap<>();
    boolean complete;
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      byte[] head = read(channel, FIRST_READ_BYTES);
      complete = parse(head, pointers, found);
      if (!complete && found.size() < pointers.size() && head.length == FIRST_READ_BYTES) {
        found.clear();
        head = read(channel, MAX_HEAD_BYTES);
        complete = parse(head, pointers, found) || head.length == MAX_HEAD_BYTES;
      }
    }
    Map<String, String> result = Map.copyOf(found);
    if (complete || found.size() == pointers.size()) {
      synchronized (remembered) {
        remembered.put(key, result);
      }
    }
    return result;
  }

  private byte[] read(FileChannel channel, int max) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(max);
    long at = 0;
    while (buffer.hasRemaining()) {
      int n = channel.read(buffer, at);
      if (n < 0) {
        break;
      }
      at += n;
    }
    bytesRead.addAndGet(buffer.position());
    byte[] bytes = new byte[buffer.position()];
    buffer.flip().get(bytes);
    return bytes;
  }

  /**
   * Collects the wanted fields of the first object in {@code head}; true when that object ended
   * within {@code head} (so the head is complete and will not change).
   */
  static boolean parse(byte[] head, List<String> pointers, Map<String, String> found) {
    Deque<String> path = new ArrayDeque<>();
    try (JsonParser parser = JsonLine.JSON.createParser(head)) {
      JsonToken first = parser.nextToken();
      if (first == null) {
        return false; // nothing written yet
      }
      if (first != JsonToken.START_OBJECT) {
        return true; // not an object: nothing will ever be found here
      }
      path.addLast("");
      String field = null;
      for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
        switch (token) {
          case FIELD_NAME -> field = parser.currentName();
          case START_OBJECT -> {
            path.addLast(Objects.requireNonNullElse(field, "[]"));
            field = null;
          }
          case START_ARRAY -> {
            path.addLast("[]");
            field = null;
          }
          case END_OBJECT, END_ARRAY -> {
            path.removeLast();
            if (path.isEmpty()) {
              return true;
            }
          }
          case VALUE_STRING, VALUE_NUMBER_INT -> {
            if (field != null) {
              String pointer = pointer(path, field);
              if (pointers.contains(pointer)) {
                found.putIfAbsent(pointer, parser.getText());
                if (found.size() == pointers.size()) {
                  return true;
                }
              }
            }
            field = null;
          }
          default -> field = null;
        }
      }
      return false;
    } catch (IOException | RuntimeException e) {
      // Cut at the read limit, or bad bytes: keep what came before.
      return false;
    }
  }

  private static String pointer(Deque<String> path, String field) {
    StringBuilder pointer = new StringBuilder();
    boolean root = true;
    for (String part : path) {
      if (root) {
        root = false;
        continue;
      }
      pointer.append('/').append(part);
    }
    return pointer.append('/').append(field).toString();
  }
}
