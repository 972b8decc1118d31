package dev.clique.client;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HTTPS stand-in for an engine on loopback, with a self-signed certificate that {@code keytool}
 * makes for the test: it answers {@code /healthz} with the contract's answer and keeps every
 * request it gets.
 */
final class SelfSignedEngine implements AutoCloseable {
  private static final Pattern SHA256_LINE =
      Pattern.compile("SHA256: ((\\p{XDigit}{2}:){31}\\p{XDigit}{2})");

  /** The certificate's SHA-256 fingerprint, as {@code keytool -list -v} prints it. */
  final String sha256;

  private final WireMockServer server;

  private SelfSignedEngine(WireMockServer server, String sha256) {
    this.server = server;
    this.sha256 = sha256;
  }

  /** An engine whose certificate names {@code commonName} only (no other DNS name or address). */
  static SelfSignedEngine start(Path dir, String commonName) throws Exception {
    Path keystore = dir.resolve("engine.p12");
    Path passwordFile = dir.resolve("password");
    char[] password = "test-keystore-password".toCharArray();
    Files.writeString(passwordFile, new String(password));
    keytool(
        "-genkeypair",
        "-keyalg",
        "EC",
        "-groupname",
        "secp256r1",
        "-alias",
        "engine",
        "-dname",
        "CN=" + commonName,
        "-ext",
        "SAN=dns:" + commonName,
        "-validity",
        "2",
        "-storetype",
        "PKCS12",
        "-keystore",
        keystore.toString(),
        "-storepass:file",
        passwordFile.toString());
    Matcher printed =
        SHA256_LINE.matcher(
            keytool(
                "-list",
                "-v",
                "-keystore",
                keystore.toString(),
                "-storepass:file",
                passwordFile.toString()));
    if (!printed.find()) {
      throw new AssertionError("keytool printed no SHA256 fingerprint");
    }
    WireMockServer server =
        new WireMockServer(
            WireMockConfiguration.wireMockConfig()
                .bindAddress("127.0.0.1")
                .httpDisabled(true)
                .dynamicHttpsPort()
                .keystoreType("PKCS12")
                .keystorePath(keystore.toString())
                .keystorePassword(new String(password))
                .keyManagerPassword(new String(password)));
    server.start();
    server.stubFor(
        WireMock.get("/healthz").willReturn(WireMock.okJson(Fixtures.contract("healthz.json"))));
    return new SelfSignedEngine(server, printed.group(1));
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

  private static String keytool(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new AssertionError("keytool " + args[0] + " failed: " + output);
    }
    return output;
  }
}
