package dev.clique.client.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.client.Cli;
import dev.clique.client.CliqueClient;
import dev.clique.client.CliqueException;
import dev.clique.client.Conversation;
import dev.clique.client.EngineState;
import dev.clique.client.Health;
import dev.clique.client.Pane;
import dev.clique.client.Session;
import dev.clique.client.SessionState;
import dev.clique.client.WaitResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * One {@link CliqueClient} over several engines, each the source of truth for its own machine:
 * nothing is stored here but which engine answered what. The list calls ask every engine at once
 * and merge what answered, each session carrying its engine's name and an id {@code <engine>:<id>};
 * an engine that does not answer (down, slow past its client's time-out, refusing its token) leaves
 * its sessions out and is named in {@link EngineState#engines()}, never failing the answer unless
 * no engine answered at all. Every other call goes to the one engine its id names, through that
 * engine's own client, so a token only ever reaches the engine it is for.
 */
public final class FanOutClient implements CliqueClient {
  /** Between an engine's name and its own session id. */
  public static final char SEPARATOR = ':';

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final List<String> names;
  private final List<CliqueClient> clients;
  private final AnswerReader answers;
  private final MergedRevisions revisions = new MergedRevisions();

  /**
   * A client over these engines.
   *
   * @param engines each engine's client by its name, in the order answers list them
   * @param answers reads the merged answers into the client's values
   * @throws IllegalArgumentException when there is no engine or a name is not a valid name
   */
  public FanOutClient(Map<String, ? extends CliqueClient> engines, AnswerReader answers) {
    Objects.requireNonNull(engines, "engines");
    if (engines.isEmpty()) {
      throw new IllegalArgumentException("a client over several engines needs at least one engine");
    }
    this.names = new ArrayList<>();
    this.clients = new ArrayList<>();
    engines.forEach(
        (name, client) -> {
          names.add(checkName(name));
          clients.add(Objects.requireNonNull(client, "the client of engine " + name));
        });
    this.answers = Objects.requireNonNull(answers, "answers");
  }

  /**
   * Checks an engine's name: letters, digits, {@code _ . -}, at most 64, never the separator.
   *
   * @param name the name
   * @return the name
   * @throws IllegalArgumentException when it is not a valid name
   */
  public static String checkName(String name) {
    Objects.requireNonNull(name, "an engine's name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "`"
              + Failures.excerpt(name)
              + "` is not an engine name: letters, digits, `_`, `.` and `-`, at most 64,"
              + " starting with a letter or digit");
    }
    return name;
  }

  @Override
  public String baseUrl() {
    StringBuilder urls = new StringBuilder();
    for (int i = 0; i < names.size(); i++) {
      urls.append(i == 0 ? "" : " ")
          .append(names.get(i))
          .append('=')
          .append(clients.get(i).baseUrl());
    }
    return urls.toString();
  }

  @Override
  public CompletableFuture<EngineState> stateAsync() {
    return merged(CliqueClient::stateAsync);
  }

  @Override
  public CompletableFuture<EngineState> listingAsync() {
    return merged(CliqueClient::listingAsync);
  }

  /** Every engine asked at once, and what answered merged. */
  private CompletableFuture<EngineState> merged(
      java.util.function.Function<CliqueClient, CompletableFuture<EngineState>> ask) {
    List<CompletableFuture<Outcome<EngineState>>> asked = new ArrayList<>();
    for (CliqueClient client : clients) {
      asked.add(outcome(ask.apply(client)));
    }
    return CompletableFuture.allOf(asked.toArray(CompletableFuture[]::new))
        .thenApply(
            done -> {
              List<Outcome<EngineState>> outcomes = new ArrayList<>();
              asked.forEach(one -> outcomes.add(one.join()));
              return merge(outcomes);
            });
  }

  /**
   * Held until some engine's sessions change, or {@code timeout}. {@code after} is a revision this
   * client gave: it stands for each engine's revision then, and each engine holds its own request
   * from there. The first engine to answer with a change (or to fail) ends the hold; the others'
   * held requests are cancelled and their sessions are those of {@code after}. A revision this
   * client never gave, or has forgotten, answers at once.
   */
  @Override
  public CompletableFuture<EngineState> stateAsync(long after, Duration timeout) {
    if (after < 0) {
      throw new IllegalArgumentException("after must be a revision the client gave, got " + after);
    }
    List<Outcome<EngineState>> before = revisions.outcomesOf(after);
    if (before == null || before.stream().noneMatch(Outcome::ok)) {
      return stateAsync();
    }
    return new Hold(before, timeout).start();
  }

  @Override
  public CompletableFuture<List<Session>> sessionsAsync() {
    return stateAsync().thenApply(EngineState::sessions);
  }

  @Override
  public CompletableFuture<Optional<Session>> sessionAsync(String id) {
    Route route = route(id);
    if (route == null) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    return named(
        route.name(),
        route
            .client()
            .sessionAsync(route.id())
            .thenApply(found -> found.map(session -> session(route.name(), session))));
  }

  @Override
  public CompletableFuture<Pane> peekAsync(String id) {
    return routed(id, CliqueClient::peekAsync);
  }

  @Override
  public CompletableFuture<Pane> peekAsync(String id, int lines) {
    return routed(id, (client, local) -> client.peekAsync(local, lines));
  }

  @Override
  public CompletableFuture<WaitResult> waitForAsync(
      String id, Duration timeout, SessionState... states) {
    Route route = route(id);
    if (route == null) {
      return CompletableFuture.failedFuture(noSuchEngine(id));
    }
    return named(
        route.name(),
        route
            .client()
            .waitForAsync(route.id(), timeout, states)
            .thenApply(
                result ->
                    read(
                        owned(route.name(), tree(result.json())),
                        text -> answers.waitResult(text, route.name() + SEPARATOR + result.id()))));
  }

  @Override
  public CompletableFuture<Conversation> conversationAsync(String id) {
    return routed(id, CliqueClient::conversationAsync);
  }

  /**
   * Every engine's health at once: ok when every engine answered ok, the counts summed over those
   * that answered, and {@code "engines"} saying how each answered.
   */
  @Override
  public CompletableFuture<Health> healthAsync() {
    List<CompletableFuture<Health>> asked = new ArrayList<>();
    for (CliqueClient client : clients) {
      asked.add(client.healthAsync());
    }
    return CompletableFuture.allOf(
            asked.stream().map(one -> one.handle((h, e) -> h)).toArray(CompletableFuture[]::new))
        .thenApply(done -> mergeHealth(asked));
  }

  @Override
  public String toString() {
    return "CliqueClient{engines=" + names + "}";
  }

  private Health mergeHealth(List<CompletableFuture<Health>> asked) {
    boolean ok = true;
    boolean tmux = true;
    int sessions = 0;
    int alive = 0;
    int attached = 0;
    Set<String> versions = new LinkedHashSet<>();
    List<Outcome<Health>> outcomes = new ArrayList<>();
    for (CompletableFuture<Health> one : asked) {
      Outcome<Health> answer = outcome(one).join();
      outcomes.add(answer);
      if (answer.ok()) {
        Health health = answer.value();
        ok &= health.ok();
        tmux &= health.tmux().orElse(true);
        health.version().ifPresent(versions::add);
        sessions += health.sessions().orElse(0);
        alive += health.alive().orElse(0);
        attached += health.attached().orElse(0);
      } else {
        ok = false;
      }
    }
    checkSomeAnswered(outcomes);
    ObjectNode merged = NODES.objectNode();
    merged.set("ok", NODES.booleanNode(ok));
    merged.set("version", NODES.textNode(String.join(", ", versions)));
    merged.set("tmux", NODES.booleanNode(tmux));
    merged.set("sessions", NODES.numberNode(sessions));
    merged.set("alive", NODES.numberNode(alive));
    merged.set("attached", NODES.numberNode(attached));
    merged.set("engines", reports(outcomes));
    return read(merged, answers::health);
  }

  /** The merged state of one outcome an engine; fails only when no engine answered. */
  private EngineState merge(List<Outcome<EngineState>> outcomes) {
    checkSomeAnswered(outcomes);
    Map<String, JsonNode> clis = new LinkedHashMap<>();
    Set<String> versions = new LinkedHashSet<>();
    for (Outcome<EngineState> outcome : outcomes) {
      if (outcome.ok()) {
        versions.add(outcome.value().version());
        for (Cli cli : outcome.value().clis()) {
          clis.computeIfAbsent(cli.id(), id -> tree(cli.json()));
        }
      }
    }
    ObjectNode merged = NODES.objectNode();
    merged.set("version", NODES.textNode(String.join(", ", versions)));
    merged.set("revision", NODES.numberNode(revisions.numberFor(outcomes)));
    ArrayNode rows = merged.putArray("sessions");
    for (int i = 0; i < outcomes.size(); i++) {
      if (outcomes.get(i).ok()) {
        for (Session session : outcomes.get(i).value().sessions()) {
          rows.add(owned(names.get(i), tree(session.json())));
        }
      }
    }
    if (!clis.isEmpty()) {
      merged.putArray("clis").addAll(clis.values());
    }
    merged.set("engines", reports(outcomes));
    return read(merged, answers::state);
  }

  private void checkSomeAnswered(List<? extends Outcome<?>> outcomes) {
    if (outcomes.stream().noneMatch(Outcome::ok)) {
      List<String> failures = new ArrayList<>();
      for (int i = 0; i < outcomes.size(); i++) {
        failures.add(names.get(i) + ": " + outcomes.get(i).error());
      }
      throw new CompletionException(
          new CliqueException(
              CliqueException.Kind.UNREACHABLE,
              "no engine answered: " + String.join("; ", failures),
              -1,
              null,
              null));
    }
  }

  /** {@code "engines"}: how each engine answered, in order. */
  private ArrayNode reports(List<? extends Outcome<?>> outcomes) {
    ArrayNode reports = NODES.arrayNode();
    for (int i = 0; i < outcomes.size(); i++) {
      String error = outcomes.get(i).error(); // null when it answered
      ObjectNode report = reports.addObject();
      report.set("name", NODES.textNode(names.get(i)));
      report.set("ok", NODES.booleanNode(error == null));
      report.set("error", error == null ? NODES.nullNode() : NODES.textNode(error));
    }
    return reports;
  }

  /**
   * A session row or wait answer of engine {@code name}: its id made {@code name:id}, its engine
   * named after it.
   */
  private static ObjectNode owned(String name, JsonNode row) {
    ObjectNode owned = NODES.objectNode();
    for (Map.Entry<String, JsonNode> field : row.properties()) {
      if (field.getKey().equals("id")) {
        owned.set("id", NODES.textNode(name + SEPARATOR + field.getValue().asText()));
        owned.set("engine", NODES.textNode(name));
      } else if (!field.getKey().equals("engine")) {
        owned.set(field.getKey(), field.getValue());
      }
    }
    return owned;
  }

  private Session session(String name, Session session) {
    return read(owned(name, tree(session.json())), answers::session);
  }

  private static JsonNode tree(String json) {
    try {
      return JsonTree.read(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a value's own JSON text did not read back", e);
    }
  }

  /** A merged answer's values, from the tree made of it: its text written once, never read back. */
  private static <T> T read(ObjectNode answer, AnswerParser<T> parser) {
    try {
      return parser.parse(JsonText.of(answer));
    } catch (MalformedAnswer e) {
      throw new IllegalStateException("a merged answer did not read back: " + e.getMessage(), e);
    }
  }

  private <T> CompletableFuture<T> routed(
      String id, BiFunction<CliqueClient, String, CompletableFuture<T>> call) {
    Route route = route(id);
    if (route == null) {
      return CompletableFuture.failedFuture(noSuchEngine(id));
    }
    return named(route.name(), call.apply(route.client(), route.id()));
  }

  /**
   * The call's answer, or its failure with the engine's name before its message: over several
   * engines, which one failed is the first thing to know.
   */
  private static <T> CompletableFuture<T> named(String engine, CompletableFuture<T> call) {
    CompletableFuture<T> named = new CompletableFuture<>();
    call.whenComplete(
        (value, failure) -> {
          if (failure == null) {
            named.complete(value);
            return;
          }
          Throwable cause = Sync.cause(failure);
          named.completeExceptionally(
              cause instanceof CliqueException clique
                  ? new CliqueException(
                      clique.kind(),
                      "engine " + engine + ": " + clique.getMessage(),
                      clique.status().orElse(-1),
                      clique.engineError().orElse(null),
                      clique)
                  : cause);
        });
    // Cancelling the answer cancels the call: a held wait is let go at its engine too.
    named.whenComplete(
        (value, failure) -> {
          if (named.isCancelled()) {
            call.cancel(true);
          }
        });
    return named;
  }

  /** The engine an id names and its own id there; {@code null} when it names none. */
  private Route route(String id) {
    Objects.requireNonNull(id, "id");
    if (id.isBlank()) {
      throw new IllegalArgumentException("a session id must not be blank");
    }
    int separator = id.indexOf(SEPARATOR);
    if (separator <= 0 || separator == id.length() - 1) {
      return null;
    }
    int engine = names.indexOf(id.substring(0, separator));
    return engine < 0
        ? null
        : new Route(names.get(engine), clients.get(engine), id.substring(separator + 1));
  }

  private CliqueException noSuchEngine(String id) {
    return new CliqueException(
        CliqueException.Kind.NOT_FOUND,
        "no session `"
            + Failures.excerpt(id)
            + "`: over several engines a session id is `<engine>:<id>`, the engines being "
            + String.join(", ", names),
        -1,
        null,
        null);
  }

  private static <T> CompletableFuture<Outcome<T>> outcome(CompletableFuture<T> call) {
    return call.handle(
        (value, failure) -> failure == null ? Outcome.of(value) : Outcome.<T>failed(failure));
  }

  private record Route(String name, CliqueClient client, String id) {}

  /** What one engine answered: a value, or why there is none. */
  record Outcome<T>(T value, String error) {
    static <T> Outcome<T> of(T value) {
      return new Outcome<>(value, null);
    }

    static <T> Outcome<T> failed(Throwable failure) {
      Throwable cause = Sync.cause(failure);
      // The engine's own client wrote the message, its token scrubbed from it.
      String message = cause instanceof CliqueException ? cause.getMessage() : cause.toString();
      return new Outcome<>(null, message == null ? cause.getClass().getSimpleName() : message);
    }

    boolean ok() {
      return error == null;
    }

    /** The same revision of the same engine, or the same failure. */
    static boolean sameAs(Outcome<EngineState> one, Outcome<EngineState> other) {
      if (one.ok() != other.ok()) {
        return false;
      }
      return one.ok()
          ? one.value().revision() == other.value().revision()
          : one.error().equals(other.error());
    }
  }

  /**
   * One held {@code stateAsync(after, timeout)}: a held request an engine, the first change wins.
   */
  private final class Hold {
    private final List<Outcome<EngineState>> before;
    private final Duration timeout;
    private final List<Outcome<EngineState>> now;
    private final List<CompletableFuture<EngineState>> held = new ArrayList<>();
    private final CompletableFuture<EngineState> result = new CompletableFuture<>();
    private int pending;

    Hold(List<Outcome<EngineState>> before, Duration timeout) {
      this.before = before;
      this.timeout = timeout;
      this.now = new ArrayList<>(before);
    }

    CompletableFuture<EngineState> start() {
      List<Integer> asking = new ArrayList<>();
      for (int i = 0; i < before.size(); i++) {
        if (before.get(i).ok()) {
          asking.add(i);
        }
      }
      synchronized (this) {
        pending = asking.size();
        for (int i : asking) {
          long revision = before.get(i).value().revision();
          CompletableFuture<EngineState> hold;
          try {
            hold = clients.get(i).stateAsync(revision, timeout);
          } catch (RuntimeException e) {
            hold = CompletableFuture.failedFuture(e);
          }
          held.add(hold);
        }
      }
      for (int k = 0; k < asking.size(); k++) {
        int engine = asking.get(k);
        held.get(k).whenComplete((state, failure) -> answered(engine, state, failure));
      }
      result.whenComplete((state, failure) -> held.forEach(hold -> hold.cancel(true)));
      return result;
    }

    private void answered(int engine, EngineState state, Throwable failure) {
      EngineState merged;
      synchronized (this) {
        if (result.isDone()) {
          return; // a hold cancelled once another engine changed
        }
        now.set(engine, failure == null ? Outcome.of(state) : Outcome.failed(failure));
        pending--;
        if (Outcome.sameAs(now.get(engine), before.get(engine)) && pending > 0) {
          return;
        }
        try {
          merged = merge(now);
        } catch (CompletionException e) {
          result.completeExceptionally(e.getCause());
          return;
        } catch (RuntimeException e) {
          result.completeExceptionally(e);
          return;
        }
      }
      result.complete(merged);
    }
  }

  /**
   * The revisions this client gave: each stands for one outcome an engine, so that a held call
   * {@code after} it can hold each engine from its own revision. The same outcomes get the same
   * number; a few dozen are kept, as the callers that hold ask after the latest.
   */
  static final class MergedRevisions {
    private static final int KEPT = 64;

    private final LinkedHashMap<Long, List<Outcome<EngineState>>> kept =
        new LinkedHashMap<>() {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<Long, List<Outcome<EngineState>>> eldest) {
            return size() > KEPT;
          }
        };
    private long latest;

    synchronized long numberFor(List<Outcome<EngineState>> outcomes) {
      List<Outcome<EngineState>> last = kept.get(latest);
      if (last != null && same(last, outcomes)) {
        return latest;
      }
      // Time-based like an engine's, so that a restarted client never gives an old number anew.
      latest = Math.max(latest + 1, System.currentTimeMillis());
      kept.putIfAbsent(latest, List.copyOf(outcomes));
      return latest;
    }

    synchronized List<Outcome<EngineState>> outcomesOf(long revision) {
      return kept.get(revision);
    }

    private static boolean same(List<Outcome<EngineState>> a, List<Outcome<EngineState>> b) {
      for (int i = 0; i < a.size(); i++) {
        if (!Outcome.sameAs(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
  }
}
