package dev.clique.engine.home;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file of secrets is taken only when its owner alone may use it, and that can be told. */
class PrivateFileTest {
  @TempDir Path dir;

  @Test
  void aFileOnlyItsOwnerUsesIsTaken() throws Exception {
    Path file = secret("rw-------");

    assertThatCode(() -> PrivateFile.require(file, "keystore", "make one"))
        .doesNotThrowAnyException();
  }

  @Test
  void aFileOthersMayReadIsRefusedWithTheCommandThatMendsIt() throws Exception {
    Path file = secret("rw-r--r--");

    assertThatThrownBy(() -> PrivateFile.require(file, "keystore", "make one"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("can be read by others than its owner (mode rw-r--r--)")
        .hasMessageContaining("chmod 600 " + file);
  }

  @Test
  void aMissingFileSaysHowToMakeOne() {
    Path file = dir.resolve("absent.p12");

    assertThatThrownBy(() -> PrivateFile.require(file, "keystore", "run keytool"))
        .isInstanceOf(IOException.class)
        .hasMessage("the keystore " + file + " does not exist: run keytool");
  }

  @Test
  void aFileOnAFileSystemWithoutPosixModesIsRefused() throws Exception {
    Path zip = dir.resolve("secrets.zip");
    try (FileSystem zipped =
        FileSystems.newFileSystem(URI.create("jar:" + zip.toUri()), Map.of("create", "true"))) {
      Path file = Files.writeString(zipped.getPath("/token"), "secret");

      assertThatThrownBy(() -> PrivateFile.require(file, "token file", "make one"))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("without POSIX permissions")
          .hasMessageContaining("mode 600");
    }
  }

  private Path secret(String mode) throws IOException {
    Path file = Files.writeString(dir.resolve("secret.p12"), "not really a keystore");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
    return file;
  }
}
