package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.fake.FakeEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One {@code clique mcp} over engines on machines of their own: three real {@code clique serve}s,
 * each with its real tmux, in network namespaces the test makes (or on loopback addresses of their
 * own where namespaces cannot be made; the test says which), plus two fakes on this machine: one
 * slower than its time-out, one that records every header it is sent. The engines file names them
 * all; {@code list_sessions} lists every engine that answers and names each that does not, and
 * every other tool goes to the one engine its id names, with that engine's token alone.
 */
class OneViewOverSeveralEnginesIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String BOGUS_TOKEN = "mxp_NotAnyEnginesTokenAtAll0000000000000000000000";

  @Test
  void listSessionsSeesEveryEngineThatAnswersAndNamesEachThatDoesNot() throws Exception {
    try (EngineHosts hosts = EngineHosts.create(3);
        FakeEngine slow = FakeEngine.start().failEveryRequest(FakeEngine.Fault.SILENT);
        FakeEngine recorder = FakeEngine.start().servingTheContract(FakeEngine.ANY)) {
      System.err.println("one view over several engines: on " + hosts.kind());
      List<ThrowawayEngine> engines = new ArrayList<>();
      Path mcpHome = Files.createTempDirectory("clique-it-view-");
      try {
        List<String> readers = new ArrayList<>();
        List<String> sessions = new ArrayList<>();
        for (EngineHosts.Host host : hosts.hosts()) {
          ThrowawayEngine engine = ThrowawayEngine.prepareOn(host).start();
          engines.add(engine);
          String admin = engine.mintToken("view-admin", false);
          readers.add(engine.mintToken("view-reader", true));
          sessions.add(engine.createShell(admin, "on-" + host.address()));
        }
        Files.setPosixFilePermissions(mcpHome, PosixFilePermissions.fromString("rwx------"));
        Path boxToken = mcpHome.resolve("box.token");
        Files.writeString(boxToken, readers.get(1) + "\n");
        Files.setPosixFilePermissions(boxToken, PosixFilePermissions.fromString("rw-------"));
        String recorderToken = "mxp_RecorderOwnTokenRecorderOwnTokenRecorder0000";
        Path file = mcpHome.resolve("engines.toml");
        Files.writeString(
            file,
            engine("laptop", engines.get(0).url, "token_env = \"CLIQUE_TOKEN_LAPTOP\"")
                + engine("box", engines.get(1).url, "token_file = \"box.token\"")
                + engine("desk", engines.get(2).url, "token_env = \"CLIQUE_TOKEN_DESK\"")
                + engine("slow", slow.url(), "token_env = \"CLIQUE_TOKEN_SLOW\"\ntimeout = 2")
                + engine("recorder", recorder.url(), "token_env = \"CLIQUE_TOKEN_RECORDER\""));
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Map<String, String> env = new HashMap<>();
        for (String key : List.of("PATH", "HOME", "LANG", "JAVA_HOME", "USER")) {
          if (System.getenv(key) != null) {
            env.put(key, System.getenv(key));
          }
        }
        env.put("CLIQUE_HOME", mcpHome.toString());
        env.put("CLIQUE_TOKEN_LAPTOP", readers.get(0));
        env.put("CLIQUE_TOKEN_DESK", BOGUS_TOKEN); // desk refuses it: 401
        env.put("CLIQUE_TOKEN_SLOW", "mxp_SlowEnginesTokenSlowEnginesTokenSlowEngine00");
        env.put("CLIQUE_TOKEN_RECORDER", recorderToken);

        try (Spawned process = Spawned.start(Launcher.jarCommand("mcp"), env, mcpHome)) {
          McpDialogue mcp = new McpDialogue(process);
          mcp.initialize("2025-06-18");

          JsonNode listed = structured(mcp.request("tools/call", call("list_sessions", Map.of())));
          assertThat(names(listed))
              .containsExactly(
                  "on-" + hosts.hosts().get(0).address(),
                  "on-" + hosts.hosts().get(1).address(),
                  "api refactor",
                  "build");
          assertThat(listed.at("/sessions/0/id").asText()).isEqualTo("laptop:" + sessions.get(0));
          assertThat(listed.at("/sessions/1/engine").asText()).isEqualTo("box");
          assertThat(report(listed, "laptop").path("ok").asBoolean()).isTrue();
          assertThat(report(listed, "box").path("ok").asBoolean()).isTrue();
          assertThat(report(listed, "desk").path("error").asText()).contains("401");
          assertThat(report(listed, "slow").path("error").asText())
              .contains("did not answer within 2 s");

          // Routed: box's session is read from box, with box's token.
          String boxId = "box:" + sessions.get(1);
          JsonNode pane = mcp.request("tools/call", call("preview_pane", Map.of("id", boxId)));
          assertThat(pane.at("/result/isError").asBoolean(true)).as(pane.toString()).isFalse();

          // Killed mid-call: a wait held on box ends with an error once box dies...
          process.send(
              JSON.writeValueAsString(
                  Map.of(
                      "jsonrpc",
                      "2.0",
                      "id",
                      900,
                      "method",
                      "tools/call",
                      "params",
                      call(
                          "wait",
                          Map.of("id", boxId, "until", List.of("stopped"), "timeout", 60)))));
          Thread.sleep(1_000); // the wait is held by box's engine
          engines.get(1).crash();
          JsonNode waited = answer(process, 900);
          assertThat(waited.at("/result/isError").asBoolean(false)).as(waited.toString()).isTrue();
          assertThat(text(waited)).contains("engine box: ").doesNotContain(readers.get(1));

          // ...and the list goes on without it, naming it.
          JsonNode after = structured(mcp.request("tools/call", call("list_sessions", Map.of())));
          assertThat(names(after))
              .containsExactly("on-" + hosts.hosts().get(0).address(), "api refactor", "build");
          assertThat(report(after, "box").path("ok").asBoolean(true)).isFalse();
          assertThat(report(after, "box").path("error").asText()).isNotBlank();
        }

        // No engine's token ever reached another engine: the recorder saw its own alone.
        assertThat(recorder.requests).isNotEmpty();
        assertThat(recorder.requests)
            .allSatisfy(
                r -> assertThat(r.header("authorization")).isEqualTo("Bearer " + recorderToken));
        assertThat(slow.requests)
            .allSatisfy(r -> assertThat(r.header("authorization")).doesNotContain(readers.get(0)));
      } finally {
        slow.releaseAll();
        for (ThrowawayEngine engine : engines) {
          engine.close();
        }
        ThrowawayEngine.deleteTree(mcpHome);
      }
    }
  }

  private static String engine(String name, String url, String token) {
    String plain = url.startsWith("http://127.") ? "" : "allow_plain_http = true\n";
    return "[engines." + name + "]\nurl = \"" + url + "\"\n" + token + "\n" + plain + "\n";
  }

  private static Map<String, Object> call(String tool, Map<String, Object> arguments) {
    return Map.of("name", tool, "arguments", arguments);
  }

  private static JsonNode structured(JsonNode answer) {
    assertThat(answer.at("/result/isError").asBoolean(true)).as(answer.toString()).isFalse();
    return answer.at("/result/structuredContent");
  }

  private static List<String> names(JsonNode listed) {
    List<String> names = new ArrayList<>();
    listed.path("sessions").forEach(s -> names.add(s.path("name").asText()));
    return names;
  }

  private static JsonNode report(JsonNode listed, String engine) {
    for (JsonNode report : listed.path("engines")) {
      if (report.path("name").asText().equals(engine)) {
        return report;
      }
    }
    throw new AssertionError("no report of engine " + engine + " in " + listed);
  }

  private static String text(JsonNode answer) {
    return answer.at("/result/content/0/text").asText();
  }

  private static JsonNode answer(Spawned process, int id) throws IOException, InterruptedException {
    while (true) {
      JsonNode frame = JSON.readTree(process.nextLine(Duration.ofSeconds(30)));
      if (frame.path("id").asInt(-1) == id) {
        return frame;
      }
    }
  }
}
