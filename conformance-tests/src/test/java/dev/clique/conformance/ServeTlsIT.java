package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.fake.SelfSignedKeystore;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code clique serve} on HTTPS from a keystore made with keytool, as the README says: it prints
 * the certificate's fingerprint, {@code clique mcp} pinned to that fingerprint lists its sessions,
 * one pinned to another is refused naming both, and a keystore it cannot open keeps it from
 * starting at all.
 */
class ServeTlsIT {
  private static final Pattern PRINTED =
      Pattern.compile("clique engine certificate SHA-256 fingerprint: (\\S+)");

  @TempDir Path dir;

  @Test
  void clientsPinnedToThePrintedFingerprintListItsSessions() throws Exception {
    SelfSignedKeystore keystore = SelfSignedKeystore.create(dir, "127.0.0.1", "localhost");
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().withTls(keystore).start()) {
      assertThat(engine.url).startsWith("https://127.0.0.1:");
      // The fingerprint is printed right after the address.
      String printedAll = engine.serveStderrOnceItSays("certificate SHA-256 fingerprint: ");
      assertThat(printedAll).contains("clique engine listening on " + engine.url);
      Matcher printed = PRINTED.matcher(printedAll);
      assertThat(printed.find()).as(engine.serveStderr()).isTrue();
      String fingerprint = printed.group(1);
      assertThat(fingerprint).isEqualTo(keystore.sha256());

      String admin = engine.mintToken("tls-admin", false);
      String reader = engine.mintToken("tls-reader", true);
      String id = engine.createShell(admin, "over-https");
      assertThat(engine.serveStderr()).doesNotContain(admin, reader);

      Map<String, String> pinned = engine.mcpEnv(reader);
      pinned.put("CLIQUE_CERT_SHA256", fingerprint.toLowerCase(java.util.Locale.ROOT));
      assertThat(listSessions(pinned, engine).at("/result/structuredContent/sessions"))
          .anySatisfy(s -> assertThat(s.path("id").asText()).isEqualTo(id));

      String other = "AA:" + fingerprint.substring(3);
      if (other.equals(fingerprint)) {
        other = "BB:" + fingerprint.substring(3);
      }
      Map<String, String> wrong = engine.mcpEnv(reader);
      wrong.put("CLIQUE_CERT_SHA256", other);
      JsonNode refused = listSessions(wrong, engine);
      assertThat(refused.at("/result/isError").asBoolean()).isTrue();
      assertThat(refused.at("/result/content/0/text").asText())
          .contains(fingerprint)
          .contains(other)
          .doesNotContain(reader);

      // Unpinned, the JVM's trust store does not know a self-signed certificate.
      JsonNode untrusted = listSessions(engine.mcpEnv(reader), engine);
      assertThat(untrusted.at("/result/isError").asBoolean()).isTrue();
      assertThat(untrusted.at("/result/content/0/text").asText()).contains("not trusted");
    }
  }

  private static JsonNode listSessions(Map<String, String> env, ThrowawayEngine engine)
      throws IOException, InterruptedException {
    try (Spawned mcp = Spawned.start(Launcher.jarCommand("mcp"), env, engine.workdir)) {
      McpDialogue dialogue = new McpDialogue(mcp);
      dialogue.initialize("2025-11-25");
      return dialogue.callTool("list_sessions", Map.of());
    }
  }

  @Test
  void aKeystoreItCannotOpenKeepsItFromStarting() throws Exception {
    SelfSignedKeystore keystore = SelfSignedKeystore.create(dir, "127.0.0.1");
    Path wrongPassword = dir.resolve("wrong-password");
    Files.createFile(
        wrongPassword,
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(wrongPassword, "not-the-password\n");
    Path readable = dir.resolve("readable-password");
    Files.copy(keystore.passwordFile(), readable);
    Files.setPosixFilePermissions(readable, PosixFilePermissions.fromString("rw-r--r--"));

    List<String[]> cases = new ArrayList<>();
    cases.add(new String[] {keystore.keystore().toString(), wrongPassword.toString(), "wrong"});
    cases.add(new String[] {dir.resolve("none.p12").toString(), wrongPassword.toString(), "exist"});
    cases.add(new String[] {keystore.keystore().toString(), readable.toString(), "chmod 600"});
    for (String[] c : cases) {
      try (ThrowawayEngine engine = ThrowawayEngine.prepare()) {
        Map<String, String> env = engine.env();
        env.put("CLIQUE_TLS_KEYSTORE", c[0]);
        env.put("CLIQUE_TLS_PASSWORD_FILE", c[1]);
        try (Spawned serve =
            Spawned.start(
                Launcher.jarCommand("serve", "--port", Integer.toString(engine.port)),
                env,
                engine.workdir)) {
          assertThat(serve.waitFor(Duration.ofSeconds(30))).as(serve.stderr()).isEqualTo(1);
          assertThat(serve.stderr())
              .startsWith("clique serve: ")
              .contains(c[2])
              .doesNotContain("listening")
              .doesNotContain("not-the-password");
        }
        assertThatThrownBy(
                () -> {
                  try (Socket probe = new Socket()) {
                    probe.connect(new InetSocketAddress("127.0.0.1", engine.port), 1000);
                  }
                })
            .as("nothing listens on its port")
            .isInstanceOf(IOException.class);
      }
    }
  }
}
