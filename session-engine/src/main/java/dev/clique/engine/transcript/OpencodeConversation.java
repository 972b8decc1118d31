package dev.clique.engine.transcript;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.home.FileStamp;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * opencode's conversations (1.18.33), from its SQLite database ({@code
 * $XDG_DATA_HOME/opencode/opencode.db}, or {@code OPENCODE_DB}): the rows of its {@code session},
 * {@code message} and {@code part} tables, whose {@code data} column is the JSON opencode's own
 * export prints. Read with {@link SqliteSnapshot}, so no driver and no opencode process is needed,
 * and no other table (its accounts and credentials) is ever decoded. A database that changed while
 * it was read is read again; one whose tables lack what this reader needs, or whose messages have a
 * role it does not know, is an {@link UnreadableTranscriptException} naming the file and the
 * version of opencode that wrote it. The database is read a page at a time, however large; {@link
 * Kept} keeps what was read until opencode writes to it again.
 */
final class OpencodeConversation {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A session opencode starts a little before clique records its own (clocks, process start). */
  static final long EARLIER_MILLIS = 5_000;

  private static final int ATTEMPTS = 3;

  private static final List<String> SESSION_COLUMNS =
      List.of("id", "parent_id", "directory", "version", "time_created", "time_updated");
  private static final List<String> MESSAGE_COLUMNS =
      List.of("id", "session_id", "time_created", "data");
  private static final List<String> PART_COLUMNS =
      List.of("id", "message_id", "session_id", "data");

  /** One top-level session of opencode's, as its {@code session} row says. */
  record Session(String id, String directory, String version, long created, long updated) {}

  private OpencodeConversation() {}

  /**
   * The turns of the session {@code request} names: its CLI session id when clique knows it, else
   * the top-level session opencode last updated in the request's folder, started no earlier than
   * clique's session. Empty when there is no database or no such session yet.
   */
  static List<Turn> turns(Path db, TranscriptRequest request) {
    return consistently(db, () -> read(db, request), List.of());
  }

  /**
   * What the session {@code request} names used, summed over its assistant messages in order
   * ({@link OpencodeUsage}). {@link UsageReport#NONE} when there is no database, no such session or
   * no answer yet.
   *
   * @throws UnreadableTranscriptException as {@link #turns} does
   */
  static UsageReport usage(Path db, TranscriptRequest request) {
    return consistently(db, () -> readUsage(db, request), UsageReport.NONE);
  }

  /** A read of the database that saw one state of it: made again when it changed meanwhile. */
  private interface Read<T> {
    T read() throws IOException;
  }

  private static <T> T consistently(Path db, Read<T> read, T none) {
    for (int attempt = 1; ; attempt++) {
      Stamp before = new Stamp(db);
      try {
        T value = read.read();
        if (before.equals(new Stamp(db))) {
          return value;
        }
      } catch (NoSuchFileException e) {
        return none;
      } catch (SqliteSnapshot.Unreadable e) {
        if (before.equals(new Stamp(db)) || attempt >= ATTEMPTS) {
          throw new UnreadableTranscriptException(
              "opencode's conversation in " + db + " cannot be read: " + e.getMessage());
        }
      } catch (IOException e) {
        throw new UnreadableTranscriptException(
            "opencode's conversation in " + db + " cannot be read: " + e.getMessage());
      }
      if (attempt >= ATTEMPTS) {
        throw new UnreadableTranscriptException(
            "opencode's conversation in " + db + " changed each time it was read");
      }
    }
  }

  private static UsageReport readUsage(Path db, TranscriptRequest request) throws IOException {
    try (SqliteSnapshot snapshot = SqliteSnapshot.open(db)) {
      return readUsage(snapshot, db, request);
    }
  }

