package dev.clique.client;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.clique.client.Fixtures.CLAUDE_ID;
import static dev.clique.client.Fixtures.SHELL_ID;
import static dev.clique.client.Fixtures.TOKEN;
import static dev.clique.client.Fixtures.clientOf;
import static dev.clique.client.Fixtures.contract;
import static dev.clique.client.Fixtures.contractJson;
import static dev.clique.client.Fixtures.tree;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every read against the contract files, and the requests that make them. */
class CliqueClientReadsTest {
  @RegisterExtension static WireMockExtension engine = Fixtures.stubEngine();

  private final CliqueClient client = clientOf(engine).build();

  private static void answer(String path, String contractFile) {
    engine.stubFor(get(urlPathEqualTo(path)).willReturn(okJson(contract(contractFile))));
  }

  @Test
  void sessionsCarryEveryDocumentedKeyTyped() throws Exception {
    answer("/api/state", "state.json");

    List<Session> sessions = client.sessions();

    assertThat(sessions).extracting(Session::id).containsExactly(CLAUDE_ID, SHELL_ID);
    Session claude = sessions.get(0);
    assertThat(claude.name()).isEqualTo("api refactor");
    assertThat(claude.cli()).isEqualTo("claude");
    assertThat(claude.cliLabel()).isEqualTo("Claude Code");
    assertThat(claude.cwd()).isEqualTo("/home/dev/src/shop-api");
    assertThat(claude.project()).isEqualTo("shop-api");
    assertThat(claude.folder()).isEmpty();
    assertThat(claude.mode()).contains("acceptEdits");
    assertThat(claude.created()).isEqualTo(Instant.ofEpochSecond(1767168912L, 440_000_000L));
    assertThat(claude.alive()).isTrue();
    assertThat(claude.attached()).isFalse();
    assertThat(claude.command()).contains("claude");
    assertThat(claude.activity()).isEqualTo(Instant.ofEpochSecond(1767171234L, 870_000_000L));
    assertThat(claude.cols()).isEqualTo(200);
    assertThat(claude.rows()).isEqualTo(50);
    assertThat(claude.busy()).isFalse();
    assertThat(claude.signal()).isEqualTo("waiting");
    assertThat(claude.saying()).isEqualTo("Do you want to make this edit to OrderService.java?");
    assertThat(claude.state()).isEqualTo(SessionState.WAITING);
    assertThat(claude.rss()).isEqualTo(412_876_800L);
    assertThat(claude.branch()).isEqualTo("feature/order-totals");
    assertThat(claude.dirty()).isEqualTo(3);

    Session shell = sessions.get(1);
    assertThat(shell.folder()).contains("frontend");
    assertThat(shell.mode()).isEmpty();
    assertThat(shell.command()).isEmpty();
    assertThat(shell.alive()).isFalse();
    assertThat(shell.activity()).isEqualTo(Instant.EPOCH);
    assertThat(shell.state()).isEqualTo(SessionState.STOPPED);
    assertThat(shell.signal()).isEmpty();
  }

