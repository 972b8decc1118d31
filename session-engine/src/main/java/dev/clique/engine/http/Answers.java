package dev.clique.engine.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.discovery.Found;
import dev.clique.engine.discovery.TranscriptMapping;
import dev.clique.engine.json.EngineJson;
import dev.clique.engine.session.PaneLines;
import dev.clique.engine.session.SessionRecord;
import dev.clique.engine.session.SessionService;
import dev.clique.engine.session.SessionView;
import dev.clique.engine.session.WaitOutcome;
import dev.clique.engine.tmux.ServerWatch;
import dev.clique.engine.transcript.Transcripts;
import dev.clique.engine.transcript.Turn;
import dev.clique.engine.transcript.UnreadableTranscriptException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The wire shape of every answer (the golden files under {@code contract/} describe them), and how
 * an answer is written: JSON through the engine's one mapper, headers and body in one write.
 */
final class Answers {
  private static final String JSON_TYPE = "application/json; charset=utf-8";
  private static final ObjectMapper JSON = EngineJson.mapper();

  private final SessionService sessions;
  private final Transcripts transcripts;
  private final TranscriptMapping mapping = new TranscriptMapping();
  private final Path userHome;
  private final Clock clock;
  private final String version;
  private final long startedMillis;

  Answers(
      SessionService sessions,
      Transcripts transcripts,
      Clock clock,
      String version,
      Path userHome) {
    this.sessions = sessions;
    this.transcripts = transcripts;
    this.userHome = userHome;
    this.clock = clock;
    this.version = version;
    this.startedMillis = clock.millis();
  }

