package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a hostile folder, a hostile request or a secret in the engine's own environment could do to
 * a real engine on real tmux: run a command, start a pane elsewhere than the engine says, hand a
 * token to a pane or a command line, or turn a client's mistake into a 500.
 */
@ExtendWith(LeavesRealThingsUntouched.class)
class HostileSessionInputIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aFolderNameNeverRunsACommandNorMovesThePane() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      String admin = engine.mintToken("folders-admin", false);
      Path marker = engine.workdir.resolve("pwned");
      List<String> names =
          List.of(
              "run#(touch " + marker + ")",
              "pid#{pane_pid}",
              "ends-in;",
              "both#{session_name};",
              "#[fg=red]style");
      for (String name : names) {
        Path dir = Files.createDirectories(engine.workdir.resolve(name));
        HttpResponse<String> created = create(engine, admin, dir.toString(), null);
        assertThat(created.statusCode()).as(name + ": " + created.body()).isEqualTo(201);
        String id = JSON.readTree(created.body()).path("id").asText();
        long pid = Tmux.panePid(engine.socket, id);
        assertThat(Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "cwd")))
            .as("where the pane of %s really runs", name)
            .isEqualTo(dir.toRealPath());
        assertThat(session(engine, admin, id).path("cwd").asText()).isEqualTo(dir.toString());
      }
      Thread.sleep(300); // a #( ) job would have run by now
      assertThat(marker).doesNotExist();
    }
  }

  @Test
  void aPaneHoldsItsOwnSessionTokenAndNoneOfTheEngines() throws Exception {
    String engineSecret = "mxp_" + "E".repeat(43);
    try (ThrowawayEngine engine =
        ThrowawayEngine.prepare()
            .withEnv(Map.of("CLIQUE_TOKEN", engineSecret, "CLIQUE_URL", "http://engine.secret"))
            .start()) {
      String admin = engine.mintToken("env-admin", false);
      List<String> attentionTokens = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        String id = engine.createShell(admin, "env-" + i);
        Map<String, String> environ = environ(Tmux.panePid(engine.socket, id));
        assertThat(environ).doesNotContainValue(engineSecret);
        assertThat(environ).containsEntry("CLIQUE_SESSION", id);
        assertThat(environ.get("CLIQUE_URL")).isEqualTo(engine.url);
        assertThat(environ.get("CLIQUE_ATTENTION_TOKEN")).matches("mxp_[A-Za-z0-9_-]{43}");
        attentionTokens.add(environ.get("CLIQUE_ATTENTION_TOKEN"));
      }
      assertThat(attentionTokens.get(0)).isNotEqualTo(attentionTokens.get(1));
      String global = Tmux.run(engine.socket, "show-environment", "-g");
      assertThat(global).doesNotContain(engineSecret).doesNotContain("CLIQUE_");
      for (String token : attentionTokens) {
        assertThat(global).doesNotContain(token);
      }
    }
  }

  @Test
  void noTokenIsEverOnATmuxCommandLine() throws Exception {
    Path bin = Files.createTempDirectory("clique-it-tmux-log-");
    Path log = bin.resolve("argv.log");
    Path wrapper = bin.resolve("tmux");
    // A tmux in front of the real one that writes down every argument list it is given.
    Files.writeString(
        wrapper,
        "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + log + "'\nexec " + realTmux() + " \"$@\"\n");
    Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwx------"));
    try (ThrowawayEngine engine =
        ThrowawayEngine.prepare()
            .withEnv(Map.of("PATH", bin + ":" + System.getenv("PATH")))
            .start()) {
      String admin = engine.mintToken("argv-admin", false);
      for (int i = 0; i < 3; i++) {
        engine.createShell(admin, "argv-" + i);
      }
      String argv = Files.readString(log, StandardCharsets.UTF_8);
      assertThat(argv).contains("new-session").doesNotContain("mxp_");
    } finally {
      ThrowawayEngine.deleteTree(bin);
    }
  }

  @Test
  void aClientsMistakeIsA400NamingIt() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare().start()) {
      String admin = engine.mintToken("mistakes-admin", false);
      String id = engine.createShell(admin, "mistakes");

      HttpResponse<String> badEscape = engine.get("/api/sessions/" + id + "/peek?lines=%ff", admin);
      assertThat(badEscape.statusCode()).as(badEscape.body()).isEqualTo(400);
      assertThat(error(badEscape)).contains("query string");

      HttpResponse<String> nulCwd = create(engine, admin, engine.workdir + "/a\u0000b", null);
      assertThat(nulCwd.statusCode()).as(nulCwd.body()).isEqualTo(400);
      assertThat(error(nulCwd)).contains("cwd");

      HttpResponse<String> longName =
          create(engine, admin, engine.workdir.toString(), "n".repeat(100_000));
      assertThat(longName.statusCode()).as(longName.body()).isEqualTo(400);
      assertThat(error(longName)).contains("200 characters");

      HttpResponse<String> nulText = send(engine, admin, id, "echo a\u0000b");
      assertThat(nulText.statusCode()).as(nulText.body()).isEqualTo(400);
      assertThat(error(nulText)).contains("NUL");

      HttpResponse<String> hugeText = send(engine, admin, id, "x".repeat(200 * 1024));
      assertThat(hugeText.statusCode()).as(hugeText.body()).isEqualTo(400);
      assertThat(error(hugeText)).contains("65536 bytes");

      HttpResponse<String> fine = send(engine, admin, id, "echo still here;");
      assertThat(fine.statusCode()).as(fine.body()).isEqualTo(200);
      assertThat(engine.serveStderr()).doesNotContain("internal error");
    }
  }

  private static HttpResponse<String> create(
      ThrowawayEngine engine, String token, String cwd, String name) throws Exception {
    Map<String, String> body = new HashMap<>(Map.of("cli", "shell", "cwd", cwd));
    if (name != null) {
      body.put("name", name);
    }
    return engine.post("/api/sessions", token, JSON.writeValueAsString(body));
  }

  private static HttpResponse<String> send(
      ThrowawayEngine engine, String token, String id, String text) throws Exception {
    return engine.post(
        "/api/sessions/" + id + "/send",
        token,
        JSON.writeValueAsString(Map.of("text", text, "enter", true)));
  }

  private static JsonNode session(ThrowawayEngine engine, String token, String id)
      throws Exception {
    for (JsonNode session :
        JSON.readTree(engine.get("/api/state", token).body()).path("sessions")) {
      if (session.path("id").asText().equals(id)) {
        return session;
      }
    }
    throw new AssertionError("no session " + id + " in /api/state");
  }

  private static String error(HttpResponse<String> response) throws Exception {
    return JSON.readTree(response.body()).path("error").asText();
  }

  private static Map<String, String> environ(long pid) throws Exception {
    Map<String, String> environ = new HashMap<>();
    byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
    for (String entry : new String(raw, StandardCharsets.UTF_8).split("\u0000")) {
      int eq = entry.indexOf('=');
      if (eq > 0) {
        environ.put(entry.substring(0, eq), entry.substring(eq + 1));
      }
    }
    return environ;
  }

  private static String realTmux() {
    for (String dir : System.getenv("PATH").split(":")) {
      Path candidate = Path.of(dir, "tmux");
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    throw new AssertionError("tmux is not on PATH");
  }

  @Test
  void aHomeOthersCouldWriteOrALinkedTokenFileIsRefusedWithWhatToFix() throws Exception {
    try (ThrowawayEngine engine = ThrowawayEngine.prepare()) {
      Path planted = Files.createTempFile("clique-it-planted-", ".json");
      try {
        Files.setPosixFilePermissions(engine.home, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThat(serveRefuses(engine)).contains("writable by others").contains("chmod 700");

        Files.setPosixFilePermissions(engine.home, PosixFilePermissions.fromString("rwx------"));
        Files.createSymbolicLink(engine.home.resolve("tokens.json"), planted);
        assertThat(serveRefuses(engine)).contains("tokens.json").contains("symbolic link");

        Files.delete(engine.home.resolve("tokens.json"));
        Path state = Files.writeString(engine.home.resolve("state.json"), "{\"sessions\":[]}");
        Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertThat(serveRefuses(engine)).contains("state.json").contains("chmod 600");

        Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rw-r--r--"));
        engine.start(); // only readable by others: made private, and the engine starts
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state)))
            .isEqualTo("rw-------");
      } finally {
        Files.deleteIfExists(planted);
      }
    }
  }

  /** Runs {@code clique serve} on the engine's home; it must exit at once, non-zero. */
  private static String serveRefuses(ThrowawayEngine engine) throws Exception {
    try (Spawned serve =
        Spawned.start(
            Launcher.jarCommand("serve", "--port", Integer.toString(engine.port)),
            engine.env(),
            engine.workdir)) {
      assertThat(serve.waitFor(java.time.Duration.ofSeconds(30))).as(serve.stderr()).isNotZero();
      return serve.stderr();
    }
  }
}
