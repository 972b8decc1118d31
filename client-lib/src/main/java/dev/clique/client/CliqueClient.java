package dev.clique.client;

import dev.clique.client.internal.FanOutClient;
import dev.clique.client.internal.HttpCliqueClient;
import dev.clique.client.internal.Sync;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import okhttp3.OkHttpClient;

/**
 * A read-only client of a clique engine's HTTP API: it can see every session and cannot type into
 * any of them, because the only request it can make is a {@code GET}.
 *
 * <pre>{@code
 * CliqueClient client = CliqueClient.builder()
 *     .baseUrl("http://127.0.0.1:3200")
 *     .token(System.getenv("CLIQUE_TOKEN"))
 *     .build();
 * for (Session s : client.sessions()) {
 *   System.out.println(s.name() + ": " + s.state());
 * }
 * WaitResult w = client.waitFor(id, Duration.ofSeconds(60), SessionState.IDLE, SessionState.WAITING);
 * }</pre>
 *
 * <p>The token goes over plain {@code http://} only to this machine ({@code localhost}, {@code
 * 127.0.0.0/8}, {@code ::1}) unless {@link Builder#allowPlainHttp(boolean)} says otherwise; an
 * engine elsewhere is reached over {@code https://}, trusted through the JVM's trust store or its
 * {@link Builder#certificateSha256(String) pinned certificate}, or through an SSH forward.
 *
 * <p>Every call sends {@code Authorization: Bearer <token>} and {@code Accept: application/json},
 * follows no redirect (a 3xx is an error, and the token is never sent to the new location) and uses
 * no proxy. Ordinary reads time out after 30 s; a wait after its own time-out plus 15 s, so the
 * connection outlives the engine's answer. Connections are pooled and kept alive.
 *
 * <p>A client is immutable and thread-safe: build one and share it. The asynchronous methods are
 * the core: each future completes on an HTTP thread, exceptionally with a {@link CliqueException};
 * {@link CompletableFuture#cancel(boolean) cancel} on that future aborts the HTTP call. Futures
 * derived from it ({@code thenApply}, ...) do not pass a cancel back. Each blocking method is a
 * default that waits for its asynchronous twin and throws the {@link CliqueException} the future
 * failed with; interrupting the waiting thread aborts the call, keeps the thread's interrupt status
 * and throws a {@link CliqueException.Kind#TIMEOUT}.
 *
 * <p>An implementation (a fake in a test, a proxy) implements {@link #baseUrl()} and the nine
 * {@code ...Async} methods; the blocking ones come with them.
 *
 * <p>A client's {@code toString()} never shows the token.
 */
public interface CliqueClient {

  /**
   * Starts building a client.
   *
   * @return a new builder, with the default URL {@value CliqueClient.Builder#DEFAULT_URL}
   */
  static Builder builder() {
    return new Builder();
  }

  /**
   * One client over several engines, each the source of truth for its machine. {@link
   * #stateAsync()} and {@link #sessionsAsync()} ask every engine at once and merge what answered:
   * each session carries its engine's name ({@link Session#engine()}) and the id {@code
   * <engine>:<its id>}; an engine that did not answer (down, slower than its client's time-out,
   * refusing its token) leaves its sessions out and is named, with why, in {@link
   * EngineState#engines()}. Only when no engine answers does the call fail. Every other call takes
   * such an id and goes to its engine alone, through that engine's client: a token never reaches
   * another engine. {@link #stateAsync(long, Duration)} holds each engine's request from its own
   * revision and answers at the first change.
   *
   * @param engines each engine's client by the engine's name (letters, digits, {@code _ . -}), in
   *     the order answers list them
   * @return the client over them all
   * @throws IllegalArgumentException when there is no engine or a name is not valid
   */
  static CliqueClient overEngines(Map<String, ? extends CliqueClient> engines) {
    return new FanOutClient(engines, Answers.READER);
  }

  /**
   * The engine this client talks to, e.g. {@code http://127.0.0.1:3200}.
   *
   * @return the base URL, without a trailing slash
   */
  String baseUrl();

