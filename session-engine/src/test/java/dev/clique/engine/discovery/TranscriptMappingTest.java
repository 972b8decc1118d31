package dev.clique.engine.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clique.engine.transcript.TranscriptRoots;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which transcript a discovered CLI writes, from its argv, its pid file and its open files. */
class TranscriptMappingTest {
  private static final long PID = 4242;
  private static final String CWD = "/home/dev/project";
  private static final double STARTED = 1_780_000_000.0;

  @TempDir Path dir;
  private Path proc;
  private Path config;
  private Path project;
  private TranscriptMapping mapping;

  @BeforeEach
  void setUp() throws Exception {
    proc = Files.createDirectories(dir.resolve("proc"));
    Files.createDirectories(proc.resolve(PID + "/task/" + PID));
    Files.writeString(proc.resolve(PID + "/task/" + PID + "/children"), "");
    config = dir.resolve("claude");
    project =
        Files.createDirectories(
            new TranscriptRoots(
                    config,
                    dir.resolve("codex"),
                    dir.resolve("gemini"),
                    dir.resolve("qwen"),
                    dir.resolve("copilot"),
                    dir.resolve("pi"),
                    dir.resolve("opencode.db"))
                .claudeProjectDir(CWD));
    mapping = new TranscriptMapping(new Processes(proc));
  }

  private Found claude(String... argv) {
    return found("claude", Map.of("CLAUDE_CONFIG_DIR", config.toString()), argv);
  }

  private static Found found(String cli, Map<String, String> env, String... argv) {
    return new Found(
        "id-1",
        "work",
        cli,
        CWD,
        STARTED,
        "/tmp/tmux-1000/default",
        "work",
        0,
        "%1",
        PID,
        1,
        List.of(argv),
        env,
        false);
  }

  private Path transcript(String id, long secondsAfterStart) throws Exception {
    Path file = Files.writeString(project.resolve(id + ".jsonl"), "{}\n");
    Files.setLastModifiedTime(
        file, FileTime.from(Instant.ofEpochSecond((long) STARTED + secondsAfterStart)));
    return file;
  }

  private void pidFile(String id) throws Exception {
    Files.createDirectories(config.resolve("sessions"));
    Files.writeString(
        config.resolve("sessions/" + PID + ".json"),
        "{\"pid\":" + PID + ",\"sessionId\":\"" + id + "\",\"cwd\":\"" + CWD + "\"}");
  }

  @Test
  void qwensArgvNamesItsSession() {
    Found qwen =
        found("qwen", Map.of("HOME", dir.toString()), "node", "qwen", "--session-id", "q-1");
    TranscriptMapping.Mapped mapped = mapping.map(qwen, "qwen", dir);
    assertThat(mapped.request().cliSessionId()).isEqualTo("q-1");
    assertThat(mapped.exact()).isTrue();
    assertThat(mapped.roots().qwenHome()).isEqualTo(dir.resolve(".qwen"));
  }

  /** Qwen Code re-executes itself: the child writes the pid file of the session it records. */
  @Test
  void qwensChildProcessNamesItsSessionInItsPidFile() throws Exception {
    long child = PID + 1;
    Files.writeString(proc.resolve(PID + "/task/" + PID + "/children"), child + " ");
    Files.createDirectories(proc.resolve(child + "/task/" + child));
    Files.writeString(proc.resolve(child + "/task/" + child + "/children"), "");
    Path qwenHome = dir.resolve("own-qwen");
    Files.createDirectories(qwenHome.resolve("sessions"));
    Files.writeString(
        qwenHome.resolve("sessions/" + child + ".json"),
        "{\"schemaVersion\":1,\"pid\":"
            + child
            + ",\"sessionId\":\"q-2\",\"cwd\":\""
            + CWD
            + "\"}");
    Found qwen = found("qwen", Map.of("QWEN_HOME", qwenHome.toString()), "node", "qwen");

    TranscriptMapping.Mapped mapped = mapping.map(qwen, "qwen", dir);

    assertThat(mapped.request().cliSessionId()).isEqualTo("q-2");
    assertThat(mapped.exact()).isTrue();
    assertThat(mapped.roots().qwenHome()).isEqualTo(qwenHome);
    assertThat(mapped.evidence()).isEqualTo("its sessions/" + child + ".json");
  }

  @Test
  void qwenWithoutAPidFileHasNoSessionYet() {
    TranscriptMapping.Mapped mapped =
        mapping.map(found("qwen", Map.of("HOME", dir.toString()), "node", "qwen"), "qwen", dir);
    assertThat(mapped.request().cliSessionId()).isNull();
    assertThat(mapped.exact()).isFalse();
  }