  @Test
  void cliquesExtraKeysAreIgnoredByTheRecordsButKeptInTheRawJson() throws Exception {
    answer("/api/state", "state.json");

    EngineState state = client.state();

    Session shell = state.sessions().get(1);
    assertThat(tree(shell.json())).isEqualTo(contractJson("state.json").get("sessions").get(1));
    assertThat(tree(shell.json()).get("color").asText()).isEqualTo("#4f9dde");
    assertThat(tree(shell.json()).get("icon").asText()).isEqualTo("terminal");
    assertThat(tree(shell.json()).get("mode_seq").asInt()).isEqualTo(2);
    assertThat(tree(shell.json()).get("worktree").asText())
        .isEqualTo("/home/dev/src/shop-web-build");
    assertThat(tree(state.json())).isEqualTo(contractJson("state.json"));
    assertThat(tree(state.json()).has("folders")).isTrue();
    assertThat(tree(state.json()).has("settings")).isTrue();
    assertThat(state.version()).isEqualTo("0.1.0");
    assertThat(state.clis())
        .extracting(Cli::id, Cli::label, Cli::installed, Cli::transcript)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("claude", "Claude Code", true, true),
            org.assertj.core.groups.Tuple.tuple("codex", "Codex", true, true),
            org.assertj.core.groups.Tuple.tuple("gemini", "Gemini CLI", false, true),
            org.assertj.core.groups.Tuple.tuple("shell", "Shell", true, false));
    assertThat(tree(state.clis().get(0).json()).get("modes")).hasSize(4);
  }

  @Test
  void aStateAfterARevisionAsksForItWithItsTimeoutAndCarriesTheNewRevision() throws Exception {
    answer("/api/state", "state.json");

    EngineState state = client.state(1767171300000L, Duration.ofSeconds(30));
    client.state(7, null);

    engine.verify(getRequestedFor(urlEqualTo("/api/state?after=1767171300000&timeout=30")));
    engine.verify(
        getRequestedFor(urlPathEqualTo("/api/state"))
            .withQueryParam("after", equalTo("7"))
            .withQueryParam("timeout", absent()));
    assertThat(state.revision()).isEqualTo(1767171300125L);
    assertThat(state.sessions()).extracting(Session::id).containsExactly(CLAUDE_ID, SHELL_ID);
    assertThat(client.state().revision()).isEqualTo(1767171300125L);
    assertThatThrownBy(() -> client.state(-1, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("after");
    assertThatThrownBy(() -> client.stateAsync(0, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timeout");
  }

  @Test
  void aListingAsksForTheUsageInBriefAndReadsItsTwoFigures() throws Exception {
    ObjectNode state = (ObjectNode) contractJson("state.json");
    ((ObjectNode) state.at("/sessions/0"))
        .set("usage", tree("{\"tokens\": 111580, \"context_percent\": 41}"));
    engine.stubFor(
        com.github.tomakehurst.wiremock.client.WireMock.get(urlEqualTo("/api/state?usage=brief"))
            .willReturn(com.github.tomakehurst.wiremock.client.WireMock.okJson(state.toString())));

    Usage usage = client.listing().session(CLAUDE_ID).orElseThrow().usage().orElseThrow();

    assertThat(usage.tokens()).hasValue(111580);
    assertThat(usage.contextPercent()).hasValue(41.0);
    assertThat(usage.inputTokens()).isEmpty();
    assertThat(usage.source()).isEmpty();
  }

  @Test
  void aStateWithoutARevisionReadsAsRevisionZero() throws Exception {
    ObjectNode state = (ObjectNode) contractJson("state.json");
    state.remove("revision");
    engine.stubFor(get(urlPathEqualTo("/api/state")).willReturn(okJson(state.toString())));

    assertThat(client.state().revision()).isZero();
  }

  @Test
  void aStateNamedByANewerEngineIsUnknownNotAFailure() throws Exception {
    ObjectNode state = (ObjectNode) contractJson("state.json");
    ((ObjectNode) state.get("sessions").get(0)).put("state", "compacting");
    engine.stubFor(get(urlPathEqualTo("/api/state")).willReturn(okJson(state.toString())));

    assertThat(client.sessions().get(0).state()).isEqualTo(SessionState.UNKNOWN);
    assertThat(tree(client.sessions().get(0).json()).get("state").asText()).isEqualTo("compacting");
  }

  @Test
  void aSessionIsTheRowOfTheStateWithThatId() throws Exception {
    answer("/api/state", "state.json");

    Optional<Session> shell = client.session(SHELL_ID);

    assertThat(shell).map(Session::name).contains("build");
    engine.verify(getRequestedFor(urlEqualTo("/api/state")));
  }

  @Test
  void anIdNotInTheStateIsEmptyNotAnError() throws Exception {
    answer("/api/state", "state.json");

    assertThat(client.session("no-such-session")).isEmpty();
  }

  @Test
  void everyCallSendsTheBearerTokenAndAsksForJson() throws Exception {
    answer("/api/state", "state.json");
    answer("/healthz", "healthz.json");
    answer("/api/sessions/" + CLAUDE_ID + "/peek", "peek.json");
    answer("/api/sessions/" + CLAUDE_ID + "/wait", "wait-matched.json");
    answer("/api/sessions/" + CLAUDE_ID + "/transcript", "transcript.json");

    client.sessions();
    client.session(CLAUDE_ID);
    client.health();
    client.peek(CLAUDE_ID, 10);
    client.waitFor(CLAUDE_ID, Duration.ofSeconds(1));
    client.conversation(CLAUDE_ID);

    assertThat(engine.getAllServeEvents()).hasSize(6);
    for (var event : engine.getAllServeEvents()) {
      LoggedRequest request = event.getRequest();
      assertThat(request.getMethod().getName()).isEqualTo("GET");
      assertThat(request.getHeader("Authorization")).isEqualTo("Bearer " + TOKEN);
      assertThat(request.getHeader("Accept")).isEqualTo("application/json");
    }
  }

  @Test
  void peekAsksForTheLinesAndReadsThePane() throws Exception {
    answer("/api/sessions/" + CLAUDE_ID + "/peek", "peek.json");

    Pane pane = client.peek(CLAUDE_ID, 40);

    engine.verify(getRequestedFor(urlEqualTo("/api/sessions/" + CLAUDE_ID + "/peek?lines=40")));
    assertThat(pane.lines())
        .hasSize(7)
        .startsWith("● Update(src/main/java/shop/orders/OrderService.java)")
        .contains("Do you want to make this edit to OrderService.java?");
    assertThat(pane.alive()).isTrue();
    assertThat(pane.activity()).isEqualTo(Instant.ofEpochSecond(1767171234L, 870_000_000L));
    assertThat(tree(pane.json())).isEqualTo(contractJson("peek.json"));
  }

  @Test
  void peekWithoutACountLeavesItToTheEngine() throws Exception {
    answer("/api/sessions/" + CLAUDE_ID + "/peek", "peek.json");

    client.peek(CLAUDE_ID);

    engine.verify(getRequestedFor(urlEqualTo("/api/sessions/" + CLAUDE_ID + "/peek")));
  }

  @Test
  void aStoppedPaneHasNoLinesAndIsNotAlive() throws Exception {
    answer("/api/sessions/" + SHELL_ID + "/peek", "peek-stopped.json");

    Pane pane = client.peek(SHELL_ID, 8);

    assertThat(pane.lines()).isEmpty();
    assertThat(pane.alive()).isFalse();
    assertThat(pane.activity()).isEqualTo(Instant.EPOCH);
  }

  @Test
  void aWaitSendsTheStatesAsACommaListAndAWholeTimeoutWithoutDecimals() throws Exception {
    answer("/api/sessions/" + CLAUDE_ID + "/wait", "wait-matched.json");

    WaitResult w =
        client.waitFor(CLAUDE_ID, Duration.ofSeconds(60), SessionState.IDLE, SessionState.WAITING);

    engine.verify(
        getRequestedFor(
            urlEqualTo("/api/sessions/" + CLAUDE_ID + "/wait?for=idle,waiting&timeout=60")));
    assertThat(w.id()).isEqualTo(CLAUDE_ID);
    assertThat(w.state()).isEqualTo(SessionState.WAITING);
    assertThat(w.matched()).isTrue();
    assertThat(w.waited()).isEqualTo(Duration.ofMillis(12_300));
    assertThat(tree(w.json())).isEqualTo(contractJson("wait-matched.json"));
  }

  @Test
  void aFractionalTimeoutIsSentAsADecimalNumber() throws Exception {
    answer("/api/sessions/" + CLAUDE_ID + "/wait", "wait-matched.json");

    client.waitFor(CLAUDE_ID, Duration.ofMillis(2500), SessionState.ERROR);
    client.waitFor(CLAUDE_ID, Duration.ZERO, SessionState.STOPPED, SessionState.WORKING);

    engine.verify(
        getRequestedFor(urlEqualTo("/api/sessions/" + CLAUDE_ID + "/wait?for=error&timeout=2.5")));
    engine.verify(
        getRequestedFor(
            urlEqualTo("/api/sessions/" + CLAUDE_ID + "/wait?for=stopped,working&timeout=0")));
  }

  @Test
  void aWaitWithoutTimeoutOrStatesLeavesBothToTheEngine() throws Exception {
    answer("/api/sessions/" + CLAUDE_ID + "/wait", "wait-matched.json");

    client.waitFor(CLAUDE_ID, null);

    engine.verify(
        getRequestedFor(urlPathEqualTo("/api/sessions/" + CLAUDE_ID + "/wait"))
            .withQueryParam("for", absent())
            .withQueryParam("timeout", absent()));
  }

  @Test
  void aWaitThatRanOutIsNotMatched() throws Exception {
    answer("/api/sessions/" + CLAUDE_ID + "/wait", "wait-timeout.json");

    WaitResult w = client.waitFor(CLAUDE_ID, Duration.ofSeconds(60), SessionState.IDLE);

    assertThat(w.matched()).isFalse();
    assertThat(w.state()).isEqualTo(SessionState.WORKING);
    assertThat(w.waited()).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void aSessionRemovedWhileWaitedOnIsGone() throws Exception {
    answer("/api/sessions/" + SHELL_ID + "/wait", "wait-gone.json");

    WaitResult w = client.waitFor(SHELL_ID, Duration.ofSeconds(30), SessionState.IDLE);

    assertThat(w.state()).isEqualTo(SessionState.GONE);
    assertThat(w.matched()).isFalse();
    assertThat(w.id()).isEqualTo(SHELL_ID);
  }

  @Test
  void theConversationHasItsTurnsOldestFirst() throws Exception {
    answer("/api/sessions/" + CLAUDE_ID + "/transcript", "transcript.json");

    Conversation c = client.conversation(CLAUDE_ID);

    assertThat(c.cli()).isEqualTo("claude");
    assertThat(c.name()).isEqualTo("api refactor");
    assertThat(c.turns())
        .extracting(Turn::role)
        .containsExactly("user", "assistant", "user", "assistant");
    assertThat(c.turns().get(0).isUser()).isTrue();
    assertThat(c.turns().get(1).isAssistant()).isTrue();
    assertThat(c.turns().get(1).text())
        .startsWith("I'll look at how totals are computed first.\n\nOrderService.total()");
    assertThat(tree(c.json())).isEqualTo(contractJson("transcript.json"));
  }

  @Test
  void aCliWithoutATranscriptHasNoTurns() throws Exception {
    answer("/api/sessions/" + SHELL_ID + "/transcript", "transcript-empty.json");

    Conversation c = client.conversation(SHELL_ID);

    assertThat(c.cli()).isEqualTo("shell");
    assertThat(c.turns()).isEmpty();
  }

  @Test
  void healthWithAKnownTokenHasTheDetails() throws Exception {
    answer("/healthz", "healthz.json");

    Health h = client.health();

    assertThat(h.ok()).isTrue();
    assertThat(h.detailed()).isTrue();
    assertThat(h.version()).contains("0.1.0");
    assertThat(h.uptime()).contains(Duration.ofMillis(5_231_400));
    assertThat(h.tmux()).contains(true);
    assertThat(h.sessions()).hasValue(2);
    assertThat(h.alive()).hasValue(1);
    assertThat(h.attached()).hasValue(0);
  }

  @Test
  void anonymousHealthIsOnlyOk() throws Exception {
    answer("/healthz", "healthz-anonymous.json");

    Health h = client.health();

    assertThat(h.ok()).isTrue();
    assertThat(h.detailed()).isFalse();
    assertThat(h.version()).isEmpty();
    assertThat(h.uptime()).isEmpty();
    assertThat(h.tmux()).isEmpty();
    assertThat(h.sessions()).isEmpty();
    assertThat(tree(h.json())).isEqualTo(contractJson("healthz-anonymous.json"));
  }

  @Test
  void aPathPrefixIsKeptWithOrWithoutATrailingSlash() throws Exception {
    answer("/panel/api/state", "state.json");
    answer("/panel/healthz", "healthz.json");

    CliqueClient withSlash =
        CliqueClient.builder().baseUrl(Fixtures.urlOf(engine) + "/panel/").token(TOKEN).build();
    CliqueClient withoutSlash =
        CliqueClient.builder()
            .baseUrl(java.net.URI.create(Fixtures.urlOf(engine) + "/panel"))
            .token(TOKEN)
            .build();

    assertThat(withSlash.sessions()).hasSize(2);
    assertThat(withoutSlash.health().ok()).isTrue();
    assertThat(withSlash.baseUrl()).isEqualTo(Fixtures.urlOf(engine) + "/panel");
    engine.verify(getRequestedFor(urlEqualTo("/panel/api/state")));
    engine.verify(getRequestedFor(urlEqualTo("/panel/healthz")));
  }

  @Test
  void aSessionIdIsOnePercentEncodedPathSegment() throws Exception {
    engine.stubFor(
        get(urlEqualTo("/api/sessions/a%20b%2Fc%3Fd%23e/peek?lines=3"))
            .willReturn(okJson(contract("peek.json"))));

    client.peek("a b/c?d#e", 3);

    engine.verify(getRequestedFor(urlEqualTo("/api/sessions/a%20b%2Fc%3Fd%23e/peek?lines=3")));
  }

  @Test
  void theRawJsonIsTheTextTheEngineSent() throws Exception {
    answer("/api/state", "state.json");
    EngineState state = client.state();
    String sent = contract("state.json");

    assertThat(state.json()).isEqualTo(sent.strip());
    for (Session session : state.sessions()) {
      assertThat(session.json()).startsWith("{").endsWith("}");
      assertThat(sent).contains(session.json());
      assertThat(tree(session.json()).get("id").asText()).isEqualTo(session.id());
    }
    assertThat(sent).contains(state.clis().get(0).json());
  }

  @Test
  void keysLeftOutReadAsEmpty() throws Exception {
    engine.stubFor(
        get(urlPathEqualTo("/api/state"))
            .willReturn(okJson("{\"sessions\": [{\"id\": \"x\", \"folder\": null}]}")));

    EngineState state = client.state();

    Session s = state.sessions().get(0);
    assertThat(state.version()).isEmpty();
    assertThat(state.clis()).isEmpty();
    assertThat(s.name()).isEmpty();
    assertThat(s.folder()).isEmpty();
    assertThat(s.created()).isEqualTo(Instant.EPOCH);
    assertThat(s.state()).isEqualTo(SessionState.UNKNOWN);
    assertThat(s.cols()).isZero();
  }

  @Test
  void connectionsArePooledAndKeptAlive() throws Exception {
    answer("/api/state", "state.json");
    answer("/healthz", "healthz.json");
    OkHttpClient shared = new OkHttpClient();
    CliqueClient pooled = clientOf(engine).okHttpClient(shared).build();

    pooled.sessions();
    pooled.health();
    pooled.sessions();

    assertThat(shared.connectionPool().connectionCount()).isEqualTo(1);
  }

  @Test
  void argumentsTheEngineCannotServeAreRefusedBeforeAnyCall() {
    assertThatThrownBy(() -> client.peek(CLAUDE_ID, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("lines must be at least 1, got 0");
    assertThatThrownBy(() -> client.waitFor(CLAUDE_ID, Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timeout must not be negative");
    assertThatThrownBy(() -> client.waitFor(CLAUDE_ID, null, SessionState.GONE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("cannot wait for gone");
    assertThatThrownBy(() -> client.waitFor(CLAUDE_ID, null, SessionState.UNKNOWN))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> client.conversation(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a session id must not be blank");
    assertThatThrownBy(() -> client.peek(".."))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not a session id");
    assertThatThrownBy(() -> client.peekAsync(".", 3)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> client.session(null)).isInstanceOf(NullPointerException.class);
    assertThat(engine.getAllServeEvents()).isEmpty();
  }

  @Test
  void anUnusualButValidAnswerStillReads() throws Exception {
    engine.stubFor(
        get(urlPathEqualTo("/api/sessions/" + CLAUDE_ID + "/peek"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "application/json; charset=utf-8")
                    .withBody(
                        "{\"lines\":[\"é ✓\"],\"alive\":true,\"activity\":1767171234,\"x\":{}}")));

    Pane pane = client.peek(CLAUDE_ID, 1);

    assertThat(pane.lines()).containsExactly("é ✓");
    assertThat(pane.activity()).isEqualTo(Instant.ofEpochSecond(1767171234L));
    engine.verify(
        getRequestedFor(urlPathEqualTo("/api/sessions/" + CLAUDE_ID + "/peek"))
            .withQueryParam("lines", equalTo("1")));
  }
}