  /**
   * Everything {@code GET /api/state} answers: version, sessions and CLI catalogue.
   *
   * @return the engine's state
   * @throws CliqueException if the call fails
   */
  default EngineState state() throws CliqueException {
    return Sync.await(stateAsync());
  }

  /**
   * The state once it has changed since {@code after}, a {@link EngineState#revision() revision} an
   * earlier state gave ({@code GET /api/state?after=N&timeout=T}): the engine holds the call until
   * a session appears or goes away, or a session's state, attention or state source changes. When
   * {@code timeout} passes first it answers the state with the same revision. A revision the engine
   * never gave (it was restarted) answers at once.
   *
   * <pre>{@code
   * EngineState state = client.state();
   * while (true) {
   *   state = client.state(state.revision(), Duration.ofSeconds(60));
   *   redraw(state.sessions());
   * }
   * }</pre>
   *
   * <p>The engine caps the time-out at 300 s; this call gives up {@link
   * Builder#waitMargin(Duration) 15 s} after it.
   *
   * @param after the revision of the state the caller has
   * @param timeout how long the engine may hold the call; {@code null} leaves it to the engine (60
   *     s)
   * @return the engine's state, with its revision
   * @throws CliqueException if the call fails
   * @throws IllegalArgumentException if {@code after} or {@code timeout} is negative
   */
  default EngineState state(long after, Duration timeout) throws CliqueException {
    return Sync.await(stateAsync(after, timeout));
  }

  /**
   * The state as a list of sessions shows it ({@code GET /api/state?usage=brief}): each session's
   * {@link Session#usage() usage} is only {@link Usage#tokens()} and {@link Usage#contextPercent()}
   * (or {@link Usage#contextTokens()} when the window is unknown), and it has no {@link
   * Session#limits() limits}. Less to send and read when there are many sessions; {@link #state()}
   * has everything.
   *
   * @return the engine's state, its usage in brief
   * @throws CliqueException if the call fails
   */
  default EngineState listing() throws CliqueException {
    return Sync.await(listingAsync());
  }

  /**
   * Every session of the engine ({@code GET /api/state}).
   *
   * @return the sessions, in the engine's order
   * @throws CliqueException if the call fails
   */
  default List<Session> sessions() throws CliqueException {
    return Sync.await(sessionsAsync());
  }

  /**
   * One session: {@code GET /api/state}, then the row with that id.
   *
   * @param id a session id
   * @return that session, or empty when the engine has none with that id
   * @throws CliqueException if the call fails
   */
  default Optional<Session> session(String id) throws CliqueException {
    return Sync.await(sessionAsync(id));
  }

  /**
   * The last lines of a session's pane, as many as the engine gives by default ({@code GET
   * /api/sessions/{id}/peek}).
   *
   * @param id a session id
   * @return the pane's last lines
   * @throws CliqueException if the call fails; {@link CliqueException.Kind#NOT_FOUND} for an
   *     unknown id
   * @throws IllegalArgumentException if {@code id} is blank, {@code "."} or {@code ".."}
   */
  default Pane peek(String id) throws CliqueException {
    return Sync.await(peekAsync(id));
  }

  /**
   * The last {@code lines} lines of a session's pane ({@code GET /api/sessions/{id}/peek?lines=N}).
   * The engine clamps {@code lines} to what it allows (ours to 200, a CLIque panel to 40).
   *
   * @param id a session id
   * @param lines how many lines, at least 1
   * @return the pane's last lines
   * @throws CliqueException if the call fails; {@link CliqueException.Kind#NOT_FOUND} for an
   *     unknown id
   * @throws IllegalArgumentException if {@code lines < 1} or {@code id} is not a usable id
   */
  default Pane peek(String id, int lines) throws CliqueException {
    return Sync.await(peekAsync(id, lines));
  }

