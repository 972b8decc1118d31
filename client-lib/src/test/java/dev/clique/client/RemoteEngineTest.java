package dev.clique.client;

import static dev.clique.client.Fixtures.TOKEN;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.util.Locale;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reaching an engine on another machine: the token never goes over plain HTTP to one unless that is
 * allowed, and an HTTPS engine with a self-signed certificate is trusted by its pin only.
 */
class RemoteEngineTest {
  private static final String OTHER =
      "00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF";

  @TempDir static Path dir;
  private static SelfSignedEngine engine;

  @BeforeAll
  static void start() throws Exception {
    // Its certificate names neither the address nor the name the client dials.
    engine = SelfSignedEngine.start(dir, "engine.invalid");
  }

  @AfterAll
  static void stop() {
    engine.close();
  }

  private static CliqueClient.Builder to(String url) {
    return CliqueClient.builder().baseUrl(url).token(TOKEN);
  }

  private static String httpsUrl() {
    return "https://127.0.0.1:" + engine.port();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://10.0.0.5:3200",
        "http://192.168.1.20:3200",
        "http://box.example.org:3200",
        "http://localhost.example.org:3200",
        "http://127.0.0.1.nip.io:3200",
        "http://[fe80::1]:3200",
        "http://[::2]:3200",
        "http://0.0.0.0:3200"
      })
  void plainHttpToAnotherMachineIsRefusedSayingWhatToDo(String url) {
    IllegalArgumentException e =
        catchThrowableOfType(IllegalArgumentException.class, () -> to(url).build());

    assertThat(e.getMessage())
        .startsWith("refusing to send the clique token over plain http:// to ")
        .contains("https://")
        .contains("ssh -N -L 3201:127.0.0.1:3200")
        .contains("http://127.0.0.1:3201")
        .contains("CliqueClient.Builder.allowPlainHttp(true)")
        .doesNotContain(TOKEN);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "http://127.0.0.1:3200",
        "http://127.3.4.5:3200",
        "http://localhost:3200",
        "http://LOCALHOST:3200/panel/",
        "http://[::1]:3200"
      })
  void plainHttpToThisMachineNeedsNoAllowance(String url) {
    assertThat(to(url).build().baseUrl()).startsWith("http://");
  }

  @Test
  void plainHttpToAnotherMachineIsBuiltWhenAllowedExplicitly() {
    assertThat(to("http://10.0.0.5:3200").allowPlainHttp(true).build().baseUrl())
        .isEqualTo("http://10.0.0.5:3200");
    assertThatThrownBy(
            () -> to("http://10.0.0.5:3200").allowPlainHttp(true).allowPlainHttp(false).build())
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aPinIsTakenWithColonsOrWithoutInEitherCase() {
    String plain = engine.sha256.replace(":", "");
    for (String form :
        new String[] {
          engine.sha256,
          engine.sha256.toLowerCase(Locale.ROOT),
          plain,
          plain.toLowerCase(Locale.ROOT),
          "  " + engine.sha256 + "\n"
        }) {
      assertThat(to(httpsUrl()).certificateSha256(form).toString())
          .contains("certificateSha256=" + engine.sha256);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "AB:CD",
        "sha256 Fingerprint=00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF",
        "00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE",
        "00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00",
        "0011:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF",
        "00-11-22-33-44-55-66-77-88-99-AA-BB-CC-DD-EE-FF-00-11-22-33-44-55-66-77-88-99-AA-BB-CC-DD-EE-FF",
        "GG112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF",
        "sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
      })
  void anythingElseIsRefusedAsAPin(String text) {
    assertThatThrownBy(() -> to(httpsUrl()).certificateSha256(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("a certificate SHA-256 fingerprint is 32 bytes in hex");
    assertThatThrownBy(() -> to(httpsUrl()).certificateSha256(null))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aPinIsForHttpsOnly() {
    assertThatThrownBy(() -> to("http://127.0.0.1:3200").certificateSha256(OTHER).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("https://")
        .hasMessageNotContaining(TOKEN);
  }

  @Test
  void theRightPinReachesASelfSignedEngineByAnyName() throws Exception {
    int before = engine.authorizations().size();
    for (String url : new String[] {httpsUrl(), "https://localhost:" + engine.port()}) {
      CliqueClient client = to(url).certificateSha256(engine.sha256).build();

      assertThat(client.health().ok()).isTrue();
    }
    assertThat(engine.authorizations().subList(before, engine.authorizations().size()))
        .containsOnly("Bearer " + TOKEN)
        .hasSize(2);
  }

  @Test
  void anotherPinIsRefusedNamingBothAndTheTokenIsNeverSent() {
    int before = engine.authorizations().size();
    CliqueClient client = to(httpsUrl()).certificateSha256(OTHER).build();

    CliqueException e = catchThrowableOfType(CliqueException.class, client::health);

    assertThat(e.kind()).isEqualTo(CliqueException.Kind.UNREACHABLE);
    assertThat(e.getMessage())
        .startsWith("could not reach clique at " + httpsUrl() + ": ")
        .contains("the engine's certificate has SHA-256 fingerprint " + engine.sha256)
        .contains("but the one pinned is " + OTHER);
    Fixtures.assertNoToken(e);
    assertThat(engine.authorizations()).hasSize(before);
  }

  @Test
  void withoutAPinASelfSignedEngineIsNotTrusted() {
    int before = engine.authorizations().size();
    CliqueClient client = to(httpsUrl()).build();

    CliqueException e = catchThrowableOfType(CliqueException.class, client::health);

    assertThat(e.kind()).isEqualTo(CliqueException.Kind.UNREACHABLE);
    assertThat(e.getMessage())
        .contains("the engine's certificate is not trusted here")
        .contains("CliqueClient.Builder.certificateSha256");
    Fixtures.assertNoToken(e);
    assertThat(engine.authorizations()).hasSize(before);
  }

  @Test
  void aSharedClientsPinnedConnectionIsNeverLentToAnUnpinnedOne() throws Exception {
    OkHttpClient shared = new OkHttpClient();
    CliqueClient pinned =
        to(httpsUrl()).okHttpClient(shared).certificateSha256(engine.sha256).build();
    CliqueClient unpinned = to(httpsUrl()).okHttpClient(shared).build();

    assertThat(pinned.health().ok()).isTrue();
    assertThat(shared.connectionPool().connectionCount()).isEqualTo(1);
    CliqueException e = catchThrowableOfType(CliqueException.class, unpinned::health);

    assertThat(e.getMessage()).contains("the engine's certificate is not trusted here");
    assertThat(pinned.health().ok()).isTrue();
  }
}
