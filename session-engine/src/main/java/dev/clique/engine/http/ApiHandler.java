package dev.clique.engine.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.engine.catalogue.CliDefinition;
import dev.clique.engine.discovery.Found;
import dev.clique.engine.discovery.TranscriptMapping;
import dev.clique.engine.json.EngineJson;
import dev.clique.engine.session.NewSession;
import dev.clique.engine.session.PaneLines;
import dev.clique.engine.session.SessionException;
import dev.clique.engine.session.SessionRecord;
import dev.clique.engine.session.SessionService;
import dev.clique.engine.session.SessionView;
import dev.clique.engine.session.Source;
import dev.clique.engine.session.WaitOutcome;
import dev.clique.engine.state.SessionState;
import dev.clique.engine.token.Scope;
import dev.clique.engine.token.Token;
import dev.clique.engine.token.TokenStore;
import dev.clique.engine.transcript.TranscriptRequest;
import dev.clique.engine.transcript.TranscriptRoots;
import dev.clique.engine.transcript.Transcripts;
import dev.clique.engine.transcript.Turn;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's HTTP API (HTTP-API.md): Host guard first, then the bearer token and its scope, then
 * the route. Every answer is written in one go, body and headers together.
 */
public final class ApiHandler extends Handler.Abstract {
  private static final Logger log = LoggerFactory.getLogger(ApiHandler.class);
  private static final int MAX_BODY = 1 << 20;
  private static final int TMUX_READ_QUEUE = 512;
  private static final String JSON = "application/json; charset=utf-8";
  private static final Set<String> ATTENTION_STATES =
      Set.of("waiting", "error", "working", "idle", "clear");

  /** States only a report can say: CLIque's signal knows waiting and error alone. */
  private static final Set<String> REPORT_STATES = Set.of("working", "idle");

  private static final java.util.regex.Pattern KEY_NAME =
      java.util.regex.Pattern.compile("[A-Za-z0-9][A-Za-z0-9-]{0,15}");

  private static final Token OPERATOR =
      new Token("local", "operator", "", EnumSet.of(Scope.READ, Scope.WRITE), "", 0, 0);
  private final SessionService sessions;
  private final Transcripts transcripts;
  private final TokenStore tokens;
  private final HostGuard hosts;
  private final Clock clock;
  private final String version;
  private final long startedMillis;
  private final ObjectMapper json = EngineJson.mapper();
  private final WaitQuota waitQuota = WaitQuota.forDescriptors(maxDescriptors());
  private final HangUpWatch hangUps = HangUpWatch.system();
  private final TranscriptMapping mapping = new TranscriptMapping();
  private final Path userHome;

  /** Reads that may start tmux: two at a time (two cores), a bounded queue behind them. */
  private final ThreadPoolExecutor tmuxReads =
      new ThreadPoolExecutor(
          2,
          2,
          30,
          TimeUnit.SECONDS,
          new ArrayBlockingQueue<>(TMUX_READ_QUEUE),
          r -> {
            Thread thread = new Thread(r, "engine-tmux-read");
            thread.setDaemon(true);
            return thread;
          });

  public ApiHandler(
      SessionService sessions,
      Transcripts transcripts,
      TokenStore tokens,
      HostGuard hosts,
      Clock clock,
      String version,
      Path userHome) {
    this.userHome = userHome;
    this.sessions = sessions;
    this.transcripts = transcripts;
    this.tokens = tokens;
    this.hosts = hosts;
    this.clock = clock;
    this.version = version;
    this.startedMillis = clock.millis();
  }

  /** What Jetty answers with for requests it refuses before they reach the API. */
  public static Request.Handler errorHandler() {
    return new PlainErrorHandler();
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    try {
      if (!hosts.allows(request.getHeaders().get(HttpHeader.HOST))) {
        send(response, callback, 403, "text/plain; charset=utf-8", "host not allowed");
        return true;
      }
      route(request, response, callback);
    } catch (ApiError e) {
      error(response, callback, e.status(), e.getMessage());
    } catch (RuntimeException e) {
      log.error("request {} {} failed", request.getMethod(), request.getHttpURI().getPath(), e);
      error(response, callback, 500, "internal error");
    }
    return true;
  }