  /**
   * Blocks until the session is in one of {@code states} or {@code timeout} passes ({@code GET
   * /api/sessions/{id}/wait?for=S1,S2&timeout=T}).
   *
   * <p>The engine caps the time-out (ours and CLIque's at 300 s). This call gives up {@link
   * Builder#waitMargin(Duration) 15 s} after {@code timeout} (after 75 s when it is omitted).
   *
   * @param id a session id
   * @param timeout how long the engine may wait; {@code null} leaves it to the engine (60 s)
   * @param states the states to wait for; none means the engine's default, {@code idle}
   * @return the state when the wait ended and whether it matched
   * @throws CliqueException if the call fails; {@link CliqueException.Kind#NOT_FOUND} for an
   *     unknown id
   * @throws IllegalArgumentException if {@code timeout} is negative, a state is {@link
   *     SessionState#GONE} or {@link SessionState#UNKNOWN} (nothing to wait for), or {@code id} is
   *     not a usable id
   */
  default WaitResult waitFor(String id, Duration timeout, SessionState... states)
      throws CliqueException {
    return Sync.await(waitForAsync(id, timeout, states));
  }

  /**
   * What was said in a session, from the CLI's own transcript ({@code GET
   * /api/sessions/{id}/transcript}).
   *
   * @param id a session id
   * @return the conversation; no turns for a CLI without a readable transcript
   * @throws CliqueException if the call fails; {@link CliqueException.Kind#NOT_FOUND} for an
   *     unknown id
   */
  default Conversation conversation(String id) throws CliqueException {
    return Sync.await(conversationAsync(id));
  }

  /**
   * The engine's health ({@code GET /healthz}); the details come only when the token is known.
   *
   * @return the engine's health
   * @throws CliqueException if the call fails
   */
  default Health health() throws CliqueException {
    return Sync.await(healthAsync());
  }

  /**
   * The asynchronous twin of {@link #state()}.
   *
   * @return a future of the engine's state; cancelling it aborts the call
   */
  CompletableFuture<EngineState> stateAsync();

  /**
   * The asynchronous twin of {@link #state(long, Duration)}.
   *
   * @param after the revision of the state the caller has
   * @param timeout how long the engine may hold the call; {@code null} leaves it to the engine
   * @return a future of the engine's state; cancelling it aborts the held call
   * @throws IllegalArgumentException as {@link #state(long, Duration)} does, at once
   */
  CompletableFuture<EngineState> stateAsync(long after, Duration timeout);

  /**
   * The asynchronous twin of {@link #listing()}.
   *
   * @return a future of the engine's state, its usage in brief; cancelling it aborts the call
   */
  CompletableFuture<EngineState> listingAsync();

  /**
   * The asynchronous twin of {@link #sessions()}.
   *
   * @return a future of the sessions; cancelling it aborts the call
   */
  CompletableFuture<List<Session>> sessionsAsync();

  /**
   * The asynchronous twin of {@link #session(String)}.
   *
   * @param id a session id
   * @return a future of that session or empty; cancelling it aborts the call
   */
  CompletableFuture<Optional<Session>> sessionAsync(String id);

  /**
   * The asynchronous twin of {@link #peek(String)}.
   *
   * @param id a session id
   * @return a future of the pane; cancelling it aborts the call
   * @throws IllegalArgumentException as {@link #peek(String)} does, at once
   */
  CompletableFuture<Pane> peekAsync(String id);

  /**
   * The asynchronous twin of {@link #peek(String, int)}.
   *
   * @param id a session id
   * @param lines how many lines, at least 1
   * @return a future of the pane; cancelling it aborts the call
   * @throws IllegalArgumentException as {@link #peek(String, int)} does, at once
   */
  CompletableFuture<Pane> peekAsync(String id, int lines);

  /**
   * The asynchronous twin of {@link #waitFor(String, Duration, SessionState...)}.
   *
   * @param id a session id
   * @param timeout how long the engine may wait; {@code null} leaves it to the engine
   * @param states the states to wait for; none means {@code idle}
   * @return a future of the wait's answer; cancelling it aborts the pending wait
   * @throws IllegalArgumentException as {@link #waitFor(String, Duration, SessionState...)} does,
   *     at once
   */
  CompletableFuture<WaitResult> waitForAsync(String id, Duration timeout, SessionState... states);

