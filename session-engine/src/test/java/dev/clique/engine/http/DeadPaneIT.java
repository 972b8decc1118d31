package dev.clique.engine.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.engine.testing.TestEngine;
import dev.clique.engine.token.Scope;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CLI that exits at once leaves something to see (tmux 3.3a may drop the output of a process that
 * exits within a few milliseconds of starting, so this one lingers a moment, as a real CLI does):
 * the session is stopped with its exit status, and its last screen stays readable through peek
 * until it is started again or deleted.
 */
class DeadPaneIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path home;
  private static TestEngine engine;
  private static String operator;

  @BeforeAll
  static void start() throws Exception {
    engine =
        TestEngine.startWithClis(
            home,
            "[cli.dies]\ncommand = \"bash\"\n"
                + "args = [\"--norc\", \"-c\", \"echo 'error: unable to start, no config'; sleep 0.3; exit 3\"]\n"
                + "[cli.killed]\ncommand = \"bash\"\n"
                + "args = [\"--norc\", \"-c\", \"echo 'about to be killed'; sleep 0.3; kill -TERM $$\"]\n");
    operator = engine.mint(EnumSet.of(Scope.READ, Scope.WRITE), "");
  }

  @AfterAll
  static void stop() {
    engine.close();
  }

  @Test
  void aCliThatExitsAtOnceIsStoppedWithItsStatusAndItsLastScreen() throws Exception {
    String id = engine.create(operator, "dies", home, "dies");

    JsonNode session = eventuallyStopped(id);
    assertThat(session.path("alive").asBoolean()).isFalse();
    assertThat(session.path("exit_status").asInt()).isEqualTo(3);
    assertThat(session.at("/state_source/evidence").asText()).isEqualTo("exited with status 3");

    JsonNode peek =
        JSON.readTree(
            engine.send("GET", "/api/sessions/" + id + "/peek?lines=5", operator, null).body());
    assertThat(peek.path("alive").asBoolean()).isFalse();
    assertThat(peek.path("lines").toString()).contains("error: unable to start, no config");

    HttpResponse<String> again =
        engine.send("POST", "/api/sessions/" + id + "/start", operator, null);
    assertThat(again.statusCode())
        .as("a dead pane does not block a restart: " + again.body())
        .isEqualTo(200);
    assertThat(eventuallyStopped(id).path("alive").asBoolean()).isFalse();

    assertThat(engine.send("DELETE", "/api/sessions/" + id, operator, null).statusCode())
        .isEqualTo(200);
    assertThat(engine.send("GET", "/api/sessions/" + id + "/peek", operator, null).statusCode())
        .isEqualTo(404);
  }

  @Test
  void aCliASignalEndedIsStoppedSayingWhichSignal() throws Exception {
    String id = engine.create(operator, "killed", home, "killed");

    JsonNode session = eventuallyStopped(id);
    assertThat(session.path("exit_status").isNull()).as("no status: %s", session).isTrue();
    assertThat(session.at("/state_source/evidence").asText())
        .isEqualTo("killed by signal 15 (SIGTERM)");
    assertThat(engine.send("DELETE", "/api/sessions/" + id, operator, null).statusCode())
        .isEqualTo(200);
  }

  /** The session once it is stopped and the engine knows how its process ended. */
  private static JsonNode eventuallyStopped(String id) throws Exception {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (true) {
      for (JsonNode s :
          JSON.readTree(engine.send("GET", "/api/state", operator, null).body()).path("sessions")) {
        if (s.path("id").asText().equals(id)
            && s.path("state").asText().equals("stopped")
            && s.at("/state_source/evidence").asText().matches("exited with status .*|killed .*")) {
          return s;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "session "
                + id
                + " never stopped with a status or signal; tmux has "
                + engine.engine.sessions().tmux().listPanes()
                + "; the engine: "
                + engine.send("GET", "/api/state", operator, null).body());
      }
      Thread.sleep(100);
    }
  }
}