  private void route(Request request, Response response, Callback callback) throws ApiError {
    String path = request.getHttpURI().getPath();
    String method = request.getMethod();
    if (path.equals("/healthz")) {
      allow(method, "GET");
      health(request, response, callback);
      return;
    }
    if (!path.startsWith("/api/")) {
      throw ApiError.notFound("not found");
    }
    Optional<Token> token = caller(request);
    if (token.isEmpty()) {
      throw new ApiError(401, "unauthorized");
    }
    List<String> parts = segments(path);
    // parts[0] is "api"
    if (parts.size() == 2 && parts.get(1).equals("state")) {
      allow(method, "GET");
      require(token.get(), Scope.READ);
      String after = query(request, "after");
      if (after == null) {
        ok(response, callback, state());
      } else {
        changeAfter(after, token.get(), request, response, callback);
      }
      return;
    }
    if (parts.size() >= 2 && parts.get(1).equals("sessions")) {
      sessionRoute(request, response, callback, method, parts, token.get());
      return;
    }
    throw ApiError.notFound("not found");
  }

  private void sessionRoute(
      Request request,
      Response response,
      Callback callback,
      String method,
      List<String> parts,
      Token token)
      throws ApiError {
    if (parts.size() == 2) {
      allow(method, "POST");
      require(token, Scope.WRITE);
      JsonNode body = body(request);
      NewSession spec =
          new NewSession(
              text(body, "cli"), text(body, "cwd"), text(body, "name"), text(body, "mode"));
      SessionRecord created = call(() -> sessions.create(spec));
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("id", created.id());
      answer.put("worktree", "");
      send(response, callback, 201, JSON, write(answer));
      return;
    }
    String id = parts.get(2);
    if (parts.size() == 3 && id.equals("adopt")) {
      allow(method, "POST");
      require(token, Scope.WRITE);
      JsonNode body = body(request);
      JsonNode sourceNode = body.get("source");
      Source source = null;
      if (sourceNode != null && !sourceNode.isNull()) {
        if (!sourceNode.isObject()) {
          throw ApiError.badRequest("source must be an object with socket and pane");
        }
        source =
            new Source(
                text(sourceNode, "socket"),
                text(sourceNode, "session"),
                sourceNode.path("window").asInt(0),
                text(sourceNode, "pane"));
      }
      String wanted = text(body, "id");
      Source where = source;
      SessionRecord adopted = call(() -> sessions.adopt(wanted, where));
      Map<String, Object> answer = new LinkedHashMap<>();
      answer.put("id", adopted.id());
      answer.put("adopted", true);
      ok(response, callback, answer);
      return;
    }
    if (parts.size() == 3) {
      allow(method, "DELETE");
      require(token, Scope.WRITE);
      call(() -> sessions.delete(id));
      ok(response, callback, Map.of("ok", true));
      return;
    }
    if (parts.size() != 4) {
      throw ApiError.notFound("not found");
    }
    switch (parts.get(3)) {
      case "peek" -> {
        allow(method, "GET");
        require(token, Scope.READ);
        String lines = query(request, "lines");
        existing(id);
        // A peek may start tmux: it runs on the few tmux readers, never on a request thread, so a
        // flood of peeks queues there while /healthz and /api/state answer from memory.
        try {
          tmuxReads.execute(
              () -> {
                try {
                  ok(response, callback, peek(id, lines));
                } catch (ApiError e) {
                  error(response, callback, e.status(), e.getMessage());
                } catch (RuntimeException e) {
                  log.error("peek of {} failed", id, e);
                  error(response, callback, 500, "internal error");
                }
              });
        } catch (RejectedExecutionException e) {
          throw new ApiError(503, "too many pane reads are queued; try again in a moment");
        }
      }
      case "wait" -> {
        allow(method, "GET");
        require(token, Scope.READ);
        await(id, token, request, response, callback);
      }
      case "transcript" -> {
        allow(method, "GET");
        require(token, Scope.READ);
        ok(response, callback, conversation(existing(id)));
      }
      case "send" -> {
        allow(method, "POST");
        require(token, Scope.WRITE);
        JsonNode body = body(request);
        String key = text(body, "key");
        String text = text(body, "text");
        if (key == null && text == null) {
          throw ApiError.badRequest("send needs text or key");
        }
        if (key != null && !KEY_NAME.matcher(key).matches()) {
          throw ApiError.badRequest("key must be one key name, such as Enter, Escape or C-c");
        }
        JsonNode enterNode = body.get("enter");
        if (enterNode != null && !enterNode.isBoolean() && !enterNode.isNull()) {
          throw ApiError.badRequest("enter must be true or false");
        }
        boolean enter = enterNode == null || enterNode.isNull() || enterNode.asBoolean();
        call(() -> sessions.send(id, text, enter, key));
        ok(response, callback, Map.of("ok", true));
      }
      case "kill" -> {
        allow(method, "POST");
        require(token, Scope.WRITE);
        call(() -> sessions.kill(id));
        ok(response, callback, Map.of("ok", true));
      }
      case "start" -> {
        allow(method, "POST");
        require(token, Scope.WRITE);
        call(() -> sessions.restart(id));
        ok(response, callback, Map.of("ok", true));
      }
      case "attention" -> {
        allow(method, "POST");
        requireAttention(token, id);
        JsonNode body = body(request);
        String state = text(body, "state");
        String kind = text(body, "kind");
        String detail = text(body, "detail");
        if (state == null || !ATTENTION_STATES.contains(state)) {
          throw ApiError.badRequest("state must be one of waiting, error, working, idle, clear");
        }
        boolean report = kind != null || detail != null || REPORT_STATES.contains(state);
        if (report && state.equals("clear")) {
          throw ApiError.badRequest("clear takes no kind or detail");
        }
        if (report) {
          SessionState reported = SessionState.fromWire(state).orElseThrow();
          call(() -> sessions.report(id, reported, kind, detail));
        } else {
          call(() -> sessions.attention(id, state));
        }
        ok(response, callback, Map.of("ok", true));
      }
      case "hook" -> {
        allow(method, "POST");
        requireAttention(token, id);
        JsonNode event = body(request);
        call(() -> sessions.hook(id, event));
        // Nothing to tell the CLI: an empty object is a hook's "carry on", and decides nothing.
        ok(response, callback, Map.of());
      }
      default -> throw ApiError.notFound("not found");
    }
  }