  /**
   * The asynchronous twin of {@link #conversation(String)}.
   *
   * @param id a session id
   * @return a future of the conversation; cancelling it aborts the call
   * @throws IllegalArgumentException as {@link #conversation(String)} does, at once
   */
  CompletableFuture<Conversation> conversationAsync(String id);

  /**
   * The asynchronous twin of {@link #health()}.
   *
   * @return a future of the engine's health; cancelling it aborts the call
   */
  CompletableFuture<Health> healthAsync();

  /**
   * Builds a {@link CliqueClient}. Not thread-safe; {@link #toString()} never shows the token.
   *
   * <pre>{@code
   * CliqueClient client = CliqueClient.builder()
   *     .baseUrl(URI.create("https://clique.example.org/panel/"))
   *     .token(token)
   *     .okHttpClient(shared)          // optional: share its connection pool and threads
   *     .timeout(Duration.ofSeconds(10))
   *     .build();
   * }</pre>
   */
  final class Builder {
    /** The URL used when none is given: a local engine on its default port. */
    public static final String DEFAULT_URL = "http://127.0.0.1:3200";

    private String baseUrl = DEFAULT_URL;
    private String token;
    private OkHttpClient okHttpClient;
    private Duration timeout = Duration.ofSeconds(30);
    private Duration waitMargin = Duration.ofSeconds(15);
    private String certificateSha256;
    private boolean allowPlainHttp;

    private Builder() {}

    /**
     * The engine's base URL: {@code http://} or {@code https://}, optionally with a path prefix and
     * a trailing slash, e.g. {@code https://box.example.org/clique/}.
     *
     * @param baseUrl the URL
     * @return this builder
     * @throws IllegalArgumentException if it is not an http or https URL, or carries a user name or
     *     password
     */
    public Builder baseUrl(String baseUrl) {
      Objects.requireNonNull(baseUrl, "baseUrl");
      HttpCliqueClient.checkBaseUrl(baseUrl, token);
      this.baseUrl = baseUrl;
      return this;
    }

    /**
     * The engine's base URL, as {@link #baseUrl(String)}.
     *
     * @param baseUrl the URL
     * @return this builder
     * @throws IllegalArgumentException if it is not an http or https URL
     */
    public Builder baseUrl(URI baseUrl) {
      return baseUrl(Objects.requireNonNull(baseUrl, "baseUrl").toString());
    }

    /**
     * The bearer token ({@code mxp_...}); a read-only one is enough for everything this client
     * does.
     *
     * @param token the token, e.g. {@code System.getenv("CLIQUE_TOKEN")}
     * @return this builder
     * @throws IllegalArgumentException if it is {@code null}, blank or has characters a header
     *     cannot carry; the message says how to make a token
     */
    public Builder token(String token) {
      this.token = HttpCliqueClient.checkToken(token);
      return this;
    }

    /**
     * An {@link OkHttpClient} to derive from, so the client shares its connection pool and
     * dispatcher threads. The derived client still follows no redirect, uses no proxy and sets its
     * own time-outs per call. Its dispatcher's limits ({@code maxRequestsPerHost}, 5 by default)
     * bound how many calls run at once (blocking ones too: they are asynchronous calls waited for);
     * raise them for many concurrent waits. Without one, the client makes its own, without such a
     * limit.
     *
     * @param okHttpClient the client to derive from
     * @return this builder
     */
    public Builder okHttpClient(OkHttpClient okHttpClient) {
      this.okHttpClient = Objects.requireNonNull(okHttpClient, "okHttpClient");
      return this;
    }

    /**
     * How long an ordinary read may take, from connecting to the last byte; 30 s by default.
     *
     * @param timeout a positive duration
     * @return this builder
     * @throws IllegalArgumentException if it is zero or negative
     */
    public Builder timeout(Duration timeout) {
      this.timeout = positive(timeout, "timeout");
      return this;
    }

