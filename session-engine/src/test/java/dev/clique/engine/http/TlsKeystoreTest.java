package dev.clique.engine.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clique.fake.SelfSignedKeystore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the engine's TLS settings refuse, each refusal saying what to do. */
class TlsKeystoreTest {
  @TempDir static Path dir;
  private static SelfSignedKeystore made;

  @BeforeAll
  static void make() throws Exception {
    made = SelfSignedKeystore.create(dir, "127.0.0.1", "localhost");
  }

  private static Path privateFile(Path where, String text) throws IOException {
    Files.deleteIfExists(where);
    Files.createFile(
        where, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    return Files.writeString(where, text);
  }

  private static Path copyWithMode(Path file, String name, String mode) throws IOException {
    Path copy = dir.resolve(name);
    Files.copy(file, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString(mode));
    return copy;
  }

  @Test
  void neitherVariableMeansPlainHttp() throws IOException {
    assertThat(TlsKeystore.fromEnvironment(Map.of())).isEmpty();
  }

  @Test
  void theKeystoreLoadsAndItsFingerprintIsKeytoolsOwn() throws IOException {
    TlsKeystore tls =
        TlsKeystore.fromEnvironment(
                Map.of(
                    "CLIQUE_TLS_KEYSTORE", made.keystore().toString(),
                    "CLIQUE_TLS_PASSWORD_FILE", made.passwordFile().toString()))
            .orElseThrow();

    assertThat(tls.sha256()).isEqualTo(made.sha256());
    assertThat(tls.toString()).doesNotContain(Files.readString(made.passwordFile()).strip());
  }

  @Test
  void oneVariableWithoutTheOtherIsRefused() {
    assertThatThrownBy(
            () ->
                TlsKeystore.fromEnvironment(
                    Map.of("CLIQUE_TLS_KEYSTORE", made.keystore().toString())))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("CLIQUE_TLS_PASSWORD_FILE is not")
        .hasMessageContaining("0600");
    assertThatThrownBy(
            () ->
                TlsKeystore.fromEnvironment(
                    Map.of("CLIQUE_TLS_PASSWORD_FILE", made.passwordFile().toString())))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("CLIQUE_TLS_KEYSTORE is not")
        .hasMessageContaining("keytool -genkeypair");
  }

  @Test
  void aMissingFileIsRefusedSayingHowToMakeIt() {
    assertThatThrownBy(() -> TlsKeystore.load(dir.resolve("none.p12"), made.passwordFile()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("none.p12 does not exist")
        .hasMessageContaining("keytool -genkeypair");
    assertThatThrownBy(() -> TlsKeystore.load(made.keystore(), dir.resolve("no-password")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("no-password does not exist")
        .hasMessageContaining("chmod 600");
  }

  @Test
  void aWrongPasswordIsRefusedAndNotShown() throws IOException {
    Path wrong = privateFile(dir.resolve("wrong"), "not-the-password\n");

    assertThatThrownBy(() -> TlsKeystore.load(made.keystore(), wrong))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("does not open with the password in " + wrong)
        .hasMessageContaining("the password is wrong")
        .hasMessageNotContaining("not-the-password");
  }

  @Test
  void anEmptyPasswordFileIsRefused() throws IOException {
    Path empty = privateFile(dir.resolve("empty"), "\n");

    assertThatThrownBy(() -> TlsKeystore.load(made.keystore(), empty))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("is empty");
  }

  @Test
  void aFileOthersCanReadIsRefusedWithTheChmodThatMendsIt() throws IOException {
    Path open = copyWithMode(made.passwordFile(), "open-password", "rw-r--r--");
    Path groupKeystore = copyWithMode(made.keystore(), "group.p12", "rw-r-----");

    assertThatThrownBy(() -> TlsKeystore.load(made.keystore(), open))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("TLS password file (CLIQUE_TLS_PASSWORD_FILE)")
        .hasMessageContaining("can be read by others than its owner (mode rw-r--r--)")
        .hasMessageContaining("`chmod 600 " + open + "`");
    assertThatThrownBy(() -> TlsKeystore.load(groupKeystore, made.passwordFile()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("TLS keystore (CLIQUE_TLS_KEYSTORE)")
        .hasMessageContaining("`chmod 600 " + groupKeystore + "`");
  }

  @Test
  void aFileThatIsNoKeystoreIsRefused() throws IOException {
    Path text = privateFile(dir.resolve("text.p12"), "hello\n");

    assertThatThrownBy(() -> TlsKeystore.load(text, made.passwordFile()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("could not be read as a PKCS#12 keystore")
        .hasMessageContaining("keytool -genkeypair");
  }
}
