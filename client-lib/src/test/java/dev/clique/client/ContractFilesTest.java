package dev.clique.client;

import static dev.clique.client.Fixtures.CONTRACT;
import static dev.clique.client.Fixtures.contractJson;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/** The golden files are all there, are JSON objects, and tell one consistent story. */
class ContractFilesTest {
  private static final List<String> FILES =
      List.of(
          "state.json",
          "healthz-anonymous.json",
          "healthz.json",
          "peek.json",
          "peek-stopped.json",
          "peek-conversation.json",
          "session-outside.json",
          "wait-matched.json",
          "wait-timeout.json",
          "wait-gone.json",
          "transcript.json",
          "transcript-empty.json",
          "error-unauthorized.json",
          "error-not-found.json",
          "error-read-only.json",
          "created.json",
          "ok.json");

  private static Map<String, JsonNode> sessionsById() {
    return StreamSupport.stream(contractJson("state.json").get("sessions").spliterator(), false)
        .collect(Collectors.toMap(s -> s.get("id").asText(), Function.identity()));
  }

  @Test
  void everyResponseShapeHasAFileThatIsAJsonObject() {
    assertThat(CONTRACT.resolve("README.md")).exists();
    for (String file : FILES) {
      assertThat(CONTRACT.resolve(file)).exists();
      assertThat(contractJson(file).isObject()).as(file).isTrue();
    }
  }

  @Test
  void errorBodiesAreTheEnginesWords() {
    assertThat(contractJson("error-unauthorized.json").get("error").asText())
        .isEqualTo("unauthorized");
    assertThat(contractJson("error-not-found.json").get("error").asText())
        .isEqualTo("no such session");
    assertThat(contractJson("error-read-only.json").get("error").asText())
        .isEqualTo("this API token is read-only");
    assertThat(contractJson("ok.json").get("ok").asBoolean()).isTrue();
    JsonNode created = contractJson("created.json");
    assertThat(UUID.fromString(created.get("id").asText())).isNotNull();
    assertThat(created.get("worktree").asText()).isEmpty();
  }

  @Test
  void theFilesDescribeTheSameTwoSessions() throws Exception {
    Map<String, JsonNode> sessions = sessionsById();
    JsonNode health = contractJson("healthz.json");

    assertThat(sessions.keySet()).allSatisfy(id -> assertThat(UUID.fromString(id)).isNotNull());
    assertThat(health.get("version")).isEqualTo(contractJson("state.json").get("version"));
    assertThat(health.get("sessions").asInt()).isEqualTo(sessions.size());
    assertThat(health.get("alive").asInt())
        .isEqualTo(sessions.values().stream().filter(s -> s.get("alive").asBoolean()).count());
    assertThat(health.get("attached").asInt())
        .isEqualTo(sessions.values().stream().filter(s -> s.get("attached").asBoolean()).count());

    for (String wait : List.of("wait-matched.json", "wait-timeout.json", "wait-gone.json")) {
      assertThat(sessions).containsKey(contractJson(wait).get("id").asText());
    }
    JsonNode claude = sessions.get(Fixtures.CLAUDE_ID);
    JsonNode shell = sessions.get(Fixtures.SHELL_ID);
    assertThat(contractJson("transcript.json").get("name")).isEqualTo(claude.get("name"));
    assertThat(contractJson("transcript.json").get("cli")).isEqualTo(claude.get("cli"));
    assertThat(contractJson("transcript-empty.json").get("name")).isEqualTo(shell.get("name"));
    assertThat(contractJson("peek.json").get("activity")).isEqualTo(claude.get("activity"));
    assertThat(contractJson("peek.json").get("lines").toString())
        .contains(claude.get("saying").asText());
    assertThat(shell.get("state").asText()).isEqualTo("stopped");
    assertThat(Files.readString(CONTRACT.resolve("state.json")))
        .contains(
            "\"color\"", "\"icon\"", "\"mode_seq\"", "\"worktree\"", "\"folders\"", "\"settings\"");
  }
}