  private Map<String, Object> state() {
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("version", version);
    // Read before the sessions: a change between the two then shows as a revision to come, never
    // as a change a reader already has the revision of.
    answer.put("revision", sessions.changes().revision());
    answer.put("sessions", sessions.sessions());
    List<Map<String, Object>> clis = new ArrayList<>();
    for (CliDefinition cli : sessions.catalogue().all()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("id", cli.id());
      row.put("label", cli.label());
      row.put("installed", sessions.catalogue().installed(cli));
      row.put("modes", cli.modes());
      row.put("transcript", Transcripts.kinds().contains(cli.transcript()));
      clis.add(row);
    }
    answer.put("clis", clis);
    return answer;
  }

  /** The CLI's own conversation, from a bounded tail of its transcript; [] when it has none. */
  private Map<String, Object> conversation(SessionRecord record) {
    String kind = sessions.catalogue().find(record.cli()).map(CliDefinition::transcript).orElse("");
    Optional<Found> found = sessions.found(record.id());
    List<Turn> turns;
    TranscriptMapping.Mapped mapped = null;
    if (found.isPresent() && !kind.isEmpty()) {
      // A session clique did not start: its transcript is found from its process.
      mapped = mapping.map(found.get(), kind, userHome);
      turns = transcripts.turns(mapped.request(), mapped.roots());
    } else {
      turns =
          transcripts.turns(
              new TranscriptRequest(
                  kind,
                  record.id(),
                  record.cliSessionId(),
                  Path.of(record.cwd()),
                  Instant.ofEpochMilli((long) (record.created() * 1000)),
                  sessions.paneEnvironment(record.id(), TranscriptRoots.VARIABLES)));
    }
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

  private Map<String, Object> peek(String id, String linesParam) throws ApiError {
    int lines = 6;
    if (linesParam != null) {
      try {
        lines = Math.max(1, Math.min(200, (int) Double.parseDouble(linesParam)));
      } catch (NumberFormatException e) {
        throw ApiError.badRequest("lines must be a number");
      }
    }
    int wanted = lines;
    PaneLines pane = call(() -> sessions.peek(id, wanted));
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("lines", pane.lines());
    answer.put("alive", pane.alive());
    if (pane.alive()) {
      answer.put("activity", pane.activity());
    } else {
      answer.put("activity", 0);
    }
    return answer;
  }

  private void await(String id, Token token, Request request, Response response, Callback callback)
      throws ApiError {
    existing(id);
    long millis = timeoutMillis(request);
    Set<String> wanted = new LinkedHashSet<>();
    String forParam = query(request, "for");
    for (String name : (forParam == null || forParam.isBlank() ? "idle" : forParam).split(",")) {
      String state = name.strip().toLowerCase(Locale.ROOT);
      if (SessionState.fromWire(state).isEmpty()) {
        throw ApiError.badRequest("unknown state: " + name.strip());
      }
      wanted.add(state);
    }
    this.<WaitOutcome>hold(
        "wait on " + id,
        token,
        () -> call(() -> sessions.await(id, wanted, millis)),
        ApiHandler::waitAnswer,
        request,
        response,
        callback);
  }

  /**
   * {@code GET /api/state?after=N}: held, like a wait, until the revision is not {@code N}, then
   * the state; the state unchanged, with the same revision, when the time-out passes.
   */
  private void changeAfter(
      String afterParam, Token token, Request request, Response response, Callback callback)
      throws ApiError {
    long after;
    try {
      after = Long.parseLong(afterParam.strip());
    } catch (NumberFormatException e) {
      throw ApiError.badRequest("after must be a revision: a whole number, as /api/state gave it");
    }
    if (after < 0) {
      throw ApiError.badRequest("after must be a revision: 0 or more");
    }
    long millis = timeoutMillis(request);
    this.<Long>hold(
        "state after " + after,
        token,
        () -> sessions.changes().after(after, millis),
        revision -> state(),
        request,
        response,
        callback);
  }

  /** The {@code timeout} of a held request, in milliseconds: 60 s unless given, at most 300 s. */
  private static long timeoutMillis(Request request) throws ApiError {
    double timeout = 60;
    String timeoutParam = query(request, "timeout");
    if (timeoutParam != null) {
      try {
        timeout = Double.parseDouble(timeoutParam);
      } catch (NumberFormatException e) {
        throw ApiError.badRequest("timeout must be a number of seconds");
      }
      if (!(timeout >= 0)) {
        throw ApiError.badRequest("timeout must be 0 or more seconds");
      }
    }
    return (long) (Math.min(timeout, 300) * 1000);
  }

  /** Starts what a held request waits for. */
  @FunctionalInterface
  private interface Pending<T> {
    CompletableFuture<T> start() throws ApiError;
  }

  /**
   * Holds the request until {@code pending} completes, then answers what {@code answer} makes of
   * it. It holds no thread, and one of the token's places for held requests; a client that hangs up
   * cancels it.
   */
  private <T> void hold(
      String what,
      Token token,
      Pending<T> start,
      Function<T, Object> answer,
      Request request,
      Response response,
      Callback callback)
      throws ApiError {
    Runnable release = waitQuota.acquire(token.id());
    CompletableFuture<T> pending;
    try {
      pending = start.start();
    } catch (ApiError | RuntimeException e) {
      release.run();
      throw e;
    }
    AutoCloseable watch = () -> {};
    if (!pending.isDone()) {
      // The held request's own timer ends it, not the connection's idle time-out. A client that
      // hangs up ends it at once (the TCP table says so; Jetty would notice only when it writes the
      // answer).
      request.addIdleTimeoutListener(idle -> false);
      request.addFailureListener(failure -> pending.cancel(false));
      ConnectionMetaData connection = request.getConnectionMetaData();
      watch =
          hangUps.watch(
              connection.getLocalSocketAddress(),
              connection.getRemoteSocketAddress(),
              () -> pending.cancel(false));
    }
    AutoCloseable watching = watch;
    pending.whenComplete(
        (outcome, failure) -> {
          release.run();
          try {
            watching.close();
          } catch (Exception e) {
            // removing a map entry does not fail
          }
          if (failure instanceof CancellationException) {
            callback.failed(failure);
          } else if (failure != null) {
            log.error("{} failed", what, failure);
            error(response, callback, 500, "internal error");
          } else {
            try {
              ok(response, callback, answer.apply(outcome));
            } catch (RuntimeException e) {
              log.error("the answer to {} failed", what, e);
              error(response, callback, 500, "internal error");
            }
          }
        });
  }

  private static Map<String, Object> waitAnswer(WaitOutcome outcome) {
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("id", outcome.id());
    answer.put("state", outcome.state());
    answer.put("matched", outcome.matched());
    answer.put("waited", outcome.waited());
    return answer;
  }

  private void health(Request request, Response response, Callback callback) {
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("ok", true);
    Optional<Token> token = caller(request);
    if (token.isPresent()) {
      List<SessionView> all = sessions.sessions();
      answer.put("version", version);
      answer.put("uptime", (clock.millis() - startedMillis) / 1000);
      answer.put("tmux", sessions.tmux().installed());
      answer.put("sessions", all.size());
      answer.put("alive", all.stream().filter(SessionView::alive).count());
      answer.put("attached", all.stream().filter(SessionView::attached).count());
    }
    ok(response, callback, answer);
  }

  private SessionRecord existing(String id) throws ApiError {
    return sessions.record(id).orElseThrow(() -> ApiError.notFound("no such session"));
  }

  /** Scope {@code write}, or {@code attention} bound to this very session. */
  private static void requireAttention(Token token, String id) throws ApiError {
    if (token.allows(Scope.WRITE)) {
      return;
    }
    if (token.allows(Scope.ATTENTION) && token.session().equals(id)) {
      return;
    }
    if (token.allows(Scope.READ)) {
      throw new ApiError(403, "this API token is read-only");
    }
    throw new ApiError(403, "forbidden");
  }

  private static void require(Token token, Scope scope) throws ApiError {
    if (token.allows(scope)) {
      return;
    }
    if (scope == Scope.WRITE && token.allows(Scope.READ)) {
      throw new ApiError(403, "this API token is read-only");
    }
    throw new ApiError(403, "forbidden");
  }

  private static void allow(String method, String expected) throws ApiError {
    if (!method.equals(expected)) {
      throw new ApiError(405, "method not allowed");
    }
  }

  /**
   * Who asks: the operator, for a request over the engine's own socket in its home (only the user
   * who owns the home can reach it), else the bearer token's holder, if any.
   */
  private Optional<Token> caller(Request request) {
    if (request.getConnectionMetaData().getRemoteSocketAddress()
        instanceof UnixDomainSocketAddress) {
      return Optional.of(OPERATOR);
    }
    return bearer(request).flatMap(tokens::authenticate);
  }

  private static Optional<String> bearer(Request request) {
    String header = request.getHeaders().get(HttpHeader.AUTHORIZATION);
    if (header == null) {
      return Optional.empty();
    }
    String value = header.strip();
    if (value.length() < 7 || !value.substring(0, 7).equalsIgnoreCase("bearer ")) {
      return Optional.empty();
    }
    return Optional.of(value.substring(7).strip());
  }

  private static List<String> segments(String path) {
    List<String> parts = new ArrayList<>();
    for (String part : path.split("/")) {
      if (!part.isEmpty()) {
        parts.add(part);
      }
    }
    return parts;
  }

  private static String query(Request request, String name) throws ApiError {
    Fields fields;
    try {
      fields = Request.extractQueryParameters(request);
    } catch (RuntimeException e) {
      // Jetty refuses an escape that is not UTF-8 (lines=%ff): the client's mistake, not ours.
      throw ApiError.badRequest("the query string is not valid UTF-8 percent-encoding");
    }
    Fields.Field field = fields.get(name);
    return field == null ? null : field.getValue();
  }

  private JsonNode body(Request request) throws ApiError {
    if (request.getLength() > MAX_BODY) {
      throw new ApiError(413, "request body is larger than 1 MiB");
    }
    byte[] data;
    try (InputStream in = Content.Source.asInputStream(request)) {
      data = in.readNBytes(MAX_BODY + 1);
    } catch (IOException e) {
      throw ApiError.badRequest("the request body could not be read");
    }
    if (data.length > MAX_BODY) {
      throw new ApiError(413, "request body is larger than 1 MiB");
    }
    if (data.length == 0) {
      return json.createObjectNode();
    }
    try {
      JsonNode node = json.readTree(data);
      if (node == null || !node.isObject()) {
        throw ApiError.badRequest("the request body must be a JSON object");
      }
      return node;
    } catch (IOException e) {
      throw ApiError.badRequest("the request body is not valid JSON");
    }
  }

  private static String text(JsonNode body, String key) throws ApiError {
    JsonNode value = body.get(key);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw ApiError.badRequest(key + " must be a string");
    }
    return value.asText();
  }

