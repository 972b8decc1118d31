package dev.clique.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

/** An engine's HTTP API as the benchmarks call it: one token, answers as JSON trees. */
final class EngineApi {
  private static final ObjectMapper JSON = new ObjectMapper();

  final String url;
  final String token;
  private final HttpClient http = HttpClient.newHttpClient();

  EngineApi(String url, String token) {
    this.url = url;
    this.token = token;
  }

  /** Makes a session of {@code cli} working in {@code cwd}; returns its id. */
  String create(String cli, Path cwd, String name) throws IOException, InterruptedException {
    JsonNode created =
        post(
            "/api/sessions",
            JSON.createObjectNode().put("cli", cli).put("cwd", cwd.toString()).put("name", name),
            201);
    return created.get("id").asText();
  }

  /** Makes a session of {@code cli} in permission {@code mode} (null: its default). */
  String create(String cli, Path cwd, String name, String mode)
      throws IOException, InterruptedException {
    ObjectNode body =
        JSON.createObjectNode().put("cli", cli).put("cwd", cwd.toString()).put("name", name);
    if (mode != null) {
      body.put("mode", mode);
    }
    return post("/api/sessions", body, 201).get("id").asText();
  }

  /** Types {@code text} and Enter into a session. */
  void send(String id, String text) throws IOException, InterruptedException {
    post("/api/sessions/" + id + "/send", JSON.createObjectNode().put("text", text), 200);
  }

  /** Types {@code text} into a session without Enter. */
  void type(String id, String text) throws IOException, InterruptedException {
    post(
        "/api/sessions/" + id + "/send",
        JSON.createObjectNode().put("text", text).put("enter", false),
        200);
  }

  /** Presses one named key ({@code Enter}, {@code Down}) in a session. */
  void key(String id, String key) throws IOException, InterruptedException {
    post("/api/sessions/" + id + "/send", JSON.createObjectNode().put("key", key), 200);
  }

  /** Ends a session as the engine ends one: its processes, the CLI's own children too. */
  void delete(String id) throws IOException, InterruptedException {
    answer(request("/api/sessions/" + id).DELETE(), 200);
  }

  JsonNode get(String path) throws IOException, InterruptedException {
    return answer(request(path).GET(), 200);
  }

  private JsonNode post(String path, JsonNode body, int status)
      throws IOException, InterruptedException {
    return answer(
        request(path)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))),
        status);
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(url + path))
        .timeout(Duration.ofSeconds(60))
        .header("Authorization", "Bearer " + token);
  }

  private JsonNode answer(HttpRequest.Builder request, int status)
      throws IOException, InterruptedException {
    HttpRequest built = request.build();
    HttpResponse<String> response = http.send(built, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != status) {
      throw new IOException(
          built.method()
              + " "
              + built.uri().getPath()
              + " answered "
              + response.statusCode()
              + ": "
              + response.body());
    }
    return JSON.readTree(response.body());
  }
}