  @Test
  void claudesArgvNamesItsSession() {
    TranscriptMapping.Mapped mapped =
        mapping.map(claude("claude", "--resume", "abc-123"), "claude", dir);
    assertThat(mapped.request().cliSessionId()).isEqualTo("abc-123");
    assertThat(mapped.exact()).isTrue();
    assertThat(mapped.roots().claudeConfigDir()).isEqualTo(config);
  }

  @Test
  void claudesPidFileNamesItsSessionWhileThatFileIsTheOneBeingWritten() throws Exception {
    pidFile("from-pid-file");
    transcript("older", -3600);
    transcript("from-pid-file", 60);
    TranscriptMapping.Mapped mapped = mapping.map(claude("claude"), "claude", dir);
    assertThat(mapped.request().cliSessionId()).isEqualTo("from-pid-file");
    assertThat(mapped.exact()).isTrue();
  }

  @Test
  void aStalePidFileGivesWayToTheNewestTranscriptAndSaysItIsAGuess() throws Exception {
    pidFile("before-clear");
    transcript("before-clear", 10);
    transcript("after-clear", 120);
    TranscriptMapping.Mapped mapped = mapping.map(claude("claude"), "claude", dir);
    assertThat(mapped.request().cliSessionId()).isEqualTo("after-clear");
    assertThat(mapped.exact()).isFalse();
    assertThat(mapped.evidence()).startsWith("guessed:");
  }

  @Test
  void withoutPidFileTheNewestTranscriptSinceTheStartIsAGuessAndAnOlderOneIsNone()
      throws Exception {
    transcript("long-ago", -3600);
    TranscriptMapping.Mapped none = mapping.map(claude("claude"), "claude", dir);
    assertThat(none.request().cliSessionId()).isNull();
    transcript("this-one", 30);
    TranscriptMapping.Mapped guessed = mapping.map(claude("claude"), "claude", dir);
    assertThat(guessed.request().cliSessionId()).isEqualTo("this-one");
    assertThat(guessed.exact()).isFalse();
  }

  @Test
  void copilotsArgvNamesItsSession() {
    TranscriptMapping.Mapped mapped =
        mapping.map(
            found("copilot", Map.of(), "copilot", "--resume=5f0c9a2e-1111-4c3b-9d1e-222233334444"),
            "copilot",
            dir);
    assertThat(mapped.request().cliSessionId()).isEqualTo("5f0c9a2e-1111-4c3b-9d1e-222233334444");
    assertThat(mapped.exact()).isTrue();
  }

  @Test
  void copilotIsMappedByTheInUseLockOfItsProcessElseGuessedByItsFolder() throws Exception {
    Path copilotHome = dir.resolve("copilot-home");
    Path sessions = Files.createDirectories(copilotHome.resolve("session-state"));
    Files.createDirectories(sessions.resolve("other-session"));
    Files.writeString(sessions.resolve("other-session/inuse.1.lock"), "1");
    Found copilot = found("copilot", Map.of("COPILOT_HOME", copilotHome.toString()), "copilot");

    TranscriptMapping.Mapped guessed = mapping.map(copilot, "copilot", dir);
    assertThat(guessed.request().cliSessionId()).isNull();
    assertThat(guessed.exact()).isFalse();
    assertThat(guessed.roots().copilotHome()).isEqualTo(copilotHome);

    Files.createDirectories(sessions.resolve("its-session"));
    Files.writeString(sessions.resolve("its-session/inuse." + PID + ".lock"), "" + PID);
    TranscriptMapping.Mapped locked = mapping.map(copilot, "copilot", dir);
    assertThat(locked.request().cliSessionId()).isEqualTo("its-session");
    assertThat(locked.exact()).isTrue();
    assertThat(locked.evidence()).contains("inuse." + PID + ".lock");
  }

