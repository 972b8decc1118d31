package dev.clique.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.testing.TestEngine;
import dev.clique.engine.token.MintedToken;
import dev.clique.engine.token.Scope;
import dev.clique.engine.token.TokenStore;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every route against every kind of caller, through the real HTTP server: the statuses and bodies
 * of HTTP-API.md.
 */
class ApiIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir static Path home;
  private static TestEngine engine;
  private static String readWrite;
  private static String readOnly;
  private static String sessionA;
  private static String sessionB;
  private static String boundToA;

  @BeforeAll
  static void start() throws Exception {
    engine = TestEngine.start(home.resolve("home"));
    readWrite = engine.mint(EnumSet.of(Scope.READ, Scope.WRITE), "");
    readOnly = engine.mint(EnumSet.of(Scope.READ), "");
    sessionA = create("a");
    sessionB = create("b");
    boundToA = engine.mint(Set.of(Scope.ATTENTION), sessionA);
  }

  @AfterAll
  static void stop() {
    engine.close();
  }

  private static String create(String name) throws Exception {
    HttpResponse<String> created =
        engine.send(
            "POST",
            "/api/sessions",
            readWrite,
            "{\"cli\":\"shell\",\"cwd\":\"" + home + "\",\"name\":\"" + name + "\"}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    JsonNode body = JSON.readTree(created.body());
    assertThat(body.path("worktree").asText("x")).isEmpty();
    return body.path("id").asText();
  }

  /** One route of the API, and the body its write needs. */
  private record Route(String method, String path, String body, boolean write) {}

  private static List<Route> routes(String id) {
    return List.of(
        new Route("GET", "/api/state", null, false),
        new Route("GET", "/api/sessions/" + id + "/peek?lines=3", null, false),
        new Route(
            "GET",
            "/api/sessions/" + id + "/wait?for=idle,waiting,error,working&timeout=0",
            null,
            false),
        new Route("GET", "/api/sessions/" + id + "/transcript", null, false),
        new Route(
            "POST", "/api/sessions/" + id + "/send", "{\"text\":\"true\",\"enter\":true}", true),
        new Route("POST", "/api/sessions", "{\"cli\":\"nope\",\"cwd\":\"/\"}", true),
        new Route("POST", "/api/sessions/" + id + "/kill", null, true),
        new Route("POST", "/api/sessions/" + id + "/start", null, true),
        new Route("DELETE", "/api/sessions/" + id, null, true));
  }

  private static void expect(HttpResponse<String> response, int status, String error)
      throws Exception {
    assertThat(response.statusCode())
        .as(response.request() + " " + response.body())
        .isEqualTo(status);
    assertThat(JSON.readTree(response.body()))
        .isEqualTo(JSON.readTree("{\"error\":\"" + error + "\"}"));
  }

  @Test
  void withoutATokenOrWithAnUnknownOneEveryApiRouteIs401() throws Exception {
    String unknown = "mxp_" + "Z".repeat(43);
    for (String token : new String[] {null, unknown, "not-even-a-token"}) {
      for (Route route : routes(sessionB)) {
        expect(engine.send(route.method(), route.path(), token, route.body()), 401, "unauthorized");
      }
      expect(
          engine.send(
              "POST", "/api/sessions/" + sessionA + "/attention", token, "{\"state\":\"waiting\"}"),
          401,
          "unauthorized");
    }
  }

  @Test
  void aReadOnlyTokenReadsEverythingAndWritesNothing() throws Exception {
    for (Route route : routes(sessionB)) {
      HttpResponse<String> response =
          engine.send(route.method(), route.path(), readOnly, route.body());
      if (route.write()) {
        expect(response, 403, "this API token is read-only");
      } else {
        assertThat(response.statusCode()).as(route.path()).isEqualTo(200);
      }
    }
    expect(
        engine.send(
            "POST",
            "/api/sessions/" + sessionA + "/attention",
            readOnly,
            "{\"state\":\"waiting\"}"),
        403,
        "this API token is read-only");
  }

  @Test
  void aBoundTokenMaySignalItsOwnSessionAndNothingElse() throws Exception {
    for (Route route : routes(sessionA)) {
      expect(engine.send(route.method(), route.path(), boundToA, route.body()), 403, "forbidden");
    }
    expect(
        engine.send(
            "POST",
            "/api/sessions/" + sessionB + "/attention",
            boundToA,
            "{\"state\":\"waiting\"}"),
        403,
        "forbidden");
    HttpResponse<String> own =
        engine.send(
            "POST", "/api/sessions/" + sessionA + "/attention", boundToA, "{\"state\":\"clear\"}");
    assertThat(own.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(own.body())).isEqualTo(JSON.readTree("{\"ok\":true}"));
  }

  @Test
  void aReadWriteTokenDrivesASessionThroughEveryRoute() throws Exception {
    String id = create("driven");
    for (Route route : routes(id)) {
      HttpResponse<String> response =
          engine.send(route.method(), route.path(), readWrite, route.body());
      int expected = route.path().equals("/api/sessions") ? 400 : 200;
      assertThat(response.statusCode())
          .as(route.method() + " " + route.path() + " " + response.body())
          .isEqualTo(expected);
    }
    HttpResponse<String> gone =
        engine.send("GET", "/api/sessions/" + id + "/peek", readWrite, null);
    expect(gone, 404, "no such session");
  }

  @Test
  void aTokenMintedOrRevokedByAnotherProcessCountsOnTheRunningEngineWithinASecond()
      throws Exception {
    TokenStore cli =
        TokenStore.open(home.resolve("home").resolve("tokens.json"), Clock.systemUTC());
    MintedToken minted = cli.create("late", EnumSet.of(Scope.READ), "");
    assertThat(eventuallyStatus("/api/state", minted.secret(), 200)).isEqualTo(200);
    cli.revoke(minted.token().id());
    assertThat(eventuallyStatus("/api/state", minted.secret(), 401)).isEqualTo(401);
  }

  private static int eventuallyStatus(String path, String token, int wanted) throws Exception {
    long deadline = System.nanoTime() + 1_000_000_000L;
    int status;
    do {
      status = engine.send("GET", path, token, null).statusCode();
      if (status == wanted) {
        break;
      }
      Thread.sleep(50);
    } while (System.nanoTime() < deadline);
    return status;
  }

  @Test
  void everythingUnderCliqueHomeIsPrivateToItsOwner() throws Exception {
    create("modes");
    engine.engine.tokens().flushUsage();
    try (var paths = Files.walk(home.resolve("home"))) {
      for (Path path : paths.toList()) {
        String mode = PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
        assertThat(mode)
            .as(path.toString())
            .isEqualTo(Files.isDirectory(path) ? "rwx------" : "rw-------");
      }
    }
  }

  @Test
  void apiAnswersAreNeverCachedNorSniffed() throws Exception {
    HttpResponse<String> state = engine.send("GET", "/api/state", readOnly, null);
    assertThat(state.headers().firstValue("Cache-Control")).hasValue("no-store");
    assertThat(state.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    assertThat(state.headers().firstValue("Content-Type"))
        .hasValue("application/json; charset=utf-8");
  }

  @Test
  void healthzIsAnonymousAndSaysMoreToAValidToken() throws Exception {
    JsonNode anonymous = JSON.readTree(engine.send("GET", "/healthz", null, null).body());
    assertThat(anonymous).isEqualTo(JSON.readTree("{\"ok\":true}"));
    JsonNode badToken =
        JSON.readTree(engine.send("GET", "/healthz", "mxp_" + "Q".repeat(43), null).body());
    assertThat(badToken).isEqualTo(anonymous);
    JsonNode full = JSON.readTree(engine.send("GET", "/healthz", readOnly, null).body());
    assertThat(full.path("ok").asBoolean()).isTrue();
    assertThat(full.path("tmux").asBoolean()).isTrue();
    assertThat(
            full.has("version")
                && full.has("uptime")
                && full.has("sessions")
                && full.has("alive")
                && full.has("attached"))
        .isTrue();
    assertThat(full.path("version").asText()).isEqualTo(TestEngine.VERSION);
  }

  @Test
  void unknownPathsAre404AndWrongMethodsAre405() throws Exception {
    expect(engine.send("GET", "/api/nope", readOnly, null), 404, "not found");
    expect(
        engine.send("GET", "/api/sessions/" + sessionA + "/nope", readOnly, null),
        404,
        "not found");
    expect(engine.send("PUT", "/api/state", readWrite, "{}"), 405, "method not allowed");
    expect(
        engine.send("POST", "/api/sessions/" + sessionA + "/peek", readWrite, "{}"),
        405,
        "method not allowed");
    expect(
        engine.send("GET", "/api/sessions/" + sessionA + "/attention", readWrite, null),
        405,
        "method not allowed");
    expect(
        engine.send("GET", "/api/sessions/no-such-id/peek", readOnly, null),
        404,
        "no such session");
    expect(
        engine.send("GET", "/api/sessions/no-such-id/wait?timeout=0", readOnly, null),
        404,
        "no such session");
    expect(
        engine.send("GET", "/api/sessions/no-such-id/transcript", readOnly, null),
        404,
        "no such session");
  }

  @Test
  void badBodiesAre400Or413AndChangeNothing() throws Exception {
    Path state = home.resolve("home").resolve("state.json");
    byte[] before = Files.readAllBytes(state);
    List<String[]> cases = new ArrayList<>();
    cases.add(new String[] {"/api/sessions", "{not json", "the request body is not valid JSON"});
    cases.add(new String[] {"/api/sessions", "[1,2]", "the request body must be a JSON object"});
    cases.add(new String[] {"/api/sessions", "{\"cli\":\"shell\"}", "cwd is required"});
    cases.add(new String[] {"/api/sessions", "{\"cwd\":\"/\"}", "cli is required"});
    cases.add(new String[] {"/api/sessions", "{\"cli\":7,\"cwd\":\"/\"}", "cli must be a string"});
    cases.add(
        new String[] {
          "/api/sessions",
          "{\"cli\":\"nope\",\"cwd\":\"/\"}",
          "unknown CLI: nope (known: aider, claude, codex, copilot, gemini, goose, grok, opencode,"
              + " pi, qwen, shell)"
        });
    cases.add(
        new String[] {
          "/api/sessions",
          "{\"cli\":\"shell\",\"cwd\":\"/definitely/not/here\"}",
          "the folder /definitely/not/here does not exist"
        });
    cases.add(
        new String[] {
          "/api/sessions/" + sessionA + "/send", "{\"text\":5}", "text must be a string"
        });
    cases.add(new String[] {"/api/sessions/" + sessionA + "/send", "{}", "send needs text or key"});
    cases.add(
        new String[] {
          "/api/sessions/" + sessionA + "/send",
          "{\"key\":\"C-c; kill-server\"}",
          "key must be one key name, such as Enter, Escape or C-c"
        });
    cases.add(
        new String[] {
          "/api/sessions/" + sessionA + "/send",
          "{\"text\":\"x\",\"enter\":\"yes\"}",
          "enter must be true or false"
        });
    cases.add(
        new String[] {
          "/api/sessions/" + sessionA + "/attention",
          "{\"state\":\"bored\"}",
          "state must be one of waiting, error, working, idle, clear"
        });
    for (String[] c : cases) {
      expect(engine.send("POST", c[0], readWrite, c[1]), 400, c[2]);
    }
    // Announced as 32 MiB, more than the engine reads only to refuse, and never sent: the answer
    // comes from the headers alone.
    TestEngine.RawResponse huge =
        engine.raw(
            "POST /api/sessions/"
                + sessionA
                + "/send HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                + readWrite
                + "\r\nContent-Type: application/json\r\nContent-Length: "
                + (32 << 20)
                + "\r\nConnection: close\r\n\r\n");
    assertThat(huge.status()).isEqualTo(413);
    assertThat(JSON.readTree(huge.body()))
        .isEqualTo(JSON.readTree("{\"error\":\"request body is larger than 1 MiB\"}"));
    assertThat(Files.readAllBytes(state)).isEqualTo(before);
  }

  @Test
  void theHostGuardComesFirstOnEveryRoute() throws Exception {
    for (String path : List.of("/healthz", "/api/state", "/nope")) {
      TestEngine.RawResponse refused =
          engine.raw(
              "GET "
                  + path
                  + " HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer "
                  + readOnly
                  + "\r\nConnection: close\r\n\r\n");
      assertThat(refused.status()).isEqualTo(403);
      assertThat(refused.body()).isEqualTo("host not allowed");
    }
    TestEngine.RawResponse trick =
        engine.raw(
            "GET /healthz HTTP/1.1\r\nHost: evil.com@127.0.0.1\r\nConnection: close\r\n\r\n");
    assertThat(trick.status()).isEqualTo(403);
    TestEngine.RawResponse none = engine.raw("GET /healthz HTTP/1.0\r\n\r\n");
    assertThat(none.status()).isEqualTo(403);
    TestEngine.RawResponse noneAt11 =
        engine.raw("GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n");
    assertThat(noneAt11.status()).isEqualTo(403);
    assertThat(noneAt11.body()).isEqualTo("host not allowed");
    TestEngine.RawResponse ipv6 =
        engine.raw("GET /healthz HTTP/1.1\r\nHost: [::1]:3200\r\nConnection: close\r\n\r\n");
    assertThat(ipv6.status()).isEqualTo(200);
  }
}
