package dev.clique.client.internal;

import dev.clique.client.CliqueClient;
import dev.clique.client.Conversation;
import dev.clique.client.EngineState;
import dev.clique.client.Health;
import dev.clique.client.Pane;
import dev.clique.client.Session;
import dev.clique.client.SessionState;
import dev.clique.client.WaitResult;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/** The {@link CliqueClient} that {@link CliqueClient.Builder} builds: routes, over one GET. */
public final class HttpCliqueClient implements CliqueClient {
  /** Said whenever a token is missing; names the command that makes one. */
  public static final String TOKEN_REQUIRED =
      "a clique token is required: make one with `clique token create <name> --read-only`";

  /** What the engine waits when the caller leaves the time-out out (HTTP-API.md). */
  static final Duration ENGINE_DEFAULT_WAIT = Duration.ofSeconds(60);

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  private static final EnumSet<SessionState> NOT_WAITABLE =
      EnumSet.of(SessionState.GONE, SessionState.UNKNOWN);

  private final HttpUrl base;
  private final String baseUrl;
  private final Duration readTimeout;
  private final Duration waitMargin;
  private final GetOnlyHttp http;
  private final AnswerReader answers;

  /**
   * Made by {@link CliqueClient.Builder#build()}, which has checked the token and durations.
   *
   * @param baseUrl the engine's URL, as the caller gave it
   * @param token the bearer token
   * @param supplied the caller's client to derive from, or {@code null}
   * @param timeout the time-out of an ordinary read
   * @param waitMargin how much longer than its own time-out a wait may take
   * @param answers the readers of the engine's answers
   * @param certificateSha256 the SHA-256 fingerprint of the one certificate to trust, or {@code
   *     null} for the JVM's trust store
   * @param allowPlainHttp whether the token may go over plain HTTP to a host that is not loopback
   * @throws IllegalArgumentException if the fingerprint is malformed, a pin is given for an {@code
   *     http://} URL, or the URL is plain HTTP to another machine and that was not allowed
   */
  public HttpCliqueClient(
      String baseUrl,
      String token,
      OkHttpClient supplied,
      Duration timeout,
      Duration waitMargin,
      AnswerReader answers,
      String certificateSha256,
      boolean allowPlainHttp) {
    this.answers = answers;
    this.base = parseBaseUrl(baseUrl, token);
    this.baseUrl = display(base);
    this.readTimeout = timeout;
    this.waitMargin = waitMargin;
    PinnedCertificate pinned =
        certificateSha256 == null ? null : PinnedCertificate.parse(certificateSha256);
    if (pinned != null && !base.isHttps()) {
      throw new IllegalArgumentException(
          "a certificate pin is for an https:// engine, and `"
              + new TokenScrubber(token).scrub(this.baseUrl)
              + "` is plain http://: use the engine's https:// URL");
    }
    if (!base.isHttps() && !allowPlainHttp && !isLoopback(base.host())) {
      throw new IllegalArgumentException(
          new TokenScrubber(token).scrub(plainHttpRefused(base.host())));
    }
    Failures failures = new Failures(this.baseUrl, new TokenScrubber(token));
    this.http =
        new GetOnlyHttp(GetOnlyHttp.httpClient(supplied, !base.isHttps(), pinned), token, failures);
  }

  /**
   * Checks a certificate fingerprint, refusing what is not one.
   *
   * @param fingerprint {@code AB:CD:...} or 64 hex digits, in either case
   * @return the fingerprint as openssl prints it: upper-case, bytes parted by colons
   * @throws IllegalArgumentException if it is not 32 bytes in one of those forms
   */
  public static String checkCertificateSha256(String fingerprint) {
    return PinnedCertificate.parse(fingerprint).fingerprint();
  }