  @Test
  void codexIsMappedByTheRolloutItHoldsOpen() throws Exception {
    Path rollout =
        dir.resolve(
            "codex-home/sessions/2026/06/01/rollout-2026-06-01T10-00-00-"
                + "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl");
    Files.createDirectories(proc.resolve(PID + "/fd"));
    Files.createSymbolicLink(proc.resolve(PID + "/fd/7"), rollout);
    TranscriptMapping.Mapped mapped =
        mapping.map(found("codex", Map.of(), "node", "codex.js"), "codex", dir);
    assertThat(mapped.exact()).isTrue();
    assertThat(mapped.request().cliSessionId()).isEqualTo("0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
    assertThat(mapped.roots().codexHome()).isEqualTo(dir.resolve("codex-home"));
  }

  @Test
  void opencodesArgvNamesItsSessionInTheDatabaseItHoldsOpen() throws Exception {
    Path db = dir.resolve("data/opencode/opencode.db");
    Files.createDirectories(proc.resolve(PID + "/fd"));
    Files.createSymbolicLink(proc.resolve(PID + "/fd/12"), db);
    TranscriptMapping.Mapped mapped =
        mapping.map(
            found("opencode", Map.of(), "opencode", "-s", "ses_dc935c8e6ffe6FSo3ex0MmaPzA"),
            "opencode",
            dir);
    assertThat(mapped.exact()).isTrue();
    assertThat(mapped.request().cliSessionId()).isEqualTo("ses_dc935c8e6ffe6FSo3ex0MmaPzA");
    assertThat(mapped.roots().opencodeDatabase()).isEqualTo(db);
    assertThat(mapped.evidence()).contains("its argv: -s", "holds open");
  }

  @Test
  void opencodeWithoutASessionInItsArgvIsTheNewestOfItsFolderAsAGuess() {
    TranscriptMapping.Mapped mapped =
        mapping.map(
            found("opencode", Map.of("XDG_DATA_HOME", "/home/dev/data"), "opencode"),
            "opencode",
            dir);
    assertThat(mapped.exact()).isFalse();
    assertThat(mapped.request().cliSessionId()).isNull();
    assertThat(mapped.roots().opencodeDatabase())
        .isEqualTo(Path.of("/home/dev/data/opencode/opencode.db"));
    assertThat(mapped.evidence()).startsWith("guessed:");
  }

  @Test
  void codexWithoutAnOpenRolloutAndGeminiAreMappedByTheirFolderAsAGuess() {
    TranscriptMapping.Mapped codex =
        mapping.map(
            found("codex", Map.of("CODEX_HOME", "/home/dev/.codex"), "codex"), "codex", dir);
    assertThat(codex.exact()).isFalse();
    assertThat(codex.request().cwd()).hasToString(CWD);
    assertThat(codex.request().created()).isEqualTo(Instant.ofEpochSecond((long) STARTED));
    assertThat(codex.roots().codexHome()).hasToString("/home/dev/.codex");
    TranscriptMapping.Mapped gemini =
        mapping.map(found("gemini", Map.of("HOME", "/home/dev"), "gemini"), "gemini", dir);
    assertThat(gemini.exact()).isFalse();
    assertThat(gemini.roots().geminiHome()).hasToString("/home/dev/.gemini");
  }

  @Test
  void piIsMappedToTheNewestSessionOfItsFolderWrittenSinceItStartedAsAGuess() throws Exception {
    Path agent = dir.resolve("pi-home/.pi/agent");
    Path folder =
        Files.createDirectories(
            new TranscriptRoots(
                    config,
                    dir.resolve("codex"),
                    dir.resolve("gemini"),
                    dir.resolve("qwen"),
                    dir.resolve("copilot"),
                    agent,
                    dir.resolve("opencode.db"))
                .piSessionDir(CWD));
    Path older = Files.writeString(folder.resolve("2026-06-01T09-00-00-000Z_old-1.jsonl"), "{}\n");
    Files.setLastModifiedTime(older, FileTime.from(Instant.ofEpochSecond((long) STARTED - 600)));
    Path newest =
        Files.writeString(folder.resolve("2026-06-01T10-00-00-000Z_0199a1b2-new.jsonl"), "{}\n");
    Files.setLastModifiedTime(newest, FileTime.from(Instant.ofEpochSecond((long) STARTED + 5)));

    TranscriptMapping.Mapped mapped =
        mapping.map(
            found("pi", Map.of("HOME", dir.resolve("pi-home").toString()), "pi", "", ""),
            "pi",
            dir);

    assertThat(mapped.exact()).isFalse();
    assertThat(mapped.request().cliSessionId()).isEqualTo("0199a1b2-new");
    assertThat(mapped.roots().piAgentDir()).isEqualTo(agent);
    assertThat(mapped.evidence()).contains("newest pi session");

    Files.setLastModifiedTime(newest, FileTime.from(Instant.ofEpochSecond((long) STARTED - 600)));
    assertThat(
            mapping
                .map(
                    found("pi", Map.of("HOME", dir.resolve("pi-home").toString()), "pi"), "pi", dir)
                .request()
                .cliSessionId())
        .as("none written since it started")
        .isNull();
  }
}