    /**
     * How much longer than its own time-out a wait may take before the client gives up; 15 s by
     * default. A wait without a time-out is given the engine's default, 60 s, plus this.
     *
     * @param waitMargin a positive duration
     * @return this builder
     * @throws IllegalArgumentException if it is zero or negative
     */
    public Builder waitMargin(Duration waitMargin) {
      this.waitMargin = positive(waitMargin, "waitMargin");
      return this;
    }

    /**
     * Trusts exactly one certificate, the engine's own, known by the SHA-256 of its DER encoding:
     * the fingerprint {@code clique serve} prints when it starts with TLS, and {@code openssl x509
     * -noout -fingerprint -sha256} prints of its certificate.
     *
     * <p>With a pin, the engine's certificate need not chain to a trusted root (a self-signed one
     * is the usual case), and any other certificate is refused, the error naming the fingerprint
     * expected and the one seen. The pin is the engine's identity: the host name in the URL is not
     * checked against the certificate, so the engine can be reached by any name or address (an SSH
     * forward, a bare address). Without a pin, an {@code https://} URL is checked as usual: the
     * JVM's trust store and the host name.
     *
     * @param fingerprint {@code AB:CD:...} (32 bytes in hex, parted by colons) or 64 hex digits, in
     *     either case
     * @return this builder
     * @throws IllegalArgumentException if it is neither of those forms; {@link #build()} refuses a
     *     pin with an {@code http://} URL
     */
    public Builder certificateSha256(String fingerprint) {
      this.certificateSha256 = HttpCliqueClient.checkCertificateSha256(fingerprint);
      return this;
    }

    /**
     * Allows the token to go over plain {@code http://} to a host that is not this machine. Off by
     * default: {@link #build()} then refuses an {@code http://} URL whose host is not {@code
     * localhost}, in {@code 127.0.0.0/8} or {@code ::1}, because anyone on the way could read the
     * token. Prefer an {@code https://} engine or an SSH forward to {@code 127.0.0.1}; allow this
     * only on a network you trust.
     *
     * @param allow whether plain HTTP to another machine is allowed
     * @return this builder
     */
    public Builder allowPlainHttp(boolean allow) {
      this.allowPlainHttp = allow;
      return this;
    }

    /**
     * Builds the client. Cheap: nothing is contacted until the first call.
     *
     * @return a new client
     * @throws IllegalArgumentException if no token was given, the URL is not an http or https URL,
     *     a certificate pin is given for an {@code http://} URL, or the URL is {@code http://} to
     *     another machine without {@link #allowPlainHttp(boolean)}; the message says what to do
     */
    public CliqueClient build() {
      if (token == null) {
        throw new IllegalArgumentException(HttpCliqueClient.TOKEN_REQUIRED);
      }
      return new HttpCliqueClient(
          baseUrl,
          token,
          okHttpClient,
          timeout,
          waitMargin,
          Answers.READER,
          certificateSha256,
          allowPlainHttp);
    }

    /**
     * Describes the builder without its token.
     *
     * @return e.g. {@code CliqueClient.Builder{baseUrl=http://127.0.0.1:3200, token=mxp_…}}
     */
    @Override
    public String toString() {
      return "CliqueClient.Builder{baseUrl="
          + HttpCliqueClient.displayUrl(baseUrl, token)
          + ", token="
          + (token == null ? "none" : "mxp_…")
          + ", timeout="
          + timeout
          + ", waitMargin="
          + waitMargin
          + (certificateSha256 == null ? "" : ", certificateSha256=" + certificateSha256)
          + (allowPlainHttp ? ", allowPlainHttp=true" : "")
          + "}";
    }

    private static Duration positive(Duration value, String name) {
      Objects.requireNonNull(value, name);
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(name + " must be positive, got " + value);
      }
      return value;
    }
  }
}
