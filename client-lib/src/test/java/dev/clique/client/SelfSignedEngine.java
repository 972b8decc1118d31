package dev.clique.client;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.clique.fake.SelfSignedKeystore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An HTTPS stand-in for an engine on loopback, with a self-signed certificate that {@code keytool}
 * makes for the test: it answers {@code /healthz} with the contract's answer and keeps every
 * request it gets.
 */
final class SelfSignedEngine implements AutoCloseable {
  /** The certificate's SHA-256 fingerprint, as {@code keytool -list -v} prints it. */
  final String sha256;

  private final WireMockServer server;

  private SelfSignedEngine(WireMockServer server, String sha256) {
    this.server = server;
    this.sha256 = sha256;
  }

  /** An engine whose certificate names {@code commonName} only (no other DNS name or address). */
  static SelfSignedEngine start(Path dir, String commonName) throws Exception {
    SelfSignedKeystore keystore = SelfSignedKeystore.create(dir, commonName);
    String password = Files.readString(keystore.passwordFile()).strip();
    WireMockServer server =
        new WireMockServer(
            WireMockConfiguration.wireMockConfig()
                .bindAddress("127.0.0.1")
                .httpDisabled(true)
                .dynamicHttpsPort()
                .keystoreType("PKCS12")
                .keystorePath(keystore.keystore().toString())
                .keystorePassword(password)
                .keyManagerPassword(password));
    server.start();
    server.stubFor(
        WireMock.get("/healthz").willReturn(WireMock.okJson(Fixtures.contract("healthz.json"))));
    return new SelfSignedEngine(server, keystore.sha256());
  }

  /** The {@code Authorization} header of every request the engine got, in order. */
  List<String> authorizations() {
    List<String> seen = new ArrayList<>();
    for (ServeEvent event : server.getAllServeEvents()) {
      seen.add(0, String.valueOf(event.getRequest().getHeader("Authorization")));
    }
    return seen;
  }

  int port() {
    return server.httpsPort();
  }

  @Override
  public void close() {
    server.stop();
  }
}
