package dev.clique.engine.home;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFileTest {
  @TempDir Path dir;

  @Test
  void aWrittenFileIsPrivateToItsOwner() throws Exception {
    Path file = dir.resolve("state.json");
    AtomicFile.write(file, bytes("{}"));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
  }

  @Test
  void thePreviousVersionIsKeptAsBakAndIsPrivateToo() throws Exception {
    Path file = dir.resolve("state.json");
    AtomicFile.write(file, bytes("one"));
    AtomicFile.write(file, bytes("two"));
    assertThat(Files.readString(file)).isEqualTo("two");
    Path bak = AtomicFile.backupOf(file);
    assertThat(Files.readString(bak)).isEqualTo("one");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(bak)))
        .isEqualTo("rw-------");
  }

  @Test
  void noTemporaryFileIsLeftBehind() throws Exception {
    Path file = dir.resolve("state.json");
    for (int i = 0; i < 5; i++) {
      AtomicFile.write(file, bytes("v" + i));
    }
    try (var entries = Files.list(dir)) {
      assertThat(entries.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("state.json", "state.json.bak");
    }
  }

  @Test
  void aCorruptMainFileFallsBackToTheBackup() throws Exception {
    Path file = dir.resolve("state.json");
    AtomicFile.write(file, bytes("good"));
    AtomicFile.write(file, bytes("also good"));
    Files.writeString(file, "garbage");
    byte[] read =
        AtomicFile.readWithFallback(file, data -> new String(data).contains("good")).orElseThrow();
    assertThat(new String(read, StandardCharsets.UTF_8)).isEqualTo("good");
  }

  @Test
  void neitherFileUsableGivesNothing() {
    assertThat(AtomicFile.readWithFallback(dir.resolve("missing.json"), data -> true)).isEmpty();
  }

  @Test
  void theHomeDirectoryIsMadePrivate() throws Exception {
    CliqueHome home = new CliqueHome(dir.resolve("home"));
    home.ensureExists();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.dir())))
        .isEqualTo("rwx------");
    assertThat(home.stateFile()).isEqualTo(dir.resolve("home").resolve("state.json"));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