  /** {@code /healthz}: that the engine answers, and to a known caller how it is. */
  Map<String, Object> health(boolean knownCaller) {
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("ok", true);
    if (knownCaller) {
      List<SessionView> all = sessions.sessions();
      answer.put("version", version);
      answer.put("uptime", (clock.millis() - startedMillis) / 1000);
      answer.put("tmux", sessions.tmuxInstalled());
      answer.put("sessions", all.size());
      answer.put("alive", all.stream().filter(SessionView::alive).count());
      answer.put("attached", all.stream().filter(SessionView::attached).count());
      List<Map<String, Object>> servers = new ArrayList<>();
      for (ServerWatch watch : sessions.tmuxServers()) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("socket", watch.socket());
        row.put("watched_by", watch.by());
        row.put("why", watch.why());
        servers.add(row);
      }
      answer.put("tmux_servers", servers);
    }
    return answer;
  }

  /**
   * {@code /api/state}: the sessions and the CLIs, with the revision they are as of; with {@code
   * brief}, each session's usage in brief and no limits ({@code ?usage=brief}).
   */
  Map<String, Object> state(boolean brief) {
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("version", version);
    // Read before the sessions: a change between the two then shows as a revision to come, never
    // as a change a reader already has the revision of.
    answer.put("revision", sessions.revision());
    answer.put("sessions", brief ? sessions.sessionsInBrief() : sessions.sessions());
    List<Map<String, Object>> clis = new ArrayList<>();
    for (CliDefinition cli : sessions.clis()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("id", cli.id());
      row.put("label", cli.label());
      row.put("installed", sessions.installed(cli));
      row.put("modes", cli.modes());
      row.put("transcript", Transcripts.kinds().contains(cli.transcript()));
      clis.add(row);
    }
    answer.put("clis", clis);
    return answer;
  }

  /** A session's turns, and for a session clique did not start how its transcript was found. */
  private record Conversation(List<Turn> turns, TranscriptMapping.Mapped mapped) {}

  private Conversation read(SessionRecord record) throws ApiError {
    String kind = sessions.transcriptKind(record);
    Optional<Found> found = sessions.found(record.id());
    try {
      if (found.isPresent() && !kind.isEmpty()) {
        // A session clique did not start: its transcript is found from its process.
        TranscriptMapping.Mapped mapped = mapping.map(found.get(), kind, userHome);
        return new Conversation(transcripts.turns(mapped.request(), mapped.roots()), mapped);
      }
      return new Conversation(transcripts.turns(sessions.transcriptRequest(record, kind)), null);
    } catch (UnreadableTranscriptException e) {
      throw new ApiError(500, e.getMessage()); // never a wrong list of turns
    }
  }

  /**
   * The CLI's own conversation, from a bounded tail of its transcript; [] when it has none.
   *
   * @throws ApiError 500 naming the file, when it is of a format that would be read wrong
   */
  Map<String, Object> conversation(SessionRecord record) throws ApiError {
    Conversation read = read(record);
    List<Turn> turns = read.turns();
    TranscriptMapping.Mapped mapped = read.mapped();
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("cli", record.cli());
    answer.put("name", record.name());
    if (mapped != null) {
      Map<String, Object> how = new LinkedHashMap<>();
      how.put("exact", mapped.exact());
      how.put("evidence", mapped.evidence());
      answer.put("transcript_source", how);
    }
    List<Map<String, String>> rows = new ArrayList<>();
    for (Turn turn : turns) {
      Map<String, String> row = new LinkedHashMap<>();
      row.put("role", turn.role());
      row.put("text", turn.text());
      rows.add(row);
    }
    answer.put("turns", rows);
    return answer;
  }

  static Map<String, Object> peek(PaneLines pane) {
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("lines", pane.lines());
    answer.put("alive", pane.alive());
    if (pane.alive()) {
      answer.put("activity", pane.activity());
    } else {
      answer.put("activity", 0);
    }
    answer.put("screen", true);
    return answer;
  }

  /**
   * A peek of a session that has no screen to capture (it runs outside tmux): the last {@code
   * lines} lines of its conversation, a prompt marked {@code > }, with {@code "screen": false}.
   *
   * @throws ApiError 500 naming the file, when its transcript is of a format that would be read
   *     wrong
   */
  Map<String, Object> conversationPeek(SessionRecord record, int lines) throws ApiError {
    List<String> text = new ArrayList<>();
    for (Turn turn : read(record).turns()) {
      boolean prompt = Turn.USER.equals(turn.role());
      boolean first = true;
      for (String line : turn.text().split("\\R")) {
        if (line.isBlank()) {
          continue;
        }
        text.add(prompt && first ? "> " + line.strip() : line.stripTrailing());
        first = false;
      }
    }
    Optional<SessionView> view = sessions.session(record.id());
    boolean alive = view.map(SessionView::alive).orElse(false);
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("lines", text.subList(Math.max(0, text.size() - lines), text.size()));
    answer.put("alive", alive);
    answer.put("activity", alive ? view.get().activity() : 0);
    answer.put("screen", false);
    answer.put("from", "conversation");
    return answer;
  }

  static Map<String, Object> waitAnswer(WaitOutcome outcome) {
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("id", outcome.id());
    answer.put("state", outcome.state());
    answer.put("matched", outcome.matched());
    answer.put("waited", outcome.waited());
    return answer;
  }

  static Map<String, Object> sessionCreated(SessionRecord created) {
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("id", created.id());
    answer.put("worktree", "");
    return answer;
  }

  static Map<String, Object> sessionAdopted(SessionRecord adopted) {
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("id", adopted.id());
    answer.put("adopted", true);
    return answer;
  }

  /** The answer of a change that has nothing more to say. */
  static Map<String, Object> done() {
    return Map.of("ok", true);
  }

  /** Nothing to tell the CLI: an empty object is a hook's "carry on", and decides nothing. */
  static Map<String, Object> hookReply() {
    return Map.of();
  }

  static void ok(Response response, Callback callback, Object body) {
    send(response, callback, 200, JSON_TYPE, write(body));
  }

  static void created(Response response, Callback callback, Object body) {
    send(response, callback, 201, JSON_TYPE, write(body));
  }

  /** {@code {"error": message}}, with the headers its status calls for. */
  static void error(Response response, Callback callback, int status, String message) {
    ObjectNode body = JSON.createObjectNode();
    body.put("error", message);
    if (status == 405) {
      response.getHeaders().put(HttpHeader.ALLOW, "GET, POST, DELETE");
    }
    if (status == 503) {
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
    }
    send(response, callback, status, JSON_TYPE, body.toString());
  }

  static void error(Response response, Callback callback, ApiError error) {
    error(response, callback, error.status(), error.getMessage());
  }

  /** Headers and body in one write, so a keep-alive client never waits on a delayed ACK. */
  static void send(Response response, Callback callback, int status, String type, String body) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
    response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
    response.getHeaders().put("X-Content-Type-Options", "nosniff");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
    response.write(true, ByteBuffer.wrap(bytes), callback);
  }

  private static String write(Object body) {
    try {
      return JSON.writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an answer could not be written as JSON", e);
    }
  }
}
