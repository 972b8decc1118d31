package dev.clique.engine.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** A small HTTP client for the engine's API in tests: one token, JSON in and out. */
public final class ApiClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final String base;
  private final String token;

  public ApiClient(String base, String token) {
    this.base = base;
    this.token = token;
  }

  /** A response: the status and the parsed body. */
  public record Answer(int status, JsonNode body) {}

  public Answer get(String path) throws IOException, InterruptedException {
    return parse(http.send(request(path).GET().build(), HttpResponse.BodyHandlers.ofString()));
  }

  public CompletableFuture<Answer> getAsync(String path) {
    return http.sendAsync(request(path).GET().build(), HttpResponse.BodyHandlers.ofString())
        .thenApply(ApiClient::parse);
  }

  public Answer post(String path, String json) throws IOException, InterruptedException {
    return parse(
        http.send(
            request(path)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.ofString()));
  }

  public Answer delete(String path) throws IOException, InterruptedException {
    return parse(http.send(request(path).DELETE().build(), HttpResponse.BodyHandlers.ofString()));
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(base + path))
        .timeout(Duration.ofSeconds(60))
        .header("Authorization", "Bearer " + token);
  }

  private static Answer parse(HttpResponse<String> response) {
    try {
      return new Answer(response.statusCode(), JSON.readTree(response.body()));
    } catch (IOException e) {
      throw new IllegalStateException("not JSON: " + response.body(), e);
    }
  }
}
