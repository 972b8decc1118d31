package dev.clique.engine.session;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.home.AtomicFile;
import dev.clique.engine.home.FileStamp;
import dev.clique.engine.home.HomeId;
import dev.clique.engine.home.HomeLock;
import dev.clique.engine.json.EngineJson;
import dev.clique.engine.tmux.HomeMark;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
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
  private final HomeMark home;
  private final ObjectMapper json = EngineJson.mapper();
  private static final long RECHECK_NANOS = 250_000_000L;

  private final Map<String, SessionRecord> records = new LinkedHashMap<>();
  // The records as a list, made again only when they change: the watcher asks for it on every
  // tick, and tells "the same sessions as before" by its identity.
  private List<SessionRecord> listed = List.of();
  private FileStamp loaded = FileStamp.NONE;
  private long checkedAt = System.nanoTime();

  private SessionStore(Path file, HomeMark home) {
    this.file = file;
    this.home = home;
  }

  public static SessionStore open(Path file) {
    SessionStore store = new SessionStore(file, markOf(file));
    store.sweepTemporaryFiles();
    store.load();
    store.loaded = FileStamp.of(file);
    store.relist();
    return store;
  }

  /**
   * The mark of this home's sessions: its id, made once beside this file ({@link HomeId}), and its
   * folder. With no id (one that could not be read or written) sessions go unmarked.
   */
  private static HomeMark markOf(Path file) {
    Path dir = file.toAbsolutePath().getParent();
    try {
      return new HomeMark(HomeId.readOrMake(dir.resolve(HomeId.FILE)), dir.toString());
    } catch (IOException e) {
      log.warn(
          "the home's id could not be read or made in {}: its sessions go unmarked, and a session"
              + " it left unrecorded is not told from another home's: {}",
          dir,
          e.getMessage());
      return new HomeMark("", dir.toString());
    }
  }

  /** Which home these sessions belong to: the mark each carries in tmux. */
  HomeMark home() {
    return home;
  }

  /** Where hooks a CLI reads from files are written: next to this file, in clique's home. */
  Path hookFiles() {
    return file.resolveSibling("hooks");
  }

  public synchronized List<SessionRecord> all() {
    reloadIfChanged();
    return listed;
  }

  public synchronized Optional<SessionRecord> find(String id) {
    reloadIfChanged();
    return Optional.ofNullable(records.get(id));
  }

  /**
   * Another engine on the same home (a {@code clique serve} beside {@code clique mcp --embedded})
   * writes the file too: its sessions are picked up, at most a quarter second late.
   */
  private void reloadIfChanged() {
    reloadIfChanged(false);
  }

  private void reloadIfChanged(boolean force) {
    long now = System.nanoTime();
    if (!force && now - checkedAt < RECHECK_NANOS) {
      return;
    }
    checkedAt = now;
    FileStamp stamp = FileStamp.of(file);
    if (stamp.equals(loaded)) {
      return;
    }
    Map<String, SessionRecord> before = new LinkedHashMap<>(records);
    records.clear();
    if (!load()) {
      records.putAll(before); // unreadable now: keep what was known rather than forget it
    }
    loaded = stamp;
    relist();
  }

  /**
   * Another engine on the same home may have written since this one last looked: each change is
   * made to the freshest file, under the home's lock, or one engine's sessions would drop the
   * other's.
   */
  public synchronized void put(SessionRecord record) throws IOException {
    HomeLock.around(
        file,
        () -> {
          reloadIfChanged(true);
          Map<String, SessionRecord> next = new LinkedHashMap<>(records);
          next.put(record.id(), record);
          save(next);
          return null;
        });
  }

  /**
   * Replaces the record of {@code id} with what {@code change} makes of it, if it is still there
   * (another engine may have deleted it meanwhile): freshest file, home's lock, as {@link #put}.
   */
  public synchronized void update(String id, UnaryOperator<SessionRecord> change)
      throws IOException {
    HomeLock.around(
        file,
        () -> {
          reloadIfChanged(true);
          SessionRecord now = records.get(id);
          if (now != null) {
            Map<String, SessionRecord> next = new LinkedHashMap<>(records);
            next.put(id, change.apply(now));
            save(next);
          }
          return null;
        });
  }

  public synchronized boolean remove(String id) throws IOException {
    return HomeLock.around(
        file,
        () -> {
          reloadIfChanged(true);
          if (!records.containsKey(id)) {
            return false;
          }
          Map<String, SessionRecord> next = new LinkedHashMap<>(records);
          next.remove(id);
          save(next);
          return true;
        });
  }

  private void save(Map<String, SessionRecord> next) throws IOException {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("sessions", new ArrayList<>(next.values()));
    AtomicFile.write(file, json.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
    loaded = FileStamp.of(file);
    records.clear();
    records.putAll(next);
    relist();
  }

  private void relist() {
    List<SessionRecord> now = List.copyOf(records.values());
    if (!now.equals(listed)) {
      listed = now; // a file read again with the same records keeps the list's identity
    }
  }

  private void sweepTemporaryFiles() {
    try {
      AtomicFile.sweepLeftovers(file);
    } catch (IOException e) {
      log.debug("could not sweep temporary files next to {}: {}", file, e.getMessage());
    }
  }

  /** Reads the records; false when neither the file nor its backup could be read. */
  private boolean load() {
    Optional<byte[]> data = AtomicFile.readWithFallback(file, this::parses);
    if (data.isEmpty()) {
      if (file.toFile().exists()) {
        log.warn("{} and its backup are unreadable: starting with no sessions", file);
      }
      return !file.toFile().exists();
    }
    try {
      JsonNode sessions = json.readTree(data.get()).path("sessions");
      for (SessionRecord record : json.convertValue(sessions, ROWS)) {
        if (record != null && record.id() != null && !record.id().isBlank()) {
          records.put(record.id(), record);
        }
      }
      return true;
    } catch (IOException | IllegalArgumentException e) {
      log.warn("{} could not be read: {}", file, e.getMessage());
      return false;
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
