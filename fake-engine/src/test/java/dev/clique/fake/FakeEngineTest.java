package dev.clique.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fake engine's own rules: routes, what it records, faults, held answers. */
class FakeEngineTest {
  private final HttpClient http =
      HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
  private FakeEngine engine;

  @BeforeEach
  void start() throws Exception {
    engine = FakeEngine.start();
  }

  @AfterEach
  void stop() {
    engine.close();
  }

  private HttpRequest request(String method, String pathAndQuery) {
    return HttpRequest.newBuilder(URI.create(engine.url() + pathAndQuery))
        .method(method, HttpRequest.BodyPublishers.noBody())
        .header("Authorization", "Bearer t")
        .build();
  }

  private HttpResponse<String> send(String method, String pathAndQuery) throws Exception {
    return http.send(request(method, pathAndQuery), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aPathNoRouteNamesIsTheContractsNotFound() throws Exception {
    HttpResponse<String> answer = send("GET", "/api/nothing");
    assertThat(answer.statusCode()).isEqualTo(404);
    assertThat(answer.body()).isEqualTo(FakeEngine.contract("error-not-found.json"));
  }

  @Test
  void everyRequestIsRecordedRaw() throws Exception {
    send("GET", "/api/sessions/a%2Fb/peek?lines=8&x=%20");
    FakeEngine.Request asked = engine.last("/peek");
    assertThat(asked.method()).isEqualTo("GET");
    assertThat(asked.rawPath()).isEqualTo("/api/sessions/a%2Fb/peek");
    assertThat(asked.rawQuery()).isEqualTo("lines=8&x=%20");
    assertThat(asked.header("AUTHORIZATION")).isEqualTo("Bearer t");
    assertThat(engine.requestsTo("/api/sessions/a%2Fb/peek")).containsExactly(asked);
  }

  @Test
  void aWholePathWinsOverAnyAndAMethodOverAnyMethod() throws Exception {
    engine
        .servingTheContract(FakeEngine.ANY)
        .on("/api/sessions/one/peek", FakeEngine.json(200, "\"one\""))
        .on("POST", "/api/sessions/one/peek", FakeEngine.json(201, "\"posted\""));
    assertThat(send("GET", "/api/sessions/two/peek").body())
        .isEqualTo(FakeEngine.contract("peek.json"));
    assertThat(send("GET", "/api/sessions/one/peek").body()).isEqualTo("\"one\"");
    assertThat(send("POST", "/api/sessions/one/peek").statusCode()).isEqualTo(201);
    assertThat(send("GET", "/api/sessions/two/three/peek").statusCode()).isEqualTo(404);
  }

  @Test
  void aFaultAnswersEveryRequestUntilItStops() throws Exception {
    engine.servingTheContract(FakeEngine.ANY);
    engine.failEveryRequest(FakeEngine.Fault.REDIRECT);
    assertThat(send("GET", "/api/state").statusCode()).isEqualTo(302);
    engine.failEveryRequest(FakeEngine.Fault.UNAUTHORIZED);
    assertThat(send("GET", "/api/state").body())
        .isEqualTo(FakeEngine.contract("error-unauthorized.json"));
    engine.stopFailing();
    assertThat(send("GET", "/api/state").body()).isEqualTo(FakeEngine.contract("state.json"));
  }

  @Test
  void aHeldAnswerFinishesWhenReleased() throws Exception {
    engine.on("/api/sessions/s/wait", engine.hang("{}"));
    var answer =
        http.sendAsync(
            request("GET", "/api/sessions/s/wait"), HttpResponse.BodyHandlers.ofString());
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (engine.holding.get() < 1 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(engine.holding.get()).isEqualTo(1);
    engine.releaseAll();
    assertThat(answer.get(10, TimeUnit.SECONDS).body().strip()).isEqualTo("{}");
    assertThat(engine.abandoned.get()).isZero();
  }

  @Test
  void overHttpsItShowsTheKeystoresCertificate(@TempDir Path dir) throws Exception {
    SelfSignedKeystore keystore = SelfSignedKeystore.create(dir, "127.0.0.1");
    try (FakeEngine tls = FakeEngine.startHttps(keystore).servingTheContract()) {
      assertThat(tls.url()).startsWith("https://127.0.0.1:");
      HttpClient trusting = HttpClient.newBuilder().sslContext(keystore.clientContext()).build();

      HttpResponse<String> answer =
          trusting.send(
              HttpRequest.newBuilder(URI.create(tls.url() + "/api/state")).build(),
              HttpResponse.BodyHandlers.ofString());

      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.body()).isEqualTo(FakeEngine.contract("state.json"));
      assertThat(answer.sslSession().orElseThrow().getPeerCertificates()[0].getEncoded())
          .satisfies(
              der ->
                  assertThat(
                          HexFormat.ofDelimiter(":")
                              .withUpperCase()
                              .formatHex(MessageDigest.getInstance("SHA-256").digest(der)))
                      .isEqualTo(keystore.sha256()));
      assertThat(Files.getPosixFilePermissions(keystore.passwordFile()))
          .isEqualTo(PosixFilePermissions.fromString("rw-------"));
      assertThat(Files.getPosixFilePermissions(keystore.keystore()))
          .isEqualTo(PosixFilePermissions.fromString("rw-------"));
      // A client that trusts only the JVM's roots refuses it: it is self-signed.
      assertThatThrownBy(
              () ->
                  http.send(
                      HttpRequest.newBuilder(URI.create(tls.url() + "/api/state")).build(),
                      HttpResponse.BodyHandlers.ofString()))
          .isInstanceOf(javax.net.ssl.SSLHandshakeException.class);
      assertThat(tls.requests).hasSize(1);
    }
  }
}
