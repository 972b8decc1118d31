package dev.clique.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.clique.client.CliqueClient;
import dev.clique.fake.FakeEngine;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator.ValidationResponse;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The four tools that take a session take its name too, as the human commands do: a word that is no
 * session's id but one session's name answers for that session and says which id it resolved to; a
 * name two sessions share is an error naming both; a word that is neither says so; an id wins over
 * an equal name. Through a real client against a scripted engine that knows only ids.
 */
class SessionNamesTest {
  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};
  private static final String API = "a1a1a1a1-0000-4000-8000-000000000001";
  private static final String TWIN_CLAUDE = "b2b2b2b2-0000-4000-8000-000000000002";
  private static final String TWIN_CODEX = "c3c3c3c3-0000-4000-8000-000000000003";

  /** A session whose name is {@link #API}'s id. */
  private static final String IMPOSTOR = "d4d4d4d4-0000-4000-8000-000000000004";

  /** A session whose name has a {@code /}, which the engine refuses in a path (400). */
  private static final String SLASHED = "e5e5e5e5-0000-4000-8000-000000000005";

  private static final List<String> IDS = List.of(API, TWIN_CLAUDE, TWIN_CODEX, IMPOSTOR, SLASHED);

  private FakeEngine engine;
  private McpHarness mcp;

  @BeforeEach
  void start() throws Exception {
    engine =
        FakeEngine.start()
            .on(
                "/api/state",
                FakeEngine.json(
                    200,
                    "{\"version\": \"0.1.0\", \"sessions\": ["
                        + row(API, "api", "claude", "/home/dev/shop-api")
                        + ","
                        + row(TWIN_CLAUDE, "twin", "claude", "/home/dev/left")
                        + ","
                        + row(TWIN_CODEX, "twin", "codex", "/home/dev/right")
                        + ","
                        + row(IMPOSTOR, API, "shell", "/home/dev")
                        + ","
                        + row(SLASHED, "api/v2", "shell", "/home/dev")
                        + "]}"));
    for (String id : IDS) {
      String session = "/api/sessions/" + id;
      engine.on(
          session + "/peek",
          FakeEngine.json(
              200, "{\"lines\": [\"pane of " + id + "\"], \"alive\": true, \"activity\": 1}"));
      engine.on(
          session + "/wait",
          FakeEngine.json(
              200,
              "{\"id\": \"" + id + "\", \"state\": \"idle\", \"matched\": true, \"waited\": 0.2}"));
      engine.on(
          session + "/transcript",
          FakeEngine.json(200, "{\"cli\": \"claude\", \"name\": \"" + id + "\", \"turns\": []}"));
    }
    // As the real engine answers an encoded "/" in a path.
    engine.on(
        "/api/sessions/api%2Fv2/" + FakeEngine.ANY,
        FakeEngine.json(400, "{\"error\": \"bad request\"}"));
    CliqueClient client =
        CliqueClient.builder().baseUrl(engine.url()).token(Fixtures.TOKEN).build();
    mcp = McpHarness.start(new CliqueMcpServer(client, Fixtures.VERSION));
  }

  private static String row(String id, String name, String cli, String cwd) {
    return "{\"id\": \""
        + id
        + "\", \"name\": \""
        + name
        + "\", \"cli\": \""
        + cli
        + "\", \"cwd\": \""
        + cwd
        + "\", \"state\": \"idle\", \"alive\": true}";
  }

  @AfterEach
  void end() {
    mcp.close();
    engine.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"get_session", "wait", "preview_pane", "conversation"})
  void aNameOfOneSessionAnswersForItAndSaysWhichIdItResolvedTo(String tool) throws Exception {
    JsonNode result = call(tool, "api");

    assertThat(result.path("isError").asBoolean(true)).as(result.toString()).isFalse();
    JsonNode structured = result.get("structuredContent");
    assertThat(answeredFor(tool, structured)).isEqualTo(API);
    assertThat(structured.at("/resolved/given").asText()).isEqualTo("api");
    assertThat(structured.at("/resolved/by").asText()).isEqualTo("name");
    assertThat(structured.at("/resolved/id").asText()).isEqualTo(API);
    assertThat(Fixtures.json(result.at("/content/0/text").asText())).isEqualTo(structured);
    assertThat(result.at("/content/1/text").asText())
        .isEqualTo("resolved name 'api' to session " + API);
    assertMatchesOutputSchema(tool, structured);
    // The id was tried, then the list read once.
    assertThat(engine.requestsTo("/api/state")).hasSize(tool.equals("get_session") ? 2 : 1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"get_session", "wait", "preview_pane", "conversation"})
  void aNameOfTwoSessionsIsAnErrorNamingEachIdWithItsCliAndFolder(String tool) throws Exception {
    JsonNode result = call(tool, "twin");

    assertThat(result.path("isError").asBoolean(false)).as(result.toString()).isTrue();
    assertThat(result.at("/content/0/text").asText())
        .isEqualTo(
            "'twin' is the name of 2 sessions: "
                + TWIN_CLAUDE
                + " (claude, in /home/dev/left); "
                + TWIN_CODEX
                + " (codex, in /home/dev/right). Pass one of these ids as id.");
    assertThat(engine.requests)
        .noneMatch(
            r ->
                r.rawPath().startsWith("/api/sessions/" + TWIN_CLAUDE)
                    || r.rawPath().startsWith("/api/sessions/" + TWIN_CODEX));
  }

  @ParameterizedTest
  @ValueSource(strings = {"get_session", "wait", "preview_pane", "conversation"})
  void aWordThatIsNeitherAnIdNorANameSaysSoAndWhereToLook(String tool) throws Exception {
    JsonNode result = call(tool, "nobody");

    assertThat(result.path("isError").asBoolean(false)).as(result.toString()).isTrue();
    String text = result.at("/content/0/text").asText();
    // The cause as before (the engine's 404, or get_session's own sentence), then what it was not.
    assertThat(text)
        .startsWith(
            tool.equals("get_session")
                ? "no session with id nobody; "
                : "clique API returned 404: no such session; ")
        .endsWith(
            "'nobody' is neither a session's id nor a session's name: call list_sessions to see"
                + " each session's id and name");
  }

  @ParameterizedTest
  @ValueSource(strings = {"get_session", "wait", "preview_pane", "conversation"})
  void anIdWinsOverTheSameWordAsAnotherSessionsName(String tool) throws Exception {
    JsonNode result = call(tool, API);

    assertThat(result.path("isError").asBoolean(true)).as(result.toString()).isFalse();
    JsonNode structured = result.get("structuredContent");
    assertThat(answeredFor(tool, structured)).isEqualTo(API);
    assertThat(structured.has("resolved")).isFalse();
    assertThat(result.get("content")).hasSize(1);
    // The id's path is as cheap as it was: one request, no list read for a name.
    assertThat(engine.requests).hasSize(1);
    assertThat(engine.requests).noneMatch(r -> r.rawPath().contains(IMPOSTOR));
  }

  @ParameterizedTest
  @ValueSource(strings = {"wait", "preview_pane", "conversation"})
  void theStartOfAnIdResolvesAsTheCommandsDo(String tool) throws Exception {
    JsonNode result = call(tool, "c3c3c3c3");

    assertThat(result.path("isError").asBoolean(true)).as(result.toString()).isFalse();
    JsonNode structured = result.get("structuredContent");
    assertThat(answeredFor(tool, structured)).isEqualTo(TWIN_CODEX);
    assertThat(structured.at("/resolved/by").asText()).isEqualTo("id prefix");
    assertThat(result.at("/content/1/text").asText())
        .isEqualTo("resolved 'c3c3c3c3' (the start of an id) to session " + TWIN_CODEX);
  }

  @ParameterizedTest
  @ValueSource(strings = {"get_session", "wait", "preview_pane", "conversation"})
  void aNameTheEngineWillNotTakeInAPathResolvesToo(String tool) throws Exception {
    JsonNode result = call(tool, "api/v2");

    assertThat(result.path("isError").asBoolean(true)).as(result.toString()).isFalse();
    assertThat(answeredFor(tool, result.get("structuredContent"))).isEqualTo(SLASHED);
    assertThat(result.at("/content/1/text").asText())
        .isEqualTo("resolved name 'api/v2' to session " + SLASHED);
  }

  private JsonNode call(String tool, String id) throws InterruptedException {
    Map<String, Object> arguments =
        tool.equals("wait") ? Map.of("id", id, "timeout", 1) : Map.of("id", id);
    return mcp.callTool(tool, arguments).get("result");
  }

  /** Which session a tool's answer is for: each route of the engine above answers with its id. */
  private static String answeredFor(String tool, JsonNode structured) {
    return switch (tool) {
      case "preview_pane" -> structured.at("/lines/0").asText().replace("pane of ", "");
      case "conversation" -> structured.get("name").asText();
      default -> structured.get("id").asText();
    };
  }

  private void assertMatchesOutputSchema(String tool, JsonNode structured) throws Exception {
    for (JsonNode each : mcp.request("tools/list", null).at("/result/tools")) {
      if (each.get("name").asText().equals(tool)) {
        ValidationResponse valid =
            new DefaultJsonSchemaValidator()
                .validate(
                    Fixtures.JSON.convertValue(each.get("outputSchema"), OBJECT),
                    Fixtures.JSON.convertValue(structured, OBJECT));
        assertThat(valid.valid()).as(valid.errorMessage()).isTrue();
        return;
      }
    }
    throw new AssertionError("no tool " + tool);
  }
}
