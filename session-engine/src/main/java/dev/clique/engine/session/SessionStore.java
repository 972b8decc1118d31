package dev.clique.engine.session;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.home.AtomicFile;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The session records in {@code state.json}. Every change is written atomically before it is
 * acknowledged. A corrupt main file falls back to {@code .bak}; a corrupt or missing file never
 * stops start-up.
 */
public final class SessionStore {
  private static final Logger log = LoggerFactory.getLogger(SessionStore.class);
  private static final TypeReference<List<SessionRecord>> ROWS = new TypeReference<>() {};

  private final Path file;
  private final ObjectMapper json = new ObjectMapper();
  private final Map<String, SessionRecord> records = new LinkedHashMap<>();

  private SessionStore(Path file) {
    this.file = file;
  }

  public static SessionStore open(Path file) {
    SessionStore store = new SessionStore(file);
    store.sweepTemporaryFiles();
    store.load();
    return store;
  }

  public synchronized List<SessionRecord> all() {
    return List.copyOf(records.values());
  }

  public synchronized Optional<SessionRecord> find(String id) {
    return Optional.ofNullable(records.get(id));
  }

  public synchronized void put(SessionRecord record) throws IOException {
    Map<String, SessionRecord> next = new LinkedHashMap<>(records);
    next.put(record.id(), record);
    save(next);
  }

  public synchronized boolean remove(String id) throws IOException {
    if (!records.containsKey(id)) {
      return false;
    }
    Map<String, SessionRecord> next = new LinkedHashMap<>(records);
    next.remove(id);
    save(next);
    return true;
  }

  private void save(Map<String, SessionRecord> next) throws IOException {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("sessions", new ArrayList<>(next.values()));
    AtomicFile.write(file, json.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
    records.clear();
    records.putAll(next);
  }

  /**
   * A writer killed mid-write (kill -9, power loss) leaves its temporary file behind. A live
   * writer's lasts milliseconds, and another engine on the same home (`clique mcp --embedded`
   * beside `clique serve`) may be writing one now: only files a minute old are leftovers.
   */
  private void sweepTemporaryFiles() {
    Path dir = file.toAbsolutePath().getParent();
    String prefix = "." + file.getFileName() + ".";
    try (DirectoryStream<Path> leftovers =
        Files.newDirectoryStream(
            dir,
            p ->
                p.getFileName().toString().startsWith(prefix)
                    && p.getFileName().toString().endsWith(".tmp"))) {
      long minuteAgo = System.currentTimeMillis() - 60_000;
      for (Path leftover : leftovers) {
        if (Files.getLastModifiedTime(leftover).toMillis() < minuteAgo) {
          Files.deleteIfExists(leftover);
        }
      }
    } catch (IOException e) {
      log.debug("could not sweep temporary files next to {}: {}", file, e.getMessage());
    }
  }

  private void load() {
    Optional<byte[]> data = AtomicFile.readWithFallback(file, this::parses);
    if (data.isEmpty()) {
      if (file.toFile().exists()) {
        log.warn("{} and its backup are unreadable: starting with no sessions", file);
      }
      return;
    }
    try {
      JsonNode sessions = json.readTree(data.get()).path("sessions");
      for (SessionRecord record : json.convertValue(sessions, ROWS)) {
        if (record != null && record.id() != null && !record.id().isBlank()) {
          records.put(record.id(), record);
        }
      }
    } catch (IOException | IllegalArgumentException e) {
      log.warn("{} could not be read: {}", file, e.getMessage());
    }
  }

  private boolean parses(byte[] data) {
    try {
      JsonNode sessions = json.readTree(data).path("sessions");
      if (!sessions.isArray()) {
        return false;
      }
      json.convertValue(sessions, ROWS);
      return true;
    } catch (IOException | IllegalArgumentException e) {
      return false;
    }
  }
}