  private <T> T call(SessionCall<T> action) throws ApiError {
    try {
      return action.run();
    } catch (SessionException e) {
      throw switch (e.kind()) {
        case BAD_REQUEST -> ApiError.badRequest(e.getMessage());
        case NOT_FOUND -> ApiError.notFound(e.getMessage());
        case FORBIDDEN -> new ApiError(403, e.getMessage());
        case FAILED -> {
          log.warn("session call failed: {}", e.getMessage());
          yield new ApiError(500, e.getMessage());
        }
      };
    }
  }

  private void call(SessionAction action) throws ApiError {
    call(
        () -> {
          action.run();
          return null;
        });
  }

  @FunctionalInterface
  private interface SessionCall<T> {
    T run() throws SessionException;
  }

  @FunctionalInterface
  private interface SessionAction {
    void run() throws SessionException;
  }

  private void ok(Response response, Callback callback, Object body) {
    send(response, callback, 200, JSON, write(body));
  }

  private void error(Response response, Callback callback, int status, String message) {
    ObjectNode body = json.createObjectNode();
    body.put("error", message);
    if (status == 405) {
      response.getHeaders().put(HttpHeader.ALLOW, "GET, POST, DELETE");
    }
    if (status == 503) {
      response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
    }
    send(response, callback, status, JSON, body.toString());
  }

  private String write(Object body) {
    try {
      return json.writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an answer could not be written as JSON", e);
    }
  }

  /** The most file descriptors this process may hold, or a conservative guess off Unix. */
  public static long maxDescriptors() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
      return unix.getMaxFileDescriptorCount();
    }
    return 1024;
  }

  @Override
  protected void doStop() throws Exception {
    hangUps.close();
    tmuxReads.shutdownNow();
    super.doStop();
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
}
