package dev.clique.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
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
  void anUpdateChangesARecordStillThereAndNeverBringsBackADeletedOne() throws Exception {
    Path file = dir.resolve("state.json");
    SessionStore store = SessionStore.open(file);
    store.put(record("a"));
    SessionStore other = SessionStore.open(file); // another engine on the same home
    store.update(
        "a",
        r ->
            new SessionRecord(
                r.id(), "renamed", r.cli(), r.cwd(), null, null, r.created(), "ses_own"));
    assertThat(SessionStore.open(file).find("a").orElseThrow().cliSessionId()).isEqualTo("ses_own");
    other.remove("a");
    store.update(
        "a",
        r ->
            new SessionRecord(
                r.id(), "again", r.cli(), r.cwd(), null, null, r.created(), "ses_late"));
    assertThat(SessionStore.open(file).all()).as("deleted by the other engine meanwhile").isEmpty();
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
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Path leftover =
        Files.writeString(dir.resolve(".state.json." + gone.pid() + ".77.tmp"), "{\"sessions\": [");
    Path notOurs = Files.writeString(dir.resolve(".tokens.json." + gone.pid() + ".9.tmp"), "x");
    Path beingWritten =
        Files.writeString(
            dir.resolve(".state.json." + ProcessHandle.current().pid() + ".456.tmp"), "{\"ses");
    Path oldStyle = Files.writeString(dir.resolve(".state.json.123.tmp"), "{");
    Files.setLastModifiedTime(oldStyle, FileTime.from(Instant.now().minusSeconds(600)));
    Path freshOldStyle = Files.writeString(dir.resolve(".state.json.987.tmp"), "{");
    assertThat(SessionStore.open(file).all()).containsExactly(record("a"));
    assertThat(leftover).as("its writer is dead").doesNotExist();
    assertThat(notOurs).exists();
    assertThat(beingWritten).as("its writer, another engine on this home, is alive").exists();
    assertThat(oldStyle).as("no writer named, a minute old").doesNotExist();
    assertThat(freshOldStyle).as("no writer named, and fresh").exists();
  }

  @Test
  void sessionsAnotherEngineWritesArePickedUpWithinAQuarterSecond() throws Exception {
    Path file = dir.resolve("state.json");
    SessionStore serve = SessionStore.open(file);
    SessionStore embedded = SessionStore.open(file);
    serve.put(record("a"));
    serve.put(record("b"));
    long deadline = System.nanoTime() + 2_000_000_000L;
    while (embedded.all().size() < 2 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(embedded.all()).containsExactly(record("a"), record("b"));
    serve.remove("a");
    deadline = System.nanoTime() + 2_000_000_000L;
    while (embedded.find("a").isPresent() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(embedded.all()).containsExactly(record("b"));
  }

  @Test
  void aFileThatTurnsUnreadableKeepsWhatWasKnown() throws Exception {
    Path file = dir.resolve("state.json");
    SessionStore store = SessionStore.open(file);
    store.put(record("a"));
    Files.writeString(file, "garbage");
    Files.writeString(dir.resolve("state.json.bak"), "garbage too");
    Thread.sleep(300);
    assertThat(store.all()).containsExactly(record("a"));
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
