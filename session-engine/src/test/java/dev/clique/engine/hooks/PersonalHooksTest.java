package dev.clique.engine.hooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.home.CliqueHome;
import dev.clique.engine.hooks.PersonalHooks.Target;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * clique's hooks in a person's own settings, in a throwaway home: every byte of theirs kept, a
 * second install a no-op, a remove that gives the very bytes back, or only clique's part when they
 * edited the file since, a file it cannot read refused by name and left alone.
 */
class PersonalHooksTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A person's settings as people write them: comments, a trailing comma, their own hooks. */
  private static final String THEIRS =
      """
      {
        // my model
        "model": "opus",
        "unknownKey": {"nested": [1, 2, 3]},
        "hooks": {
          "PreToolUse": [
            {
              "matcher": "Bash",
              "hooks": [{"type": "command", "command": "echo mine"}]
            },
          ],
          /* their own Stop hook */
          "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
        },
        "statusLine": {"type": "command", "command": "echo hi"},
      }
      """;

  @TempDir Path dir;
  private PersonalHooks hooks;
  private Target claude;
  private Path settings;

  @BeforeEach
  void setUp() throws Exception {
    Path user = Files.createDirectories(dir.resolve("user"));
    Files.createDirectories(user.resolve(".claude"));
    hooks = new PersonalHooks(new CliqueHome(dir.resolve("clique")), user, Map.of());
    claude = hooks.target("claude").orElseThrow();
    settings = user.resolve(".claude/settings.json");
    assertThat(claude.file()).isEqualTo(settings);
  }

  @Test
  void installKeepsEveryByteOfTheirsAndAddsAHookForEachEvent() throws Exception {
    Files.writeString(settings, THEIRS);
    String said = hooks.install(claude);

    String after = Files.readString(settings);
    assertThat(said).contains(settings.toString()).contains("UserPromptSubmit").contains("Stop");
    assertThat(after).contains("// my model", "/* their own Stop hook */", "echo mine");
    // Their text is all there, in its order: only insertions were made.
    assertThat(isSubsequence(THEIRS, after)).isTrue();
    JsonText.Obj root = (JsonText.Obj) JsonText.parse(after);
    JsonText.Obj hookObj = (JsonText.Obj) root.member("hooks").value();
    for (String event : ClaudeHooks.EVENTS) {
      JsonText.Arr groups = (JsonText.Arr) hookObj.member(event).value();
      assertThat(groups.elements().stream().filter(PersonalHooksTest::isClique).count())
          .as(event)
          .isEqualTo(1);
    }
    assertThat(hookObj.members().stream().map(JsonText.Member::key).toList())
        .as("theirs first, then the events added in the dialect's order")
        .containsExactly(
            "PreToolUse",
            "Stop",
            "UserPromptSubmit",
            "PermissionRequest",
            "PostToolUse",
            "Notification",
            "StopFailure",
            "SessionEnd");
    JsonText.Arr pre = (JsonText.Arr) hookObj.member("PreToolUse").value();
    assertThat(after.substring(pre.elements().get(0).start(), pre.elements().get(0).end()))
        .as("their own hook stays first")
        .contains("echo mine");
    assertThat(hooks.status(claude)).contains("installed in").doesNotContain("not installed");
    assertThat(after).doesNotContainIgnoringCase("token").doesNotContain("Bearer");
  }

  @Test
  void aStrictJsonFileStaysStrictJsonForTheCliThatReadsIt() throws Exception {
    String strict = "{\n  \"model\": \"opus\",\n  \"permissions\": {\n    \"allow\": []\n  }\n}\n";
    Files.writeString(settings, strict);
    hooks.install(claude);
    JsonNode parsed = JSON.readTree(Files.readString(settings));
    assertThat(parsed.path("model").asText()).isEqualTo("opus");
    JsonNode hook = parsed.path("hooks").path("UserPromptSubmit").get(0).path("hooks").get(0);
    assertThat(hook.path("type").asText()).isEqualTo("command");
    assertThat(hook.path("command").asText()).contains("engine.sock");
    assertThat(parsed.path("hooks").path("PreToolUse").get(0).path("matcher").asText())
        .isEqualTo("*");
  }

  @Test
  void aSecondInstallChangesNothingAndSaysSo() throws Exception {
    Files.writeString(settings, THEIRS);
    hooks.install(claude);
    byte[] once = Files.readAllBytes(settings);
    String said = hooks.install(claude);
    assertThat(said).contains("already").contains("nothing changed");
    assertThat(Files.readAllBytes(settings)).isEqualTo(once);
  }

  @Test
  void removeGivesBackTheVeryBytes() throws Exception {
    byte[] original = THEIRS.getBytes(StandardCharsets.UTF_8);
    Files.write(settings, original);
    Files.setPosixFilePermissions(settings, PosixFilePermissions.fromString("rw-r-----"));
    hooks.install(claude);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(settings)))
        .as("the file's mode is kept")
        .isEqualTo("rw-r-----");
    String said = hooks.remove(claude);
    assertThat(said).contains("back as it was");
    assertThat(Files.readAllBytes(settings)).isEqualTo(original);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(settings)))
        .isEqualTo("rw-r-----");
    assertThat(hooks.status(claude)).contains("not installed");
    assertThat(Files.list(settings.getParent()).map(p -> p.getFileName().toString()))
        .as("nothing left beside the person's file")
        .containsExactly("settings.json");
  }

  @Test
  void removeAfterTheyEditedTakesOutOnlyClique() throws Exception {
    Files.writeString(settings, THEIRS);
    hooks.install(claude);
    String edited = Files.readString(settings).replace("\"opus\"", "\"sonnet\"");
    Files.writeString(settings, edited);

    String said = hooks.remove(claude);

    assertThat(said).contains("changed since");
    assertThat(Files.readString(settings)).isEqualTo(THEIRS.replace("\"opus\"", "\"sonnet\""));
  }

  @Test
  void removeAfterTheyEditedAStrictFileWithoutHooksLeavesNoEmptyHooks() throws Exception {
    String strict = "{\n  \"model\": \"opus\"\n}\n";
    Files.writeString(settings, strict);
    hooks.install(claude);
    Files.writeString(settings, Files.readString(settings).replace("opus", "haiku"));
    hooks.remove(claude);
    assertThat(Files.readString(settings)).isEqualTo(strict.replace("opus", "haiku"));
  }

  @Test
  void aFileThatWasNotThereIsMadeAndRemovedAgain() throws Exception {
    hooks.install(claude);
    assertThat(JSON.readTree(Files.readString(settings)).path("hooks").size())
        .isEqualTo(ClaudeHooks.EVENTS.size());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(settings)))
        .isEqualTo("rw-------");
    hooks.remove(claude);
    assertThat(settings).doesNotExist();
  }

  @Test
  void aCompactOneLineFileGetsCompactHooks() throws Exception {
    Files.writeString(settings, "{\"model\":\"opus\"}");
    hooks.install(claude);
    String after = Files.readString(settings);
    assertThat(after).startsWith("{\"model\":\"opus\", \"hooks\": {").doesNotContain("\n");
    hooks.remove(claude);
    assertThat(Files.readString(settings)).isEqualTo("{\"model\":\"opus\"}");
  }

  @Test
  void aFileItCannotReadIsRefusedByNameAndLeftAlone() throws Exception {
    String broken = "{\n  \"model\": \"opus\"\n  \"theme\": \"dark\"\n}\n";
    Files.writeString(settings, broken);
    assertThatThrownBy(() -> hooks.install(claude))
        .hasMessageContaining(settings.toString())
        .hasMessageContaining("line 3");
    assertThat(Files.readString(settings)).isEqualTo(broken);

    Files.writeString(settings, "[1, 2]");
    assertThatThrownBy(() -> hooks.install(claude))
        .hasMessageContaining(settings.toString())
        .hasMessageContaining("not a JSON object");

    Files.writeString(settings, "{\"hooks\": [\"x\"]}");
    assertThatThrownBy(() -> hooks.install(claude))
        .hasMessageContaining("\"hooks\" is not an object");
    assertThat(Files.readString(settings)).isEqualTo("{\"hooks\": [\"x\"]}");
  }

  @Test
  void aSettingsFileThatIsALinkStaysOne() throws Exception {
    Path real = Files.writeString(dir.resolve("dotfiles-settings.json"), "{\"model\": \"opus\"}\n");
    Files.createSymbolicLink(settings, real);
    hooks.install(claude);
    assertThat(Files.isSymbolicLink(settings)).isTrue();
    assertThat(Files.readString(real)).contains("UserPromptSubmit");
    hooks.remove(claude);
    assertThat(Files.readString(real)).isEqualTo("{\"model\": \"opus\"}\n");
  }

  @Test
  void twoInstallsAtOnceLeaveOneHookPerEvent() throws Exception {
    Files.writeString(settings, THEIRS);
    int writers = 4;
    CyclicBarrier start = new CyclicBarrier(writers);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<String>> done = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        PersonalHooks own =
            new PersonalHooks(
                new CliqueHome(dir.resolve("clique")), settings.getParent().getParent(), Map.of());
        Callable<String> install =
            () -> {
              start.await();
              return own.install(own.target("claude").orElseThrow());
            };
        done.add(pool.submit(install));
      }
      long changed = 0;
      for (Future<String> f : done) {
        changed += f.get().contains("nothing changed") ? 0 : 1;
      }
      assertThat(changed).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
    String after = Files.readString(settings);
    JsonText.Obj hookObj =
        (JsonText.Obj) ((JsonText.Obj) JsonText.parse(after)).member("hooks").value();
    for (String event : ClaudeHooks.EVENTS) {
      assertThat(
              ((JsonText.Arr) hookObj.member(event).value())
                  .elements().stream().filter(PersonalHooksTest::isClique).count())
          .isEqualTo(1);
    }
    hooks.remove(claude);
    assertThat(Files.readString(settings)).isEqualTo(THEIRS);
  }

  @Test
  void qwenCodeGetsItsOwnEvents() throws Exception {
    Path user = settings.getParent().getParent();
    Files.createDirectories(user.resolve(".qwen"));
    Target qwen = hooks.target("qwen").orElseThrow();
    hooks.install(qwen);
    JsonNode parsed = JSON.readTree(Files.readString(qwen.file()));
    assertThat(parsed.path("hooks").properties().stream().map(Map.Entry::getKey).toList())
        .containsExactlyElementsOf(QwenHooks.EVENTS);
    assertThat(parsed.path("hooks").path("Stop").toString()).contains("/api/hooks/qwen?pid=");
  }

  @Test
  void statusSaysWhenTheHooksReportToAnotherHome() throws Exception {
    Files.writeString(settings, THEIRS);
    hooks.install(claude);
    assertThat(hooks.status(claude)).contains("reporting to " + dir.resolve("clique/engine.sock"));
    PersonalHooks otherHome =
        new PersonalHooks(
            new CliqueHome(dir.resolve("other")), settings.getParent().getParent(), Map.of());
    assertThat(otherHome.status(otherHome.target("claude").orElseThrow()))
        .contains("installed in " + settings)
        .contains("another clique home");
  }

  @Test
  void claudeConfigDirMovesClaudesFile() {
    PersonalHooks moved =
        new PersonalHooks(
            new CliqueHome(dir.resolve("clique")),
            dir,
            Map.of("CLAUDE_CONFIG_DIR", dir.resolve("elsewhere").toString()));
    assertThat(moved.target("claude").orElseThrow().file())
        .isEqualTo(dir.resolve("elsewhere/settings.json"));
  }

  private static boolean isClique(JsonText.Value group) {
    return group.toString().contains(HookRelay.OPERATOR_URL);
  }

  /** Whether every character of {@code part} is in {@code whole}, in the same order. */
  private static boolean isSubsequence(String part, String whole) {
    int at = 0;
    for (int i = 0; i < whole.length() && at < part.length(); i++) {
      if (whole.charAt(i) == part.charAt(at)) {
        at++;
      }
    }
    return at == part.length();
  }
}
