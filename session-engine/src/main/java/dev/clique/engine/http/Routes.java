package dev.clique.engine.http;

import static dev.clique.engine.http.Access.require;
import static dev.clique.engine.http.Access.requireAttention;
import static dev.clique.engine.http.Requests.body;
import static dev.clique.engine.http.Requests.query;
import static dev.clique.engine.http.Requests.text;
import static dev.clique.engine.http.SessionCalls.call;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.engine.hooks.HookReports;
import dev.clique.engine.notify.Delivery;
import dev.clique.engine.notify.NotifyTargets;
import dev.clique.engine.session.NewSession;
import dev.clique.engine.session.PaneLines;
import dev.clique.engine.session.SessionRecord;
import dev.clique.engine.session.SessionService;
import dev.clique.engine.session.Source;
import dev.clique.engine.state.SessionState;
import dev.clique.engine.token.Scope;
import dev.clique.engine.token.Token;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routes of the API (HTTP-API.md): method and path to the call it makes, each behind the scope
 * it needs.
 */
final class Routes implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Routes.class);
  private static final int TMUX_READ_QUEUE = 512;
  private static final Set<String> ATTENTION_STATES =
      Set.of("waiting", "error", "working", "idle", "clear");

  /** States only a report can say: CLIque's signal knows waiting and error alone. */
  private static final Set<String> REPORT_STATES = Set.of("working", "idle");

  private static final Pattern KEY_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9-]{0,15}");

  private final SessionService sessions;
  private final Access access;
  private final Answers answers;
  private final HeldRequests held;
  private final HookReports hookReports;
  private final Supplier<List<NotifyTargets.Status>> notifications;

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

  Routes(
      SessionService sessions,
      Access access,
      Answers answers,
      HeldRequests held,
      HookReports hookReports,
      Supplier<List<NotifyTargets.Status>> notifications) {
    this.notifications = notifications;
    this.sessions = sessions;
    this.hookReports = hookReports;
    this.access = access;
    this.answers = answers;
    this.held = held;
  }

  void route(Request request, Response response, Callback callback) throws ApiError {
    String path = request.getHttpURI().getPath();
    String method = request.getMethod();
    if (path.equals("/healthz")) {
      allow(method, "GET");
      Answers.ok(response, callback, answers.health(access.caller(request).isPresent()));
      return;
    }
    if (!path.startsWith("/api/")) {
      throw ApiError.notFound("not found");
    }
    Optional<Token> token = access.caller(request);
    if (token.isEmpty()) {
      throw new ApiError(401, "unauthorized");
    }
    List<String> parts = Requests.segments(path);
    // parts[0] is "api"
    if (parts.size() == 2 && parts.get(1).equals("state")) {
      allow(method, "GET");
      require(token.get(), Scope.READ);
      String after = query(request, "after");
      boolean brief = briefUsage(query(request, "usage"));
      if (after == null) {
        Answers.ok(response, callback, answers.state(brief));
      } else {
        held.changeAfter(after, brief, token.get(), request, response, callback);
      }
      return;
    }
    if (parts.size() == 3 && parts.get(1).equals("hooks") && Access.isOperator(token.get())) {
      allow(method, "POST");
      hookReport(parts.get(2), query(request, "pid"), body(request));
      Answers.ok(response, callback, Answers.done());
      return;
    }
    if (parts.size() == 2 && parts.get(1).equals("notify")) {
      allow(method, "GET");
      // Whom the operator tells is the operator's business, not a token holder's.
      if (!Access.isOperator(token.get())) {
        throw new ApiError(403, "the notification targets are shown only over the engine's socket");
      }
      Answers.ok(response, callback, Map.of("targets", notifyTargets()));
      return;
    }
    if (parts.size() >= 2 && parts.get(1).equals("sessions")) {
      sessionRoute(request, response, callback, method, parts, token.get());
      return;
    }
    throw ApiError.notFound("not found");
  }

  /**
   * {@code POST /api/hooks/{cli}?pid=}: an event of a CLI the engine did not start, sent by a hook
   * the person installed ({@code clique hooks install}) with its parent's pid. Only over the
   * operator socket, whose caller is the user: the TCP API has no such route.
   */
  private void hookReport(String cli, String pid, JsonNode event) throws ApiError {
    long reporter;
    try {
      reporter = Long.parseLong(pid == null ? "" : pid);
    } catch (NumberFormatException e) {
      throw ApiError.badRequest("pid must be the reporting process's id");
    }
    try {
      hookReports.report(cli, reporter, event, System.currentTimeMillis());
    } catch (IllegalArgumentException e) {
      throw ApiError.badRequest(e.getMessage());
    }
  }

  /** Each notification target with its last delivery, as {@code clique notify} prints them. */
  private List<Map<String, Object>> notifyTargets() {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (NotifyTargets.Status status : notifications.get()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("target", status.target());
      row.put("events", status.events());
      row.put("cli", status.cli());
      row.put("name", status.name());
      Delivery last = status.last();
      if (last == null) {
        row.put("last", null);
      } else {
        Map<String, Object> delivery = new LinkedHashMap<>();
        delivery.put("at", last.at().toString());
        delivery.put("event", last.event());
        delivery.put("delivered", last.delivered());
        delivery.put("said", last.said());
        row.put("last", delivery);
      }
      rows.add(row);
    }
    return rows;
  }

  /** {@code ?usage=}: {@code brief} for a listing's usage, {@code full} (the default) for all. */
  private static boolean briefUsage(String usage) throws ApiError {
    if (usage == null || usage.equals("full")) {
      return false;
    }
    if (usage.equals("brief")) {
      return true;
    }
    throw ApiError.badRequest("usage must be brief or full");
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
      NewSession spec = newSession(body(request));
      SessionRecord created = call(() -> sessions.create(spec));
      Answers.created(response, callback, Answers.sessionCreated(created));
      return;
    }
    String id = parts.get(2);
    if (parts.size() == 3 && id.equals("adopt")) {
      allow(method, "POST");
      require(token, Scope.WRITE);
      adopt(body(request), response, callback);
      return;
    }
    if (parts.size() == 3) {
      allow(method, "DELETE");
      require(token, Scope.WRITE);
      call(() -> sessions.delete(id));
      Answers.ok(response, callback, Answers.done());
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
        SessionRecord record = existing(id);
        if (record.source() != null && record.source().outside()) {
          // No screen to capture: the conversation's last lines stand for it, said so.
          Answers.ok(
              response, callback, answers.conversationPeek(record, Requests.peekLines(lines)));
        } else {
          peek(id, lines, response, callback);
        }
      }
      case "wait" -> {
        allow(method, "GET");
        require(token, Scope.READ);
        existing(id);
        held.await(id, token, request, response, callback);
      }
      case "transcript" -> {
        allow(method, "GET");
        require(token, Scope.READ);
        Answers.ok(response, callback, answers.conversation(existing(id)));
      }
      case "send" -> {
        allow(method, "POST");
        require(token, Scope.WRITE);
        send(id, body(request));
        Answers.ok(response, callback, Answers.done());
      }
      case "kill" -> {
        allow(method, "POST");
        require(token, Scope.WRITE);
        call(() -> sessions.kill(id));
        Answers.ok(response, callback, Answers.done());
      }
      case "start" -> {
        allow(method, "POST");
        require(token, Scope.WRITE);
        call(() -> sessions.restart(id));
        Answers.ok(response, callback, Answers.done());
      }
      case "attention" -> {
        allow(method, "POST");
        requireAttention(token, id);
        attention(id, body(request));
        Answers.ok(response, callback, Answers.done());
      }
      case "hook" -> {
        allow(method, "POST");
        requireAttention(token, id);
        JsonNode event = body(request);
        call(() -> sessions.hook(id, event));
        Answers.ok(response, callback, Answers.hookReply());
      }
      default -> throw ApiError.notFound("not found");
    }
  }

  private static NewSession newSession(JsonNode body) throws ApiError {
    return new NewSession(
        text(body, "cli"), text(body, "cwd"), text(body, "name"), text(body, "mode"));
  }

  private void adopt(JsonNode body, Response response, Callback callback) throws ApiError {
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
    Answers.ok(response, callback, Answers.sessionAdopted(adopted));
  }

  /**
   * A peek may start tmux: it runs on the few tmux readers, never on a request thread, so a flood
   * of peeks queues there while /healthz and /api/state answer from memory.
   */
  private void peek(String id, String linesParam, Response response, Callback callback)
      throws ApiError {
    try {
      tmuxReads.execute(
          () -> {
            try {
              int lines = Requests.peekLines(linesParam);
              PaneLines pane = call(() -> sessions.peek(id, lines));
              Answers.ok(response, callback, Answers.peek(pane));
            } catch (ApiError e) {
              Answers.error(response, callback, e);
            } catch (RuntimeException e) {
              log.error("peek of {} failed", id, e);
              Answers.error(response, callback, 500, "internal error");
            }
          });
    } catch (RejectedExecutionException e) {
      throw new ApiError(503, "too many pane reads are queued; try again in a moment");
    }
  }

  private void send(String id, JsonNode body) throws ApiError {
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
  }

  private void attention(String id, JsonNode body) throws ApiError {
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
  }

  private SessionRecord existing(String id) throws ApiError {
    return sessions.record(id).orElseThrow(() -> ApiError.notFound("no such session"));
  }

  private static void allow(String method, String expected) throws ApiError {
    if (!method.equals(expected)) {
      throw new ApiError(405, "method not allowed");
    }
  }

  @Override
  public void close() {
    tmuxReads.shutdownNow();
  }
}