  /**
   * This machine by its address or its one name: {@code localhost}, {@code 127.0.0.0/8}, {@code
   * ::1}. No name is looked up, so no other name counts, whatever it resolves to.
   */
  static boolean isLoopback(String host) {
    if (host.equals("localhost")) {
      return true;
    }
    if (!host.contains(":") && !IPV4.matcher(host).matches()) {
      return false;
    }
    try {
      return InetAddress.getByName(host).isLoopbackAddress(); // a literal: nothing is looked up
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static String plainHttpRefused(String host) {
    return "refusing to send the clique token over plain http:// to "
        + host
        + ", which is not this machine: anyone on the way could read it. Use the engine's"
        + " https:// URL, or an SSH forward (`ssh -N -L 3201:127.0.0.1:3200 user@"
        + host
        + "`, then http://127.0.0.1:3201), or, on a network you trust, allow it explicitly with"
        + " CliqueClient.Builder.allowPlainHttp(true)";
  }

  /**
   * Checks a base URL, refusing what this client cannot use.
   *
   * @param raw the URL as given
   * @param token the token, if known, so that no message can show it
   * @throws IllegalArgumentException if it is not a usable http or https URL
   */
  public static void checkBaseUrl(String raw, String token) {
    parseBaseUrl(raw, token);
  }

  private static HttpUrl parseBaseUrl(String raw, String token) {
    HttpUrl url = HttpUrl.parse(raw.strip());
    if (url == null) {
      throw new IllegalArgumentException(
          "the clique URL must be an http:// or https:// URL, got `"
              + new TokenScrubber(token).scrub(Failures.excerpt(raw))
              + "`");
    }
    if (!url.username().isEmpty() || !url.password().isEmpty()) {
      throw new IllegalArgumentException(
          "the clique URL must not carry a user name or password: the token is sent in a header");
    }
    if (url.query() != null || url.fragment() != null) {
      throw new IllegalArgumentException(
          "the clique URL must not have a query or a fragment, got `"
              + new TokenScrubber(token).scrub(display(url))
              + "`");
    }
    return url;
  }

  /**
   * Checks a token and takes surrounding white space off it.
   *
   * @param token the token as given
   * @return the token, stripped
   * @throws IllegalArgumentException if it is {@code null}, blank, or has a character a header
   *     cannot carry; the message never shows the token
   */
  public static String checkToken(String token) {
    if (token == null || token.isBlank()) {
      throw new IllegalArgumentException(TOKEN_REQUIRED);
    }
    String stripped = token.strip();
    for (int i = 0; i < stripped.length(); i++) {
      char c = stripped.charAt(i);
      if (c < 0x21 || c > 0x7e) {
        throw new IllegalArgumentException(
            "the clique token has a character a header cannot carry (white space, a control"
                + " character or non-ASCII); "
                + TOKEN_REQUIRED);
      }
    }
    return stripped;
  }

  /**
   * A base URL for people to read: without a trailing slash, and without the token.
   *
   * @param raw the URL as given
   * @param token the token, if known
   * @return the URL to show
   */
  public static String displayUrl(String raw, String token) {
    HttpUrl url = HttpUrl.parse(raw.strip());
    String shown = url == null ? Failures.excerpt(raw) : display(url);
    return new TokenScrubber(token).scrub(shown);
  }

  private static String display(HttpUrl url) {
    String text = url.newBuilder().username("").password("").build().toString();
    return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
  }

  /**
   * The OkHttp client calls go through, for tests of its settings.
   *
   * @return the derived client
   */
  public OkHttpClient okHttpClient() {
    return http.client();
  }

  @Override
  public String baseUrl() {
    return baseUrl;
  }

  @Override
  public CompletableFuture<EngineState> stateAsync() {
    return http.getAsync(url("api", "state"), readTimeout, answers::state);
  }

  @Override
  public CompletableFuture<EngineState> stateAsync(long after, Duration timeout) {
    return http.getAsync(stateUrl(after, timeout), waitLimit(timeout), answers::state);
  }

  @Override
  public CompletableFuture<EngineState> listingAsync() {
    HttpUrl url = url("api", "state").newBuilder().addQueryParameter("usage", "brief").build();
    return http.getAsync(url, readTimeout, answers::state);
  }

  @Override
  public CompletableFuture<List<Session>> sessionsAsync() {
    return http.getAsync(
        url("api", "state"), readTimeout, answer -> answers.state(answer).sessions());
  }

  @Override
  public CompletableFuture<Optional<Session>> sessionAsync(String id) {
    checkId(id);
    return http.getAsync(
        url("api", "state"), readTimeout, answer -> answers.state(answer).session(id));
  }

  @Override
  public CompletableFuture<Pane> peekAsync(String id) {
    return http.getAsync(peekUrl(id, null), readTimeout, answers::pane);
  }

  @Override
  public CompletableFuture<Pane> peekAsync(String id, int lines) {
    return http.getAsync(peekUrl(id, lines), readTimeout, answers::pane);
  }

  @Override
  public CompletableFuture<WaitResult> waitForAsync(
      String id, Duration timeout, SessionState... states) {
    return http.getAsync(
        waitUrl(id, timeout, states), waitLimit(timeout), answer -> answers.waitResult(answer, id));
  }

  @Override
  public CompletableFuture<Conversation> conversationAsync(String id) {
    return http.getAsync(sessionUrl(id, "transcript").build(), readTimeout, answers::conversation);
  }

  @Override
  public CompletableFuture<Health> healthAsync() {
    return http.getAsync(url("healthz"), readTimeout, answers::health);
  }

  @Override
  public String toString() {
    return "CliqueClient{baseUrl=" + baseUrl + ", token=" + TokenScrubber.MASK + "}";
  }

  private HttpUrl url(String... segments) {
    HttpUrl.Builder url = base.newBuilder();
    for (String segment : segments) {
      url.addPathSegment(segment);
    }
    return url.build();
  }

  private HttpUrl.Builder sessionUrl(String id, String route) {
    checkId(id);
    return base.newBuilder()
        .addPathSegment("api")
        .addPathSegment("sessions")
        .addPathSegment(id)
        .addPathSegment(route);
  }

  private HttpUrl peekUrl(String id, Integer lines) {
    HttpUrl.Builder url = sessionUrl(id, "peek");
    if (lines != null) {
      if (lines < 1) {
        throw new IllegalArgumentException("lines must be at least 1, got " + lines);
      }
      url.addQueryParameter("lines", Integer.toString(lines));
    }
    return url.build();
  }

  private HttpUrl waitUrl(String id, Duration timeout, SessionState... states) {
    HttpUrl.Builder url = sessionUrl(id, "wait");
    if (states != null && states.length > 0) {
      for (SessionState state : states) {
        Objects.requireNonNull(state, "states must not contain null");
        if (NOT_WAITABLE.contains(state)) {
          throw new IllegalArgumentException(
              "cannot wait for "
                  + state.wireName()
                  + ": the engine waits for working, waiting, error, idle or stopped");
        }
      }
      // Wire names are lower-case letters, so the comma list goes out as is, not as %2C.
      url.addEncodedQueryParameter(
          "for",
          Arrays.stream(states)
              .distinct()
              .map(SessionState::wireName)
              .collect(Collectors.joining(",")));
    }
    addTimeout(url, timeout);
    return url.build();
  }

  private HttpUrl stateUrl(long after, Duration timeout) {
    if (after < 0) {
      throw new IllegalArgumentException("after must be a revision the engine gave, got " + after);
    }
    HttpUrl.Builder url = url("api", "state").newBuilder();
    url.addQueryParameter("after", Long.toString(after));
    addTimeout(url, timeout);
    return url.build();
  }

  private static void addTimeout(HttpUrl.Builder url, Duration timeout) {
    if (timeout != null) {
      if (timeout.isNegative()) {
        throw new IllegalArgumentException("timeout must not be negative, got " + timeout);
      }
      url.addQueryParameter("timeout", Seconds.format(timeout));
    }
  }

  /** The socket outlives the engine's own answer by the margin. */
  private Duration waitLimit(Duration timeout) {
    Duration engineWaits = timeout == null ? ENGINE_DEFAULT_WAIT : timeout;
    try {
      return engineWaits.plus(waitMargin);
    } catch (ArithmeticException tooLong) {
      return engineWaits;
    }
  }

  /** Ids go into the path: {@code .} and {@code ..} would climb out of {@code /api/sessions}. */
  private static void checkId(String id) {
    Objects.requireNonNull(id, "id");
    if (id.isBlank()) {
      throw new IllegalArgumentException("a session id must not be blank");
    }
    if (id.equals(".") || id.equals("..")) {
      throw new IllegalArgumentException("`" + id + "` is not a session id");
    }
  }
}