  private static UsageReport readUsage(SqliteSnapshot snapshot, Path db, TranscriptRequest request)
      throws IOException {
    SqliteSnapshot.Table sessions = table(snapshot, db, "session", SESSION_COLUMNS, "?");
    Optional<Session> session = session(snapshot, sessions, request);
    if (session.isEmpty()) {
      return UsageReport.NONE;
    }
    SqliteSnapshot.Table messages =
        table(snapshot, db, "message", MESSAGE_COLUMNS, session.get().version());
    String id = session.get().id();
    record Message(String id, long created, JsonNode data) {}
    List<Message> answers = new ArrayList<>();
    OpencodeUsage tally = new OpencodeUsage();
    Map<String, Integer> m = index(messages.columns());
    snapshot.scan(
        messages,
        row -> {
          if (id.equals(row[m.get("session_id")])) {
            JsonNode data = json(row[m.get("data")]);
            if (data.isMissingNode()) {
              tally.leftOut(RecordsLeftOut.Why.CUT); // its counts, if it had any, are unknown
            } else if (Turn.ASSISTANT.equals(data.path("role").asText(""))) {
              answers.add(
                  new Message((String) row[m.get("id")], number(row[m.get("time_created")]), data));
            }
          }
        });
    answers.sort(Comparator.comparingLong(Message::created).thenComparing(Message::id));
    answers.forEach(answer -> tally.add(answer.data()));
    return tally.report(false);
  }

  /**
   * The last turns and usage of each session asked for, kept while the database and its log are as
   * they were: an engine asked again and again reads the database only after opencode wrote to it.
   */
  static final class Kept {
    private static final int MAX_SESSIONS = 256;
    private static final Logger LOG = LoggerFactory.getLogger(OpencodeConversation.class);

    /** What one read answered: a value, or the error it met. */
    private record Answer(Stamp stamp, Object value, UnreadableTranscriptException error) {}

    private final Map<String, Answer> turns = RecentlyUsed.map(MAX_SESSIONS);
    private final Map<String, Answer> usages = RecentlyUsed.map(MAX_SESSIONS);

    /** {@link OpencodeConversation#turns}, read again only when the database changed. */
    @SuppressWarnings("unchecked")
    List<Turn> turns(Path db, TranscriptRequest request) {
      return (List<Turn>) kept(turns, db, request, () -> OpencodeConversation.turns(db, request));
    }

    /**
     * {@link OpencodeConversation#usage}, read again only when the database changed; {@link
     * UsageReport#NONE} while it cannot be read.
     */
    UsageReport usage(Path db, TranscriptRequest request) {
      return (UsageReport)
          kept(
              usages,
              db,
              request,
              () -> {
                try {
                  return OpencodeConversation.usage(db, request);
                } catch (UnreadableTranscriptException e) {
                  // Not read again until opencode writes to it: its usage is unknown meanwhile.
                  LOG.debug("opencode's usage in {} not readable", db, e);
                  return UsageReport.NONE;
                }
              });
    }

    private static Object kept(
        Map<String, Answer> kept,
        Path db,
        TranscriptRequest request,
        java.util.function.Supplier<Object> read) {
      String key = db + "\n" + request.sessionId() + "\n" + request.cliSessionId();
      Stamp stamp = new Stamp(db);
      Answer answer;
      synchronized (kept) {
        answer = kept.get(key);
      }
      if (answer == null || !answer.stamp().equals(stamp)) {
        try {
          answer = new Answer(stamp, read.get(), null);
        } catch (UnreadableTranscriptException e) {
          answer = new Answer(stamp, null, e);
        }
        synchronized (kept) {
          kept.put(key, answer);
        }
      }
      if (answer.error() != null) {
        throw answer.error();
      }
      return answer.value();
    }
  }

  private static List<Turn> read(Path db, TranscriptRequest request) throws IOException {
    try (SqliteSnapshot snapshot = SqliteSnapshot.open(db)) {
      return read(snapshot, db, request);
    }
  }

