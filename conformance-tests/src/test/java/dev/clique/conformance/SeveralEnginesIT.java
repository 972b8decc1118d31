package dev.clique.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Engines on machines of their own, as people run them on a laptop and a few boxes: each a real
 * {@code clique serve} with its real tmux, in a network namespace the test makes, reached only over
 * its link. Each answers its own token and refuses the others'; one that is not there is a failure
 * that names its address, never the others'.
 */
class SeveralEnginesIT {
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  void eachEngineOnItsOwnHostAnswersItsOwnTokenOnly() throws Exception {
    try (EngineHosts hosts = EngineHosts.create(2)) {
      System.err.println("several engines: on " + hosts.kind());
      List<ThrowawayEngine> engines = new ArrayList<>();
      List<String> readers = new ArrayList<>();
      try {
        for (EngineHosts.Host host : hosts.hosts()) {
          ThrowawayEngine engine = ThrowawayEngine.prepareOn(host).start();
          engines.add(engine);
          String admin = engine.mintToken("several-admin", false);
          readers.add(engine.mintToken("several-reader", true));
          engine.createShell(admin, "on-" + host.address());
        }
        for (int i = 0; i < engines.size(); i++) {
          ThrowawayEngine engine = engines.get(i);
          HttpResponse<String> own = get(engine.url + "/api/state", readers.get(i));
          assertThat(own.statusCode()).as("%s with its own token", engine.url).isEqualTo(200);
          JsonNode sessions = ThrowawayEngine.json(own.body()).path("sessions");
          assertThat(sessions).hasSize(1);
          assertThat(sessions.get(0).path("name").asText())
              .isEqualTo("on-" + hosts.hosts().get(i).address());
          String other = readers.get((i + 1) % readers.size());
          assertThat(get(engine.url + "/api/state", other).statusCode())
              .as("%s with another engine's token", engine.url)
              .isEqualTo(401);
          if (hosts.namespaces()) {
            // It listens on its own host's address: this machine's loopback has nothing there.
            String local = "http://127.0.0.1:" + engine.port + "/healthz";
            assertThatThrownBy(() -> get(local, null)).isInstanceOf(IOException.class);
          }
        }
      } finally {
        for (ThrowawayEngine engine : engines) {
          engine.close();
        }
      }
    }
  }

  private HttpResponse<String> get(String url, String token)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).GET();
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
