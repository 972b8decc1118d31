package dev.clique.client;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.clique.client.Fixtures.CLAUDE_ID;
import static dev.clique.client.Fixtures.TOKEN;
import static dev.clique.client.Fixtures.assertNoToken;
import static dev.clique.client.Fixtures.clientOf;
import static dev.clique.client.Fixtures.contract;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.clique.client.CliqueException.Kind;
import java.net.ServerSocket;
import java.time.Duration;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Each way a call can fail has its own kind and its own sentence, and none shows the token. */
class CliqueClientErrorsTest {
  @RegisterExtension static WireMockExtension engine = Fixtures.stubEngine();
  @RegisterExtension static WireMockExtension elsewhere = Fixtures.stubEngine();

  private final CliqueClient client = clientOf(engine).build();

  private static CliqueException failure(ThrowingCallable call) {
    CliqueException e = catchThrowableOfType(CliqueException.class, call);
    assertThat(e).as("a CliqueException").isNotNull();
    assertNoToken(e);
    return e;
  }

  private static void answer(int status, String contentType, String body) {
    engine.stubFor(
        any(anyUrl())
            .willReturn(
                aResponse()
                    .withStatus(status)
                    .withHeader("Content-Type", contentType)
                    .withBody(body)));
  }

  @Test
  void aRefusedConnectionIsUnreachableAndNamesTheUrl() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    String url = "http://127.0.0.1:" + closedPort;
    CliqueClient nobodyHome = CliqueClient.builder().baseUrl(url + "/").token(TOKEN).build();

    CliqueException e = failure(nobodyHome::sessions);

    assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
    assertThat(e.status()).isEmpty();
    assertThat(e.engineError()).isEmpty();
    assertThat(e.getMessage())
        .startsWith("could not reach clique at " + url + ": ")
        .containsIgnoringCase("refused");
  }

  @Test
  void anUnknownHostIsUnreachable() {
    CliqueClient nowhere =
        CliqueClient.builder()
            .baseUrl("http://no-such-host.invalid:3200")
            .allowPlainHttp(true)
            .token(TOKEN)
            .build();

    CliqueException e = failure(nowhere::health);

    assertThat(e.kind()).isEqualTo(Kind.UNREACHABLE);
    assertThat(e.getMessage())
        .startsWith("could not reach clique at http://no-such-host.invalid:3200: ");
  }

  @Test
  void anUnknownTokenIsUnauthorizedWithAHintAndNeverTheToken() {
    answer(401, "application/json", contract("error-unauthorized.json"));

    CliqueException e = failure(client::sessions);

    assertThat(e.kind()).isEqualTo(Kind.UNAUTHORIZED);
    assertThat(e.status()).hasValue(401);
    assertThat(e.engineError()).contains("unauthorized");
    assertThat(e.getMessage())
        .startsWith("clique API returned 401: unauthorized")
        .contains("does not know the token")
        .contains("clique token create <name> --read-only");
  }

  @Test
  void aReadOnlyRefusalIsForbiddenAndQuotesTheEngine() {
    answer(403, "application/json", contract("error-read-only.json"));

    CliqueException e = failure(() -> client.peek(CLAUDE_ID, 5));

    assertThat(e.kind()).isEqualTo(Kind.FORBIDDEN);
    assertThat(e.status()).hasValue(403);
    assertThat(e.engineError()).contains("this API token is read-only");
    assertThat(e.getMessage()).isEqualTo("clique API returned 403: this API token is read-only");
  }

  @Test
  void aHostRefusalInPlainTextIsForbiddenAndQuotesTheBody() {
    answer(403, "text/plain", "host not allowed");

    CliqueException e = failure(client::health);

    assertThat(e.kind()).isEqualTo(Kind.FORBIDDEN);
    assertThat(e.engineError()).isEmpty();
    assertThat(e.getMessage()).isEqualTo("clique API returned 403: host not allowed");
  }

  @Test
  void anUnknownSessionIsNotFoundAndQuotesTheEngine() {
    answer(404, "application/json", contract("error-not-found.json"));

    CliqueException e = failure(() -> client.conversation("no-such-session"));

    assertThat(e.kind()).isEqualTo(Kind.NOT_FOUND);
    assertThat(e.status()).hasValue(404);
    assertThat(e.engineError()).contains("no such session");
    assertThat(e.getMessage()).isEqualTo("clique API returned 404: no such session");
  }

  @Test
  void aServerErrorIsAnHttpErrorQuotingTheEngine() {
    answer(500, "application/json", "{\"error\": \"tmux did not answer\"}");

    CliqueException e = failure(() -> client.waitFor(CLAUDE_ID, Duration.ofSeconds(1)));

    assertThat(e.kind()).isEqualTo(Kind.HTTP_ERROR);
    assertThat(e.status()).hasValue(500);
    assertThat(e.getMessage()).isEqualTo("clique API returned 500: tmux did not answer");
  }

  @Test
  void anErrorWithoutJsonQuotesAShortExcerptOfTheBody() {
    answer(502, "text/html", "<html>\n<body>" + "Bad gateway ".repeat(40) + "</body></html>");

    CliqueException e = failure(client::sessions);

    assertThat(e.kind()).isEqualTo(Kind.HTTP_ERROR);
    assertThat(e.getMessage())
        .startsWith("clique API returned 502: <html> <body>Bad gateway")
        .endsWith("…")
        .hasSizeLessThan(260);
  }

  @Test
  void anErrorWithoutAnyBodyStillNamesTheStatus() {
    engine.stubFor(any(anyUrl()).willReturn(aResponse().withStatus(503)));

    CliqueException e = failure(client::sessions);

    assertThat(e.kind()).isEqualTo(Kind.HTTP_ERROR);
    assertThat(e.getMessage()).startsWith("clique API returned 503: ");
  }

  @Test
  void aBodyThatIsNotJsonIsABadResponse() {
    answer(200, "text/html", "<!doctype html><title>Login</title>");

    CliqueException e = failure(client::sessions);

    assertThat(e.kind()).isEqualTo(Kind.BAD_RESPONSE);
    assertThat(e.status()).hasValue(200);
    assertThat(e.getMessage())
        .startsWith("clique API returned an unexpected response: ")
        .contains("not JSON")
        .contains("text/html");
  }

  @Test
  void jsonOfTheWrongShapeIsABadResponseNamingWhatIsWrong() {
    answer(200, "application/json", "{\"sessions\": 3}");
    assertThat(failure(client::sessions).getMessage())
        .isEqualTo(
            "clique API returned an unexpected response: \"sessions\" is not an array in the"
                + " answer");

    answer(200, "application/json", "[]");
    assertThat(failure(client::health).getMessage())
        .isEqualTo("clique API returned an unexpected response: the answer is not a JSON object");

    answer(200, "application/json", "{\"sessions\": [{\"id\": \"x\", \"cols\": \"wide\"}]}");
    assertThat(failure(client::sessions).getMessage())
        .isEqualTo(
            "clique API returned an unexpected response: \"cols\" is not a whole number in"
                + " session x");

    answer(200, "application/json", "{\"alive\": true}");
    CliqueException e = failure(() -> client.peek(CLAUDE_ID, 2));
    assertThat(e.kind()).isEqualTo(Kind.BAD_RESPONSE);
    assertThat(e.getMessage()).contains("\"lines\" is missing");
  }

  @Test
  void anEmptyBodyIsABadResponse() {
    answer(200, "application/json", "");

    CliqueException e = failure(client::health);

    assertThat(e.kind()).isEqualTo(Kind.BAD_RESPONSE);
    assertThat(e.getMessage())
        .isEqualTo("clique API returned an unexpected response: the body is empty");
  }

  @Test
  void aSlowEngineIsATimeoutNamingTheLimit() {
    engine.stubFor(
        get(urlPathEqualTo("/api/state"))
            .willReturn(okJson(contract("state.json")).withFixedDelay(2000)));
    CliqueClient impatient = clientOf(engine).timeout(Duration.ofMillis(300)).build();

    long start = System.nanoTime();
    CliqueException e = failure(impatient::sessions);
    Duration took = Duration.ofNanos(System.nanoTime() - start);

    assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
    assertThat(e.status()).isEmpty();
    assertThat(e.getMessage()).isEqualTo("clique API did not answer within 0.3 s");
    assertThat(took).isLessThan(Duration.ofMillis(1500));
  }

  @Test
  void aWaitMayTakeItsOwnTimeoutPlusTheMarginButNoLonger() throws Exception {
    engine.stubFor(
        get(urlPathEqualTo("/api/sessions/" + CLAUDE_ID + "/wait"))
            .willReturn(okJson(contract("wait-matched.json")).withFixedDelay(700)));
    CliqueClient strict =
        clientOf(engine).timeout(Duration.ofMillis(200)).waitMargin(Duration.ofMillis(300)).build();

    WaitResult patient = strict.waitFor(CLAUDE_ID, Duration.ofMillis(600), SessionState.IDLE);
    CliqueException e =
        failure(() -> strict.waitFor(CLAUDE_ID, Duration.ofMillis(100), SessionState.IDLE));

    assertThat(patient.matched()).isTrue();
    assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
    assertThat(e.getMessage()).isEqualTo("clique API did not answer within 0.4 s");
  }

  @Test
  void aHeldStateMayTakeItsOwnTimeoutPlusTheMarginButNoLonger() throws Exception {
    engine.stubFor(
        get(urlPathEqualTo("/api/state"))
            .willReturn(okJson(contract("state.json")).withFixedDelay(700)));
    CliqueClient strict =
        clientOf(engine).timeout(Duration.ofMillis(200)).waitMargin(Duration.ofMillis(300)).build();

    EngineState patient = strict.state(1, Duration.ofMillis(600));
    CliqueException e = failure(() -> strict.state(1, Duration.ofMillis(100)));

    assertThat(patient.revision()).isEqualTo(1767171300125L);
    assertThat(e.kind()).isEqualTo(Kind.TIMEOUT);
    assertThat(e.getMessage()).isEqualTo("clique API did not answer within 0.4 s");
  }

  @Test
  void aRedirectIsAnErrorAndTheTokenNeverReachesTheNewHost() {
    String there = Fixtures.urlOf(elsewhere) + "/api/state";
    elsewhere.stubFor(any(anyUrl()).willReturn(okJson(contract("state.json"))));
    engine.stubFor(
        any(anyUrl()).willReturn(aResponse().withStatus(302).withHeader("Location", there)));

    CliqueException e = failure(client::sessions);

    assertThat(e.kind()).isEqualTo(Kind.HTTP_ERROR);
    assertThat(e.status()).hasValue(302);
    assertThat(e.getMessage())
        .isEqualTo("clique API returned 302: redirects are not followed (to " + there + ")");
    assertThat(elsewhere.getAllServeEvents()).isEmpty();
    assertThat(engine.getAllServeEvents()).hasSize(1);
  }

  @Test
  void aPermanentRedirectToHttpsIsNotFollowedEither() {
    engine.stubFor(
        any(anyUrl())
            .willReturn(
                aResponse().withStatus(308).withHeader("Location", "https://127.0.0.1:1/healthz")));

    CliqueException e = failure(client::health);

    assertThat(e.kind()).isEqualTo(Kind.HTTP_ERROR);
    assertThat(e.getMessage()).startsWith("clique API returned 308: redirects are not followed");
  }

  @Test
  void anEngineThatEchoesTheTokenHasItScrubbed() {
    answer(500, "application/json", "{\"error\": \"token " + TOKEN + " is broken\"}");

    CliqueException e = failure(client::sessions);

    assertThat(e.getMessage()).isEqualTo("clique API returned 500: token mxp_… is broken");
    assertThat(e.engineError()).contains("token mxp_… is broken");
  }

  @Test
  void aBodyQuotingTheTokenNeverCarriesItIntoTheMessageOrACause() {
    answer(200, "application/json", TOKEN + " is not JSON");

    CliqueException e = failure(client::sessions);

    assertThat(e.kind()).isEqualTo(Kind.BAD_RESPONSE);
    assertThat(e.getMessage()).contains("mxp_… is not JSON");
    assertThat(e.getCause()).isNull();
  }

  @Test
  void anAbsurdlyLongWaitIsSentAsAskedAndDoesNotOverflow() {
    engine.stubFor(
        get(urlPathEqualTo("/api/sessions/" + CLAUDE_ID + "/wait"))
            .willReturn(okJson(contract("wait-matched.json"))));

    assertThatCode(() -> client.waitFor(CLAUDE_ID, Duration.ofSeconds(Long.MAX_VALUE)))
        .doesNotThrowAnyException();
    engine.verify(
        getRequestedFor(urlPathEqualTo("/api/sessions/" + CLAUDE_ID + "/wait"))
            .withQueryParam("timeout", equalTo(Long.toString(Long.MAX_VALUE))));
  }

  @Test
  void aTokenUnlikeTheUsualShapeIsScrubbedToo() {
    String odd = "not-a-usual-token-123";
    answer(400, "text/plain", "bad token " + odd);
    CliqueClient oddClient =
        CliqueClient.builder().baseUrl(Fixtures.urlOf(engine)).token(odd).build();

    CliqueException e = catchThrowableOfType(CliqueException.class, oddClient::sessions);

    assertThat(e.getMessage()).isEqualTo("clique API returned 400: bad token mxp_…");
    assertThat(oddClient.toString()).doesNotContain(odd);
  }
}
