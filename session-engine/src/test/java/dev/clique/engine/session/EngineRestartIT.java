package dev.clique.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.engine.Engine;
import dev.clique.engine.testing.ApiClient;
import dev.clique.engine.testing.EngineSandbox;
import dev.clique.engine.tmux.PaneInfo;
import dev.clique.engine.token.Scope;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An engine that stops leaves its sessions running; the next one picks them up again. */
class EngineRestartIT {
  @TempDir Path dir;
  private EngineSandbox sandbox;

  @BeforeEach
  void sandbox() throws Exception {
    sandbox = new EngineSandbox(dir);
  }

  @AfterEach
  void cleanUp() {
    sandbox.close();
  }

  private static Map<String, JsonNode> byId(JsonNode state) {
    Map<String, JsonNode> sessions = new HashMap<>();
    state.get("sessions").forEach(s -> sessions.put(s.get("id").asText(), s));
    return sessions;
  }

  @Test
  void sessionsKeepRunningAcrossAnEngineRestartAndArePickedUpAgain() throws Exception {
    Engine first = sandbox.engine();
    String token = first.tokens().create("test", Set.of(Scope.READ, Scope.WRITE), "").secret();
    ApiClient api = new ApiClient(first.url(), token);
    String body = "{\"cli\": \"shell\", \"cwd\": \"" + sandbox.work() + "\"}";
    String busy = api.post("/api/sessions", body).body().get("id").asText();
    String idle = api.post("/api/sessions", body).body().get("id").asText();
    api.get("/api/sessions/" + busy + "/wait?for=idle&timeout=10");
    api.post("/api/sessions/" + busy + "/send", "{\"text\": \"sleep 60\"}");
    api.get("/api/sessions/" + idle + "/wait?for=idle&timeout=10");
    long pid =
        sandbox.tmux().tmux().listPanes().stream()
            .filter(p -> p.session().equals(idle))
            .mapToLong(PaneInfo::pid)
            .findFirst()
            .orElseThrow();

    sandbox.stop(first);
    assertThat(sandbox.tmux().tmux().listPanes())
        .extracting(PaneInfo::session)
        .as("stopping the engine leaves the sessions running")
        .containsExactlyInAnyOrder(busy, idle);

    Engine second = sandbox.engine();
    ApiClient again = new ApiClient(second.url(), token);
    Map<String, JsonNode> sessions = byId(again.get("/api/state").body());
    assertThat(sessions).containsOnlyKeys(busy, idle);
    assertThat(sessions.get(busy).get("alive").asBoolean()).isTrue();
    assertThat(sessions.get(busy).get("state").asText())
        .as("a shell still running sleep 60")
        .isEqualTo("working");
    assertThat(sessions.get(busy).get("command").asText()).isEqualTo("sleep");
    assertThat(sessions.get(idle).get("alive").asBoolean()).isTrue();
    assertThat(
            again
                .get("/api/sessions/" + idle + "/wait?for=idle&timeout=10")
                .body()
                .get("matched")
                .asBoolean())
        .isTrue();
    assertThat(sandbox.tmux().tmux().listPanes())
        .filteredOn(p -> p.session().equals(idle))
        .extracting(PaneInfo::pid)
        .as("the same process, not a new one")
        .containsExactly(pid);

    again.post("/api/sessions/" + idle + "/send", "{\"text\": \"echo picked-up-$((40+2))\"}");
    again.get("/api/sessions/" + idle + "/wait?for=idle&timeout=10");
    JsonNode peek = again.get("/api/sessions/" + idle + "/peek?lines=3").body();
    assertThat(peek.get("lines").toString()).contains("picked-up-42");

    again.post("/api/sessions/" + busy + "/send", "{\"key\": \"C-c\"}");
    assertThat(
            again
                .get("/api/sessions/" + busy + "/wait?for=idle&timeout=10")
                .body()
                .get("matched")
                .asBoolean())
        .isTrue();
  }

  @Test
  void aSessionThatAppearsOnTheSocketWithNoRecordAfterTheStartIsAdopted() throws Exception {
    Engine engine = sandbox.engine();
    String token = engine.tokens().create("test", Set.of(Scope.READ), "").secret();
    ApiClient api = new ApiClient(engine.url(), token);
    // What an engine killed during a create leaves: tmux made the session after the next engine
    // had looked for orphans at its start.
    String late = "7d3c2a10-0000-4000-8000-00000000late";
    sandbox
        .tmux()
        .tmux()
        .newSession(late, sandbox.work(), java.util.List.of("bash", "--norc"), Map.of());
    long deadline =
        System.nanoTime()
            + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(
                SessionWatcher.STRANGER_GRACE_MILLIS + 10_000);
    // Its record is written a moment before the engine's next look at its pane: alive by then.
    Map<String, JsonNode> sessions = byId(api.get("/api/state").body());
    while (!(sessions.containsKey(late) && sessions.get(late).get("alive").asBoolean())
        && System.nanoTime() < deadline) {
      Thread.sleep(200);
      sessions = byId(api.get("/api/state").body());
    }
    assertThat(sessions).as("adopted once it stayed unrecorded").containsKey(late);
    assertThat(sessions.get(late).get("cli").asText()).isEqualTo("shell");
    assertThat(sessions.get(late).get("alive").asBoolean()).isTrue();
  }
}
