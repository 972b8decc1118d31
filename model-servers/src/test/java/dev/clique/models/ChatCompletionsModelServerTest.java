package dev.clique.models;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clique.models.ScriptedModelServer.Step;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Chat Completions wire format as an OpenAI client reads it, step by step of the script. */
class ChatCompletionsModelServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TURN =
      "{\"model\":\"gpt-test\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
          + "\"messages\":[{\"role\":\"system\",\"content\":\"be brief\"},"
          + "{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"<reminder/>\"},"
          + "{\"type\":\"text\",\"text\":\"Build it\"}]}],"
          + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"read_file\"}},"
          + "{\"type\":\"function\",\"function\":{\"name\":\"run_shell_command\"}}]}";

  private final HttpClient http = HttpClient.newHttpClient();
  private ChatCompletionsModelServer server;

  @BeforeEach
  void start() throws Exception {
    server = new ChatCompletionsModelServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> post(String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The {@code data:} payloads of an event stream, {@code [DONE]} last. */
  private static List<String> events(HttpResponse<String> response) {
    List<String> data = new ArrayList<>();
    for (String line : response.body().split("\n")) {
      if (line.startsWith("data: ")) {
        data.add(line.substring(6));
      }
    }
    return data;
  }

  @Test
  void aStreamedAnswerIsTextDeltasThenTheFinishThenTheUsage() throws Exception {
    server.then(new Step.SlowText("Hello there, person.", 3, Duration.ofMillis(30)));
    HttpResponse<String> response = post(TURN);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("text/event-stream");
    List<String> data = events(response);
    assertThat(data.get(data.size() - 1)).isEqualTo("[DONE]");
    StringBuilder text = new StringBuilder();
    List<String> finishes = new ArrayList<>();
    JsonNode usage = null;
    for (String event : data.subList(0, data.size() - 1)) {
      JsonNode chunk = JSON.readTree(event);
      assertThat(chunk.path("object").asText()).isEqualTo("chat.completion.chunk");
      for (JsonNode choice : chunk.path("choices")) {
        text.append(choice.path("delta").path("content").asText(""));
        if (!choice.path("finish_reason").isNull()) {
          finishes.add(choice.path("finish_reason").asText());
        }
      }
      if (chunk.has("usage")) {
        assertThat(chunk.path("choices")).isEmpty();
        usage = chunk.path("usage");
      }
    }
    assertThat(text.toString()).isEqualTo("Hello there, person.");
    assertThat(finishes).containsExactly("stop");
    assertThat(usage.path("total_tokens").asInt()).isEqualTo(15);
    assertThat(ChatCompletionsModelServer.lastUserText(server.received().get(0)))
        .isEqualTo("<reminder/>Build it");
  }

  @Test
  void aShellCallCallsTheShellToolTheRequestDeclares() throws Exception {
    server.then(new Step.ShellCall("make test", "Run the tests"));
    List<String> data = events(post(TURN));

    String name = null;
    StringBuilder arguments = new StringBuilder();
    String finish = null;
    for (String event : data.subList(0, data.size() - 1)) {
      for (JsonNode choice : JSON.readTree(event).path("choices")) {
        for (JsonNode call : choice.path("delta").path("tool_calls")) {
          name = call.path("function").has("name") ? call.at("/function/name").asText() : name;
          arguments.append(call.at("/function/arguments").asText(""));
        }
        finish =
            choice.path("finish_reason").isNull() ? finish : choice.path("finish_reason").asText();
      }
    }
    assertThat(name).isEqualTo("run_shell_command");
    JsonNode args = JSON.readTree(arguments.toString());
    assertThat(args.path("command").asText()).isEqualTo("make test");
    assertThat(args.path("description").asText()).isEqualTo("Run the tests");
    assertThat(finish).isEqualTo("tool_calls");
  }

  @Test
  void aFailureAnswersItsStatusWithAnOpenAiErrorAndTheNextStepFollows() throws Exception {
    server.then(
        new Step.Failure(429, "rate_limit_exceeded", "Slow down."),
        new Step.Failure(500, "server_error", "Broken."),
        new Step.Text("Fine again."));

    HttpResponse<String> limited = post(TURN);
    assertThat(limited.statusCode()).isEqualTo(429);
    assertThat(JSON.readTree(limited.body()).at("/error/type").asText())
        .isEqualTo("rate_limit_exceeded");
    assertThat(JSON.readTree(limited.body()).at("/error/message").asText()).isEqualTo("Slow down.");
    assertThat(post(TURN).statusCode()).isEqualTo(500);
    assertThat(post(TURN).body()).contains("Fine again.");
  }

  @Test
  void aSideRequestWithoutToolsTakesNoStepAndAnUnstreamedOneIsOneCompletion() throws Exception {
    server.then(new Step.Text("The scripted turn."));
    HttpResponse<String> side =
        post("{\"model\":\"gpt-test\",\"messages\":[{\"role\":\"user\",\"content\":\"title?\"}]}");
    JsonNode completion = JSON.readTree(side.body());
    assertThat(completion.path("object").asText()).isEqualTo("chat.completion");
    assertThat(completion.at("/choices/0/message/content").asText())
        .isEqualTo(ChatCompletionsModelServer.sideAnswer());
    assertThat(server.mainTurns()).isEmpty();
    assertThat(post(TURN).body()).contains("The scripted turn.");
    assertThat(server.mainTurns()).hasSize(1);
  }

  @Test
  void theModelIsListed() throws Exception {
    HttpResponse<String> models =
        http.send(
            HttpRequest.newBuilder(URI.create(server.baseUrl() + "/models")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(JSON.readTree(models.body()).at("/data/0/id").asText())
        .isEqualTo(ChatCompletionsModelServer.MODEL);
  }
}
