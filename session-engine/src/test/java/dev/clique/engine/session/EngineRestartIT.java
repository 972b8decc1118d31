package dev.clique.engine.session;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.engine.Engine;
import dev.clique.engine.home.HomeId;
import dev.clique.engine.testing.ApiClient;
import dev.clique.engine.testing.EngineSandbox;
import dev.clique.engine.tmux.HomeMark;
import dev.clique.engine.tmux.PaneInfo;
import dev.clique.engine.tmux.TmuxProcess;
import dev.clique.engine.token.Scope;
import dev.clique.engine.token.TokenStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
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
    // What an engine of this home killed during a create leaves: tmux made the session, marked as
    // this home's, after the next engine had looked for orphans at its start.
    String late = "7d3c2a10-0000-4000-8000-00000000late";
    sandbox
        .tmux()
        .tmux()
        .newSession(late, sandbox.work(), List.of("bash", "--norc"), Map.of(), thisHome());
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

  @Test
  void aSessionOfAnotherHomeOnTheSocketIsLeftToItAndAnEngineMarksItsOwn() throws Exception {
    HomeMark elsewhere =
        new HomeMark(UUID.randomUUID().toString(), dir.resolve("other").toString());
    String theirs = UUID.randomUUID().toString();
    TmuxProcess socket = sandbox.tmux().tmux();
    socket.newSession(theirs, sandbox.work(), List.of("bash", "--norc"), Map.of(), elsewhere);

    Engine engine = sandbox.engine();
    String token = engine.tokens().create("test", Set.of(Scope.READ, Scope.WRITE), "").secret();
    ApiClient api = new ApiClient(engine.url(), token);
    String body = "{\"cli\": \"shell\", \"cwd\": \"" + sandbox.work() + "\"}";
    String ours = api.post("/api/sessions", body).body().get("id").asText();

    assertThat(socket.home(ours)).as("made by this home's engine").isEqualTo(thisHome());
    assertThat(engine.sessions().adoptOrphans()).as("adopted again").isZero();
    assertThat(byId(api.get("/api/state").body())).containsOnlyKeys(ours);
    assertThat(socket.listPanes())
        .extracting(PaneInfo::session)
        .as("the other home's session runs on, untouched")
        .containsExactlyInAnyOrder(ours, theirs);
    assertThat(socket.home(theirs)).isEqualTo(elsewhere);
  }

  @Test
  void anUnmarkedSessionIsAdoptedOnlyWhenThisHomeMintedItsToken() throws Exception {
    // Sessions an older clique made, which marked none: one started by this home (its hook
    // token is in this home's tokens.json), one by another home.
    String mine = UUID.randomUUID().toString();
    String unknown = UUID.randomUUID().toString();
    TmuxProcess socket = sandbox.tmux().tmux();
    for (String id : List.of(mine, unknown)) {
      socket.newSession(id, sandbox.work(), List.of("bash", "--norc"), Map.of(), HomeMark.NONE);
    }
    Files.createDirectories(sandbox.home());
    TokenStore.open(sandbox.home().resolve("tokens.json"), Clock.systemUTC())
        .create("hook:" + mine.substring(0, 8), Set.of(Scope.ATTENTION), mine);

    Engine engine = sandbox.engine();
    String token = engine.tokens().create("test", Set.of(Scope.READ), "").secret();
    ApiClient api = new ApiClient(engine.url(), token);

    assertThat(byId(api.get("/api/state").body())).containsOnlyKeys(mine);
    assertThat(socket.home(mine)).as("marked once adopted").isEqualTo(thisHome());
    assertThat(socket.home(unknown)).as("left as it was").isEqualTo(HomeMark.NONE);
    assertThat(engine.sessions().adoptOrphans()).isZero();
    assertThat(socket.listPanes())
        .extracting(PaneInfo::session)
        .containsExactlyInAnyOrder(mine, unknown);
  }

  /** The mark of the sandbox's home, as its engine puts it on each session it makes. */
  private HomeMark thisHome() throws IOException {
    return new HomeMark(
        Files.readString(sandbox.home().resolve(HomeId.FILE)).strip(), sandbox.home().toString());
  }
}
