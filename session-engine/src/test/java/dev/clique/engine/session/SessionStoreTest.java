package dev.clique.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionStoreTest {
  @TempDir Path dir;

  private static SessionRecord record(String id) {
    return new SessionRecord(id, "n-" + id, "shell", "/tmp", null, null, 1_700_000_000.5, null);
  }

  @Test
  void recordsSurviveAReopen() throws Exception {
    Path file = dir.resolve("state.json");
    SessionStore store = SessionStore.open(file);
    store.put(record("a"));
    store.put(record("b"));
    store.remove("a");
    assertThat(SessionStore.open(file).all()).containsExactly(record("b"));
  }

  @Test
  void aCorruptMainFileFallsBackToTheBackup() throws Exception {
    Path file = dir.resolve("state.json");
    SessionStore store = SessionStore.open(file);
    store.put(record("a"));
    store.put(record("b"));
    Files.writeString(file, "{\"sessions\": [ truncated");
    assertThat(SessionStore.open(file).all()).containsExactly(record("a"));
  }

  @Test
  void corruptFilesOrNoFileNeverStopStartUp() throws Exception {
    Path file = dir.resolve("state.json");
    assertThat(SessionStore.open(file).all()).isEmpty();
    Files.writeString(file, "\u0000\u0001 not json");
    Files.writeString(dir.resolve("state.json.bak"), "[]");
    assertThat(SessionStore.open(file).all()).isEmpty();
  }

  @Test
  void temporaryFilesLeftByAKilledWriterAreSweptAtOpen() throws Exception {
    Path file = dir.resolve("state.json");
    SessionStore.open(file).put(record("a"));
    Files.writeString(dir.resolve(".state.json.123.tmp"), "{\"sessions\": [");
    Files.writeString(dir.resolve(".tokens.json.9.tmp"), "not ours");
    assertThat(SessionStore.open(file).all()).containsExactly(record("a"));
    assertThat(dir.resolve(".state.json.123.tmp")).doesNotExist();
    assertThat(dir.resolve(".tokens.json.9.tmp")).exists();
  }

  @Test
  void unknownKeysInTheFileAreIgnored() throws Exception {
    Path file = dir.resolve("state.json");
    Files.writeString(
        file,
        "{\"sessions\":[{\"id\":\"x\",\"name\":\"n\",\"cli\":\"shell\",\"cwd\":\"/tmp\","
            + "\"created\":1,\"color\":\"#fff\"}],\"settings\":{}}");
    assertThat(SessionStore.open(file).all()).extracting(SessionRecord::id).containsExactly("x");
  }
}
