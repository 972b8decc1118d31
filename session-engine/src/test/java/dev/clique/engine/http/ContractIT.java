package dev.clique.engine.http;

import static dev.clique.engine.testing.JsonShapes.assertSameShape;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.clique.engine.testing.TestEngine;
import dev.clique.engine.token.Scope;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's answers have the shapes of the contract files that client-lib's parser tests read:
 * the two sides of the API are tested against one description of it.
 */
class ContractIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path CONTRACT = Path.of("..", "contract");
  @TempDir static Path home;
  private static TestEngine engine;
  private static String readWrite;
  private static String readOnly;

  @BeforeAll
  static void start() throws Exception {
    engine = TestEngine.start(home.resolve("home"));
    readWrite = engine.mint(EnumSet.of(Scope.READ, Scope.WRITE), "");
    readOnly = engine.mint(EnumSet.of(Scope.READ), "");
  }

  @AfterAll
  static void stop() {
    engine.close();
  }

  private static JsonNode contract(String file) throws Exception {
    return JSON.readTree(CONTRACT.resolve(file).toFile());
  }

  private static JsonNode body(HttpResponse<String> response, int status) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return JSON.readTree(response.body());
  }

  private static String create() throws Exception {
    JsonNode created =
        body(
            engine.send(
                "POST",
                "/api/sessions",
                readWrite,
                "{\"cli\":\"shell\",\"cwd\":\"" + home + "\",\"name\":\"contract\"}"),
            201);
    assertSameShape("created", contract("created.json"), created);
    return created.path("id").asText();
  }

  @Test
  void stateAndItsSessionsHaveTheContractShape() throws Exception {
    create();
    JsonNode state = body(engine.send("GET", "/api/state", readOnly, null), 200);
    JsonNode expected = contract("state.json");
    assertSameShape("state.version", expected.get("version"), state.get("version"));
    assertSameShape("state.revision", expected.get("revision"), state.get("revision"));
    assertThat(state.get("revision").isIntegralNumber())
        .as("the revision is a whole number")
        .isTrue();
    assertSameShape("state.sessions[1]", expected.at("/sessions/1"), state.at("/sessions/0"));
    assertSameShape("state.clis[0]", expected.at("/clis/0"), state.at("/clis/0"));
  }

  @Test
  void theStateWithUsageInBriefIsTheSameStateAndAnyOtherFormIsABadRequest() throws Exception {
    create();
    // Two answers of one revision, the same listing: a shell just started may still be moving.
    JsonNode full;
    JsonNode brief;
    int tries = 0;
    do {
      Thread.sleep(tries == 0 ? 0 : 100);
      full = body(engine.send("GET", "/api/state?usage=full", readOnly, null), 200);
      brief = body(engine.send("GET", "/api/state?usage=brief", readOnly, null), 200);
    } while (!brief.get("revision").equals(full.get("revision")) && ++tries < 100);
    assertSameShape(
        "state.sessions[1]", contract("state.json").at("/sessions/1"), brief.at("/sessions/0"));
    assertThat(brief.get("revision"))
        .as("a revision both answers are of")
        .isEqualTo(full.get("revision"));
    // A shell records no usage: both forms are the same, but for its memory, sampled on its own.
    for (JsonNode answer : List.of(full, brief)) {
      answer.get("sessions").forEach(row -> ((ObjectNode) row).remove("rss"));
    }
    assertThat(full.get("sessions")).isEqualTo(brief.get("sessions"));
    HttpResponse<String> bad = engine.send("GET", "/api/state?usage=all", readOnly, null);
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.body()).contains("usage must be brief or full");
  }

  @Test
  void numbersAreWrittenAsTheContractWritesThemNeverWithExponents() throws Exception {
    String id = create();
    String base = "/api/sessions/" + id;
    for (String path :
        new String[] {
          "/api/state",
          "/healthz",
          base + "/peek?lines=5",
          base + "/wait?for=idle,working,waiting,error&timeout=1",
          base + "/transcript"
        }) {
      HttpResponse<String> response = engine.send("GET", path, readOnly, null);
      assertThat(response.statusCode()).as(path).isEqualTo(200);
      assertThat(numbersIn(response.body()))
          .as(path)
          .allSatisfy(number -> assertThat(number).as(path).matches("-?\\d+(\\.\\d+)?"));
    }
    assertThat(numbersIn(engine.send("GET", "/api/state", readOnly, null).body()))
        .as("created and activity are seconds with their fraction")
        .anyMatch(number -> number.matches("\\d{10}\\.\\d+"));
  }

  /** Every number of a JSON text, as the text wrote it. */
  private static List<String> numbersIn(String text) throws Exception {
    List<String> numbers = new ArrayList<>();
    try (JsonParser parser = JSON.getFactory().createParser(text)) {
      for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
        if (token.isNumeric()) {
          numbers.add(parser.getText());
        }
      }
    }
    return numbers;
  }

  @Test
  void healthHasTheContractShapeWithAndWithoutAToken() throws Exception {
    assertSameShape(
        "healthz",
        contract("healthz-anonymous.json"),
        body(engine.send("GET", "/healthz", null, null), 200));
    assertSameShape(
        "healthz+token",
        contract("healthz.json"),
        body(engine.send("GET", "/healthz", readOnly, null), 200));
  }

  @Test
  void peekWaitAndTranscriptHaveTheContractShapes() throws Exception {
    String id = create();
    String base = "/api/sessions/" + id;
    JsonNode peek = body(engine.send("GET", base + "/peek?lines=5", readOnly, null), 200);
    assertSameShape("peek", contract("peek.json"), peek);
    assertSameShape(
        "wait matched",
        contract("wait-matched.json"),
        body(
            engine.send(
                "GET", base + "/wait?for=idle,working,waiting,error&timeout=1", readOnly, null),
            200));
    JsonNode timeout =
        body(engine.send("GET", base + "/wait?for=error&timeout=0", readOnly, null), 200);
    assertSameShape("wait timeout", contract("wait-timeout.json"), timeout);
    assertThat(timeout.path("matched").asBoolean(true)).isFalse();
    assertSameShape(
        "transcript",
        contract("transcript-empty.json"),
        body(engine.send("GET", base + "/transcript", readOnly, null), 200));

    assertSameShape(
        "ok", contract("ok.json"), body(engine.send("POST", base + "/kill", readWrite, null), 200));
    assertSameShape(
        "peek stopped",
        contract("peek-stopped.json"),
        body(engine.send("GET", base + "/peek", readOnly, null), 200));
  }

  @Test
  void aWaitOnASessionDeletedMeanwhileAnswersGone() throws Exception {
    String id = create();
    CompletableFuture<HttpResponse<String>> waiting =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return engine.send(
                    "GET", "/api/sessions/" + id + "/wait?for=error&timeout=20", readOnly, null);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    Thread.sleep(500);
    body(engine.send("DELETE", "/api/sessions/" + id, readWrite, null), 200);
    JsonNode gone = body(waiting.get(), 200);
    assertSameShape("wait gone", contract("wait-gone.json"), gone);
    assertThat(gone.path("state").asText()).isEqualTo("gone");
    assertThat(gone.path("matched").asBoolean(true)).isFalse();
  }

  @Test
  void errorBodiesHaveTheContractShapes() throws Exception {
    assertThat(body(engine.send("GET", "/api/state", null, null), 401))
        .isEqualTo(contract("error-unauthorized.json"));
    assertThat(body(engine.send("GET", "/api/sessions/nope/peek", readOnly, null), 404))
        .isEqualTo(contract("error-not-found.json"));
    assertThat(body(engine.send("POST", "/api/sessions/nope/kill", readOnly, null), 403))
        .isEqualTo(contract("error-read-only.json"));
  }
}
