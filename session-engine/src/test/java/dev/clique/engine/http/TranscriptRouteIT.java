package dev.clique.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.Engine;
import dev.clique.engine.testing.TestEngine;
import dev.clique.engine.token.Scope;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A session of a fake {@code claude} (a script that writes its transcript where Claude Code would,
 * found by the {@code --session-id} the engine started it with) read back through {@code GET
 * /transcript}.
 */
class TranscriptRouteIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  @TempDir Path dir;

  @Test
  void theConversationOfAClaudeSessionComesFromItsOwnTranscript() throws Exception {
    Path script = dir.resolve("fake-claude");
    try (InputStream in = getClass().getResourceAsStream("/fake-cli/fake-claude")) {
      Files.copy(in, script);
    }
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    Path claudeHome = dir.resolve("claude-home");
    Path home = dir.resolve("home");
    Files.createDirectories(home);
    Files.writeString(
        home.resolve("clis.toml"),
        "[cli.claude]\ncommand = \""
            + script
            + "\"\nargs = [\"--session-id\", \"{id}\", \"--home\", \""
            + claudeHome
            + "\"]\n");
    Path project = Files.createDirectories(dir.resolve("my_app.v2"));

    Map<String, String> env = TestEngine.env(home, "clique-test-" + UUID.randomUUID());
    env.put("CLAUDE_CONFIG_DIR", claudeHome.toString());
    try (Engine engine = Engine.start(env, "127.0.0.1", 0, true, TestEngine.VERSION)) {
      try {
        String token =
            engine.tokens().create("t", EnumSet.of(Scope.READ, Scope.WRITE), "").secret();
        TestEngine.Http http = new TestEngine.Http(engine.url());
        HttpResponse<String> created =
            http.send(
                "POST",
                "/api/sessions",
                token,
                "{\"cli\":\"claude\",\"cwd\":\"" + project + "\",\"name\":\"fake\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = JSON.readTree(created.body()).path("id").asText();

        JsonNode turns = JSON.createArrayNode();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (turns.size() < 2 && System.nanoTime() < deadline) {
          HttpResponse<String> transcript =
              http.send("GET", "/api/sessions/" + id + "/transcript", token, null);
          assertThat(transcript.statusCode()).isEqualTo(200);
          JsonNode body = JSON.readTree(transcript.body());
          assertThat(body.path("cli").asText()).isEqualTo("claude");
          assertThat(body.path("name").asText()).isEqualTo("fake");
          turns = body.path("turns");
          Thread.sleep(100);
        }
        assertThat(turns)
            .isEqualTo(
                JSON.readTree(
                    "[{\"role\":\"user\",\"text\":\"Why does LoginTest fail on CI?\"},"
                        + "{\"role\":\"assistant\",\"text\":\"It depends on wall-clock time.\"}]"));

        JsonNode state = JSON.readTree(http.send("GET", "/api/state", token, null).body());
        for (JsonNode cli : state.path("clis")) {
          boolean expected =
              Set.of("claude", "codex", "gemini", "qwen", "copilot", "pi", "opencode")
                  .contains(cli.path("id").asText());
          assertThat(cli.path("transcript").asBoolean()).as(cli.toString()).isEqualTo(expected);
        }
      } finally {
        engine.sessions().tmux().killServer();
      }
    }
  }

  /**
   * The pane alone is given {@code CLAUDE_CONFIG_DIR} (its command is {@code env VAR=... claude}):
   * the engine finds the transcript there all the same; then the file is cut, replaced by a link
   * and by a FIFO, and every answer is still a 200 with the turns that can be read.
   */
  @Test
  void theConversationIsReadWhereThePanesOwnEnvironmentSaysAndBadFilesNeverFailIt()
      throws Exception {
    Path script = dir.resolve("fake-claude");
    try (InputStream in = getClass().getResourceAsStream("/fake-cli/fake-claude")) {
      Files.copy(in, script);
    }
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    Path paneClaude = dir.resolve("pane-claude");
    Path home = Files.createDirectories(dir.resolve("home"));
    Files.writeString(
        home.resolve("clis.toml"),
        "[cli.claude]\ncommand = \"env\"\nargs = [\"CLAUDE_CONFIG_DIR="
            + paneClaude
            + "\", \""
            + script
            + "\", \"--session-id\", \"{id}\"]\ntranscript = \"claude\"\n");
    Path project = Files.createDirectories(dir.resolve("project"));
    Map<String, String> env = TestEngine.env(home, "clique-test-" + UUID.randomUUID());
    env.put("HOME", dir.resolve("engine-home").toString());
    try (Engine engine = Engine.start(env, "127.0.0.1", 0, true, TestEngine.VERSION)) {
      try {
        String token =
            engine.tokens().create("t", EnumSet.of(Scope.READ, Scope.WRITE), "").secret();
        TestEngine.Http http = new TestEngine.Http(engine.url());
        HttpResponse<String> created =
            http.send(
                "POST",
                "/api/sessions",
                token,
                "{\"cli\":\"claude\",\"cwd\":\"" + project + "\",\"name\":\"pane-env\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = JSON.readTree(created.body()).path("id").asText();
        String route = "/api/sessions/" + id + "/transcript";

        JsonNode turns = JSON.createArrayNode();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (turns.size() < 2 && System.nanoTime() < deadline) {
          turns = turnsOf(http.send("GET", route, token, null));
          Thread.sleep(100);
        }
        assertThat(turns).as("turns found under the pane's CLAUDE_CONFIG_DIR").hasSize(2);
        Path file =
            paneClaude.resolve(
                "projects/"
                    + project.toString().replaceAll("[^A-Za-z0-9]", "-")
                    + "/"
                    + id
                    + ".jsonl");
        assertThat(file).isRegularFile();

        // Cut in the middle of its second line: the first line's turn remains.
        String text = Files.readString(file);
        int second = text.indexOf('\n', text.indexOf('\n') + 1);
        Files.writeString(file, text.substring(0, second + 20));
        assertThat(turnsOf(http.send("GET", route, token, null))).hasSize(1);

        Path outside = Files.writeString(dir.resolve("outside.jsonl"), text);
        Files.delete(file);
        Files.createSymbolicLink(file, outside);
        assertThat(turnsOf(http.send("GET", route, token, null))).as("a link").isEmpty();

        Files.delete(file);
        Process mkfifo = new ProcessBuilder("mkfifo", file.toString()).start();
        assertThat(mkfifo.waitFor()).isZero();
        long asked = System.nanoTime();
        assertThat(turnsOf(http.send("GET", route, token, null))).as("a FIFO").isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - asked)).isLessThan(Duration.ofSeconds(5));

        Files.delete(file);
        assertThat(turnsOf(http.send("GET", route, token, null))).as("gone").isEmpty();

        // Once the CLI has exited, the environment it was started with still says where to look.
        Files.writeString(file, text);
        HttpResponse<String> killed =
            http.send("POST", "/api/sessions/" + id + "/kill", token, "{}");
        assertThat(killed.statusCode()).as(killed.body()).isEqualTo(200);
        assertThat(turnsOf(http.send("GET", route, token, null))).as("after kill").hasSize(2);
      } finally {
        engine.sessions().tmux().killServer();
      }
    }
  }

  /**
   * An answer in a block type Claude Code 2.1.328 does not write, appended to the fake's
   * transcript: while it is half-written the answer is the turns before it; once its line is whole,
   * a 500 whose error names the file, the line, the block and the version that wrote it, never the
   * turns without it.
   */
  @Test
  void aRecordTheReaderDoesNotKnowIsA500NamingTheFileNeverAWrongListOfTurns() throws Exception {
    Path script = dir.resolve("fake-claude");
    try (InputStream in = getClass().getResourceAsStream("/fake-cli/fake-claude")) {
      Files.copy(in, script);
    }
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    Path claudeHome = dir.resolve("claude-home");
    Path home = Files.createDirectories(dir.resolve("home"));
    Files.writeString(
        home.resolve("clis.toml"),
        "[cli.claude]\ncommand = \""
            + script
            + "\"\nargs = [\"--session-id\", \"{id}\", \"--home\", \""
            + claudeHome
            + "\"]\n");
    Path project = Files.createDirectories(dir.resolve("project"));
    Map<String, String> env = TestEngine.env(home, "clique-test-" + UUID.randomUUID());
    env.put("CLAUDE_CONFIG_DIR", claudeHome.toString());
    try (Engine engine = Engine.start(env, "127.0.0.1", 0, true, TestEngine.VERSION)) {
      try {
        String token =
            engine.tokens().create("t", EnumSet.of(Scope.READ, Scope.WRITE), "").secret();
        TestEngine.Http http = new TestEngine.Http(engine.url());
        HttpResponse<String> created =
            http.send(
                "POST",
                "/api/sessions",
                token,
                "{\"cli\":\"claude\",\"cwd\":\"" + project + "\",\"name\":\"unknown\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String id = JSON.readTree(created.body()).path("id").asText();
        String route = "/api/sessions/" + id + "/transcript";
        JsonNode turns = JSON.createArrayNode();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (turns.size() < 2 && System.nanoTime() < deadline) {
          turns = turnsOf(http.send("GET", route, token, null));
          Thread.sleep(100);
        }
        assertThat(turns).hasSize(2);
        Path file =
            claudeHome.resolve(
                "projects/"
                    + project.toString().replaceAll("[^A-Za-z0-9]", "-")
                    + "/"
                    + id
                    + ".jsonl");
        String record =
            "{\"parentUuid\":\"u5\",\"isSidechain\":false,\"type\":\"assistant\","
                + "\"message\":{\"id\":\"msg_2\",\"role\":\"assistant\",\"content\":"
                + "[{\"type\":\"spoken_text\",\"text\":\"Set TZ=UTC.\"}]},\"uuid\":\"u6\","
                + "\"version\":\"2.1.400\"}";

        Files.writeString(file, record.substring(0, 60), StandardOpenOption.APPEND);
        assertThat(turnsOf(http.send("GET", route, token, null))).as("half-written").hasSize(2);

        Files.writeString(file, record.substring(60) + "\n", StandardOpenOption.APPEND);
        HttpResponse<String> answer = http.send("GET", route, token, null);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(500);
        assertThat(JSON.readTree(answer.body()).path("error").asText())
            .isEqualTo(
                file
                    + ": line 6, a record of type \"assistant\", holds a content block of type"
                    + " \"spoken_text\" with text, which this clique does not read (the file was"
                    + " written by Claude Code 2.1.400); its turns are not given rather than given"
                    + " wrong");
      } finally {
        engine.sessions().tmux().killServer();
      }
    }
  }

  private static JsonNode turnsOf(HttpResponse<String> answer) throws Exception {
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return JSON.readTree(answer.body()).path("turns");
  }
}
