package dev.clique.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.client.CliqueClient;
import dev.clique.client.Session;
import dev.clique.engine.Engine;
import dev.clique.engine.testing.TestEngine;
import dev.clique.engine.token.Scope;
import dev.clique.fake.SelfSignedKeystore;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real engine on TLS with a keystore keytool made: it shows that certificate, says its
 * fingerprint, answers a client pinned to it, guards {@code Host} as over plain HTTP, and its own
 * sessions still reach it for their hooks.
 */
class TlsIT {
  @TempDir static Path dir;
  private static SelfSignedKeystore keystore;
  private static TestEngine test;
  private static Engine engine;
  private static String reader;
  private static String sessionId;

  @BeforeAll
  static void start() throws Exception {
    keystore = SelfSignedKeystore.create(dir, "127.0.0.1", "localhost");
    test =
        TestEngine.startTls(
            Files.createDirectories(dir.resolve("home")),
            Map.of(
                "CLIQUE_TLS_KEYSTORE", keystore.keystore().toString(),
                "CLIQUE_TLS_PASSWORD_FILE", keystore.passwordFile().toString(),
                "CLIQUE_ALLOWED_HOSTS", "box.example"));
    engine = test.engine;
    String operator = test.mint(EnumSet.of(Scope.READ, Scope.WRITE), "");
    reader = test.mint(EnumSet.of(Scope.READ), "");
    HttpResponse<String> created =
        pinnedJdk()
            .send(
                HttpRequest.newBuilder(URI.create(engine.url() + "/api/sessions"))
                    .header("Authorization", "Bearer " + operator)
                    .header("Content-Type", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            "{\"cli\":\"shell\",\"cwd\":\"" + dir + "\",\"name\":\"over-tls\"}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    sessionId = new ObjectMapper().readTree(created.body()).path("id").asText();
  }

  @AfterAll
  static void stop() {
    if (test != null) {
      test.close();
    }
  }

  private static HttpClient pinnedJdk() throws Exception {
    return HttpClient.newBuilder()
        .sslContext(keystore.clientContext())
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  @Test
  void itSaysTheFingerprintOfTheCertificateItShows() throws Exception {
    assertThat(engine.url()).startsWith("https://127.0.0.1:");
    assertThat(engine.certificateSha256()).contains(keystore.sha256());
    HttpResponse<String> health =
        pinnedJdk()
            .send(
                HttpRequest.newBuilder(URI.create(engine.url() + "/healthz")).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(TlsKeystore.fingerprint(health.sslSession().orElseThrow().getPeerCertificates()[0]))
        .isEqualTo(keystore.sha256());
  }

  @Test
  void aClientPinnedToItListsTheSessions() throws Exception {
    CliqueClient client =
        CliqueClient.builder()
            .baseUrl(engine.url())
            .token(reader)
            .certificateSha256(engine.certificateSha256().orElseThrow())
            .build();

    List<Session> sessions = client.sessions();

    assertThat(sessions).extracting(Session::name).contains("over-tls");
  }

  @Test
  void theHostGuardWorksOverTlsAsOverPlainHttp() throws Exception {
    assertThat(statusWithHost("localhost")).isEqualTo(200);
    assertThat(statusWithHost("box.example")).isEqualTo(200);
    assertThat(statusWithHost("attacker.example")).isEqualTo(403);
  }

  /**
   * The status of {@code GET /healthz} with that {@code Host}, which the JDK's client won't set.
   */
  private static int statusWithHost(String host) throws Exception {
    int port = URI.create(engine.url()).getPort();
    try (SSLSocket tls =
        (SSLSocket) keystore.clientContext().getSocketFactory().createSocket("127.0.0.1", port)) {
      tls.setSoTimeout(5000);
      OutputStream out = tls.getOutputStream();
      out.write(
          ("GET /healthz HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = tls.getInputStream();
      String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
      return Integer.parseInt(answer.substring(9, 12));
    }
  }

  @Test
  void itsOwnSessionsReachItForTheirHooksOnPlainLoopback() throws Exception {
    Process show =
        new ProcessBuilder(
                "tmux", "-L", test.socket, "show-environment", "-t", sessionId, "CLIQUE_URL")
            .redirectErrorStream(true)
            .start();
    String line = new String(show.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(show.waitFor()).as(line).isZero();
    String hookUrl = line.substring("CLIQUE_URL=".length());

    assertThat(hookUrl).startsWith("http://127.0.0.1:").isNotEqualTo(engine.url());
    HttpResponse<String> state =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(hookUrl + "/api/state"))
                    .header("Authorization", "Bearer " + reader)
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(state.statusCode()).isEqualTo(200);
    assertThat(state.body()).contains("over-tls");
  }
}