  private static List<Turn> read(SqliteSnapshot snapshot, Path db, TranscriptRequest request)
      throws IOException {
    SqliteSnapshot.Table sessions = table(snapshot, db, "session", SESSION_COLUMNS, "?");
    Optional<Session> session = session(snapshot, sessions, request);
    if (session.isEmpty()) {
      return List.of();
    }
    String version = session.get().version();
    SqliteSnapshot.Table messages = table(snapshot, db, "message", MESSAGE_COLUMNS, version);
    SqliteSnapshot.Table parts = table(snapshot, db, "part", PART_COLUMNS, version);
    String id = session.get().id();

    record Message(String id, long created, String role) {}
    List<Message> said = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    Map<String, Integer> m = index(messages.columns());
    snapshot.scan(
        messages,
        row -> {
          if (!id.equals(row[m.get("session_id")])) {
            return;
          }
          JsonNode data = json(row[m.get("data")]);
          String role = data.path("role").asText("");
          if (!role.equals(Turn.USER) && !role.equals(Turn.ASSISTANT)) {
            problems.add("a message with role '" + role + "'");
          }
          said.add(
              new Message((String) row[m.get("id")], number(row[m.get("time_created")]), role));
        });
    if (!problems.isEmpty()) {
      throw unknown(db, version, problems.get(0));
    }
    Map<String, List<String[]>> texts = new HashMap<>();
    Map<String, Integer> p = index(parts.columns());
    snapshot.scan(
        parts,
        row -> {
          if (!id.equals(row[p.get("session_id")])) {
            return;
          }
          JsonNode data = json(row[p.get("data")]);
          if (!"text".equals(data.path("type").asText())
              || data.path("synthetic").asBoolean(false)
              || data.path("ignored").asBoolean(false)
              || !data.path("text").isTextual()) {
            return;
          }
          texts
              .computeIfAbsent((String) row[p.get("message_id")], k -> new ArrayList<>())
              .add(new String[] {(String) row[p.get("id")], data.path("text").asText()});
        });
    said.sort(Comparator.comparingLong(Message::created).thenComparing(Message::id));
    TurnList turns = new TurnList();
    for (Message message : said) {
      List<String[]> pieces = texts.get(message.id());
      if (pieces == null) {
        continue; // a message of tool calls only
      }
      pieces.sort(Comparator.comparing(piece -> piece[0]));
      for (String[] piece : pieces) {
        turns.add(message.role(), TurnList.tidy(piece[1]));
      }
    }
    return turns.lastTurns();
  }

  private static Optional<Session> session(
      SqliteSnapshot snapshot, SqliteSnapshot.Table table, TranscriptRequest request)
      throws IOException {
    Map<String, Integer> c = index(table.columns());
    String cwd = request.cwd() == null ? null : request.cwd().toString();
    Instant created = request.created();
    long since = created == null ? Long.MIN_VALUE : created.toEpochMilli() - EARLIER_MILLIS;
    List<Session> found = new ArrayList<>();
    snapshot.scan(
        table,
        row -> {
          Session session =
              new Session(
                  (String) row[c.get("id")],
                  (String) row[c.get("directory")],
                  Objects.toString(row[c.get("version")], "?"),
                  number(row[c.get("time_created")]),
                  number(row[c.get("time_updated")]));
          if (request.cliSessionId() != null) {
            if (request.cliSessionId().equals(session.id())) {
              found.add(session);
            }
          } else if (row[c.get("parent_id")] == null
              && session.directory() != null
              && session.directory().equals(cwd)
              && session.created() >= since) {
            found.add(session);
          }
        });
    return found.stream().max(Comparator.comparingLong(Session::updated));
  }

  private static SqliteSnapshot.Table table(
      SqliteSnapshot snapshot, Path db, String name, List<String> needed, String version)
      throws IOException {
    SqliteSnapshot.Table table =
        snapshot.table(name).orElseThrow(() -> unknown(db, version, "no table " + name));
    for (String column : needed) {
      if (!table.columns().contains(column)) {
        throw unknown(db, version, "no column " + name + "." + column);
      }
    }
    return table;
  }

  private static UnreadableTranscriptException unknown(Path db, String version, String what) {
    return new UnreadableTranscriptException(
        "opencode's conversation in "
            + db
            + " (written by opencode "
            + version
            + ") has a form this engine does not know: "
            + what);
  }

  private static Map<String, Integer> index(List<String> columns) {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < columns.size(); i++) {
      index.put(columns.get(i), i);
    }
    return index;
  }

  private static JsonNode json(Object value) {
    if (!(value instanceof String text)) {
      return JSON.missingNode();
    }
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      return JSON.missingNode();
    }
  }

  private static long number(Object value) {
    return value instanceof Long n ? n : value instanceof Double d ? d.longValue() : 0;
  }

  /** The database and its log as they stood: a read between two equal stamps saw one state. */
  private record Stamp(FileStamp db, FileStamp wal) {
    Stamp(Path db) {
      this(FileStamp.of(db), FileStamp.of(db.resolveSibling(db.getFileName() + "-wal")));
    }
  }
}
